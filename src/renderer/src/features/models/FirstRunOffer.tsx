/**
 * The first-run offer: with no cloud key and no model installed, the model
 * that suits this computer, with one button to get it (its progress in the
 * status bar; PocketSphinx keeps transcribing meanwhile), a way to compare,
 * and "Not now", remembered.
 */
import { Button } from '../../components/Button';
import { formatBytes } from '../../components/format';
import { Icon } from '../../components/Icon';
import { useApp } from '../../stores/app';
import { useKeys } from '../../stores/keys';
import { offerShown, useModels } from '../../stores/models';
import { useSettings } from '../../stores/settings';
import { hostOf, languagesText } from './modelText';

/** Disk space as sold: decimal GB; memory as the OS counts it, in GiB, called GB. */
const memoryText = (bytes: number) => `${Math.round(bytes / 1024 ** 3)} GB`;

export function FirstRunOffer({ where }: { where: 'library' | 'models' }) {
  const offer = useModels((s) => s.offer);
  const rows = useModels((s) => s.list?.models);
  const accept = useModels((s) => s.acceptOffer);
  const dismiss = useModels((s) => s.dismissOffer);
  const region = useSettings((s) => s.settings.region);
  const keyPresent = useKeys((s) => s.status?.present ?? false);
  const setScreen = useApp((s) => s.setScreen);
  if (!offerShown(offer, region, keyPresent)) return null;
  const entry = rows?.find((r) => r.entry.id === offer!.id)?.entry;
  if (!entry) return null;
  const { profile } = offer!;
  const wer = entry.wer[0];
  return (
    <section className={`card offer offer--${where}`} aria-labelledby="offer-title" data-testid="model-offer">
      <div className="offer__icon" aria-hidden="true">
        <Icon name="spark" />
      </div>
      <div className="offer__body">
        <h2 id="offer-title">Transcribe more accurately on this computer</h2>
        <p>
          Verbatim transcribes with PocketSphinx, built in, until you get a better model. For this computer ({memoryText(profile.memoryBytes)} of memory,{' '}
          {profile.cores} cores{profile.freeDiskBytes !== null ? `, ${formatBytes(profile.freeDiskBytes)} free` : ''}) the one to get is{' '}
          <strong>{entry.name}</strong>: {languagesText(entry.languages)}, {formatBytes(entry.sizeBytes)} to download
          {wer ? (
            <>
              , {wer.value}% word error rate on {wer.set} as published by{' '}
              <a href={wer.source} target="_blank" rel="noreferrer">
                {hostOf(wer.source)}
              </a>
            </>
          ) : null}
          .
        </p>
        <p className="muted">
          It runs here with no network once downloaded. PocketSphinx keeps working while it downloads; the status bar shows how far it is.
        </p>
        <div className="offer__actions">
          <Button variant="primary" icon="download" onClick={() => void accept(entry.id)}>
            Download {entry.name}
          </Button>
          {where === 'library' && <Button onClick={() => setScreen('models')}>Compare models</Button>}
          <Button variant="ghost" onClick={() => void dismiss()}>
            Not now
          </Button>
        </div>
      </div>
    </section>
  );
}
