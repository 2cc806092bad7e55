/**
 * The Models screen: the models in use at the top, then every downloadable
 * model in one table to compare (size, languages, accuracy with its source,
 * speed measured on this computer, word times) with its action on its row and
 * its details on demand, filtered by task; then a mirror and install from a file.
 */
import { useState } from 'react';
import type { ModelRow as Row } from '../../../../shared/models/view';
import { formatBytes } from '../../components/format';
import { useModels } from '../../stores/models';
import { useSettings } from '../../stores/settings';
import { DefaultPickers } from './DefaultPickers';
import { ModelRow } from './ModelRow';
import { OtherWays } from './OtherWays';
import { FirstRunOffer } from './FirstRunOffer';
import { rtfText } from './modelText';

type Filter = 'all' | 'files' | 'live' | 'speakers' | 'chat';
const FILTERS: { id: Filter; label: string; tasks: Row['entry']['task'][] }[] = [
  { id: 'all', label: 'All', tasks: ['files', 'live', 'segmentation', 'embedding', 'chat'] },
  { id: 'files', label: 'Files', tasks: ['files'] },
  { id: 'live', label: 'Live captions', tasks: ['live'] },
  { id: 'speakers', label: 'Speakers', tasks: ['segmentation', 'embedding'] },
  { id: 'chat', label: 'Chat', tasks: ['chat'] },
];

function InUse() {
  const rows = useModels((s) => s.list?.models) ?? [];
  const speeds = useModels((s) => s.speeds);
  const defaults = useSettings((s) => s.settings.models);
  const nameOf = (id: string) => (id ? (rows.find((r) => r.entry.id === id)?.entry.name ?? id) : 'PocketSphinx (built in)');
  const speed = defaults.files ? speeds[defaults.files] : undefined;
  return (
    <section className="card" aria-labelledby="models-inuse-title">
      <h2 id="models-inuse-title">In use</h2>
      <p className="field__help" data-testid="models-in-use">
        Files are transcribed with {nameOf(defaults.files)}; live captions use {nameOf(defaults.live)}.
        {speed ? ` Measured on this computer: ${rtfText(speed.rtf)}.` : ''} A change applies to the next file or session, with no restart.
      </p>
      <DefaultPickers />
    </section>
  );
}

export function ModelsScreen() {
  const list = useModels((s) => s.list);
  const error = useModels((s) => s.error);
  const notice = useModels((s) => s.notice);
  const defaults = useSettings((s) => s.settings.models);
  const [filter, setFilter] = useState<Filter>('all');
  const tasks = FILTERS.find((f) => f.id === filter)!.tasks;
  const rows = list?.models.filter((r) => tasks.includes(r.entry.task)) ?? [];
  return (
    <div className="page page--wide models-page">
      <header className="page__header">
        <h1>Models</h1>
      </header>
      <p className="page__intro">
        Models that transcribe on this computer. Once downloaded they need no network and no key, and your audio stays here. Accuracy is as each publisher
        measured it (lower is better); speed is measured on this computer when you test a model.
      </p>
      <FirstRunOffer where="models" />
      <InUse />
      {error && (
        <p className="banner banner--error" role="alert">
          {error}
        </p>
      )}
      <p className="muted models-page__notice" role="status" data-testid="models-notice">
        {notice ?? ''}
      </p>
      <section className="card mtable-card" aria-labelledby="models-all-title">
        <div className="mtable-card__head">
          <h2 id="models-all-title">All models</h2>
          <div role="radiogroup" aria-label="Show models for" className="segmented">
            {FILTERS.map((f) => (
              <label key={f.id} className="segmented__item">
                <input type="radio" name="models-filter" value={f.id} checked={filter === f.id} onChange={() => setFilter(f.id)} />
                <span>{f.label}</span>
              </label>
            ))}
          </div>
        </div>
        {list === null ? (
          <p className="muted">Loading the models…</p>
        ) : (
          <>
            <p className="muted mtable-card__disk">
              {list.freeBytes !== null && <>{formatBytes(list.freeBytes)} free in </>}
              <code className="path">{list.dir}</code>
            </p>
            <div className="mtable-wrap">
              <table className="mtable" aria-labelledby="models-all-title">
                <thead>
                  <tr>
                    <th scope="col">Model</th>
                    <th scope="col">Size</th>
                    <th scope="col">Languages</th>
                    <th scope="col">Accuracy</th>
                    <th scope="col">Speed here</th>
                    <th scope="col">Word times</th>
                    <th scope="col">
                      <span className="sr-only">Actions</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {rows.map((row) => (
                    <ModelRow key={row.entry.id} row={row} defaults={defaults} />
                  ))}
                </tbody>
              </table>
            </div>
          </>
        )}
      </section>
      <OtherWays />
    </div>
  );
}
