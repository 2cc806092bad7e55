/** Settings → Backups → Make a backup: whether remembered voices go in (off unless ticked), a new folder, and what was written. */
import { useState } from 'react';
import { errorMessage } from '../../bridge';
import { Button } from '../../components/Button';
import { ProgressBar } from '../../components/ProgressBar';
import { useLibrary } from '../../stores/library';
import { useSettings } from '../../stores/settings';

export function MakeBackup({ hostMode }: { hostMode: boolean }) {
  const [dir, setDir] = useState('');
  const [running, setRunning] = useState(false);
  const [outcome, setOutcome] = useState<{ failed: boolean; text: string } | null>(null);
  const withVoices = useSettings((s) => s.settings.backupVoiceprints === true);
  const update = useSettings((s) => s.update);
  const progress = useLibrary((s) => s.exportProgress);
  const percent = !progress ? 0 : progress.total > 0 ? Math.min(100, (progress.done / progress.total) * 100) : null;

  async function start(): Promise<void> {
    setRunning(true);
    setOutcome(null);
    try {
      const r = await useLibrary.getState().makeBackup(dir.trim());
      const voices = withVoices ? 'Remembered voices are included.' : 'Remembered voices were left out.';
      const items = `${r.items} ${r.items === 1 ? 'item' : 'items'}`;
      const audio = `${r.audioFiles} audio ${r.audioFiles === 1 ? 'file' : 'files'}`;
      setOutcome({ failed: false, text: `Backed up ${items} and ${audio} into ${r.dir}. ${voices}` });
    } catch (err) {
      setOutcome({ failed: true, text: errorMessage(err) });
    } finally {
      setRunning(false);
    }
  }

  return (
    <>
      <h3 className="backup__part" id="make-backup-title">
        Make a backup
      </h3>
      <div className="field">
        <label className="check">
          <input
            type="checkbox"
            checked={withVoices}
            onChange={(e) => void update({ backupVoiceprints: e.target.checked })}
            aria-describedby="backup-voices-help"
          />
          <span>Include remembered voices (voiceprints) in backups</span>
        </label>
        <p className="field__help" id="backup-voices-help">
          Voiceprints identify people by their voice. They stay on this computer unless you include them here; a backup made while this is off holds no
          voiceprint. Restoring a backup brings back the voices it holds.
        </p>
      </div>
      <form
        aria-labelledby="make-backup-title"
        onSubmit={(e) => {
          e.preventDefault();
          if (!running && dir.trim()) void start();
        }}
      >
        <div className="field">
          <label htmlFor="backup-target">Folder for the backup</label>
          <input
            id="backup-target"
            type="text"
            value={dir}
            onChange={(e) => setDir(e.target.value)}
            disabled={running}
            spellCheck={false}
            aria-describedby="backup-target-help"
          />
          <p className="field__help" id="backup-target-help">
            A new or empty folder{hostMode ? ' on the computer running Verbatim' : ''}: the backup writes library.json and a copy of each recording&apos;s audio
            into it.
          </p>
        </div>
        <div className="row">
          <Button type="submit" variant="secondary" disabled={running || !dir.trim()} busy={running}>
            Back up the library
          </Button>
        </div>
      </form>
      {running && <ProgressBar value={percent} label="Making the backup" activity="Writing the backup…" showFigures={false} />}
      <div role="status" aria-live="polite" data-testid="backup-made">
        {outcome && <p className={outcome.failed ? 'field__error' : undefined}>{outcome.text}</p>}
      </div>
    </>
  );
}
