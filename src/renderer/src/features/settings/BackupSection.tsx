/**
 * Settings → Backups: making one (MakeBackup: remembered voices only when ticked), and restoring a backup
 * folder with a progress bar and Cancel, then what came in and what was left out.
 */
import { useState } from 'react';
import { errorCode, errorMessage } from '../../bridge';
import { Button } from '../../components/Button';
import { ProgressBar } from '../../components/ProgressBar';
import { useLibrary } from '../../stores/library';
import { MakeBackup } from './MakeBackup';
import './backup.css';

type Outcome = { kind: 'done' | 'failed' | 'canceled'; text: string; notes: string[] };

export function BackupSection({ hostMode }: { hostMode: boolean }) {
  const [dir, setDir] = useState('');
  const [running, setRunning] = useState(false);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const progress = useLibrary((s) => s.importProgress);
  // 0 until main's first report; then the share done, or unknown while the backup is still being counted.
  const percent = !progress ? 0 : progress.total > 0 ? Math.min(100, (progress.done / progress.total) * 100) : null;

  async function start(): Promise<void> {
    setRunning(true);
    setOutcome(null);
    try {
      const r = await useLibrary.getState().importBackup(dir.trim());
      const skipped = r.skipped ? ` ${r.skipped} were already in the library.` : '';
      setOutcome({ kind: 'done', text: `Imported ${r.imported} ${r.imported === 1 ? 'item' : 'items'}.${skipped}`, notes: r.notes });
    } catch (err) {
      if (errorCode(err) === 'canceled') setOutcome({ kind: 'canceled', text: 'Import canceled. Nothing from this backup was kept.', notes: [] });
      else setOutcome({ kind: 'failed', text: errorMessage(err), notes: [] });
    } finally {
      setRunning(false);
    }
  }

  return (
    <section className="card" aria-labelledby="backup-title">
      <h2 id="backup-title">Backups</h2>
      <MakeBackup hostMode={hostMode} />
      <h3 className="backup__part" id="restore-title">
        Restore a backup
      </h3>
      <form
        aria-labelledby="restore-title"
        onSubmit={(e) => {
          e.preventDefault();
          if (!running && dir.trim()) void start();
        }}
      >
        <div className="field">
          <label htmlFor="backup-folder">Backup folder</label>
          <input
            id="backup-folder"
            type="text"
            value={dir}
            onChange={(e) => setDir(e.target.value)}
            disabled={running}
            spellCheck={false}
            aria-describedby="backup-help"
          />
          <p className="field__help" id="backup-help">
            The folder a backup was saved into (it holds library.json and audio/){hostMode ? ', on the computer running Verbatim' : ''}. Items already in the
            library are left as they are.
          </p>
        </div>
        <div className="row">
          <Button type="submit" variant="primary" disabled={running || !dir.trim()}>
            Import backup
          </Button>
          {running && (
            <Button type="button" variant="secondary" onClick={() => void useLibrary.getState().cancelImport()}>
              Cancel import
            </Button>
          )}
        </div>
      </form>
      {running && <ProgressBar value={percent} label="Backup import" activity="Reading the backup…" showFigures={false} />}
      <div role="status" aria-live="polite" data-testid="backup-outcome">
        {outcome && (
          <>
            <p className={outcome.kind === 'failed' ? 'field__error' : undefined}>{outcome.text}</p>
            {outcome.notes.length > 0 && (
              <ul>
                {outcome.notes.map((n, i) => (
                  <li key={i}>{n}</li>
                ))}
              </ul>
            )}
          </>
        )}
      </div>
    </section>
  );
}
