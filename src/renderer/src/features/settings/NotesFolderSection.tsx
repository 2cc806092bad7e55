/** Settings → Notes folder: every finished transcript kept as a Markdown note in a folder (an Obsidian or Logseq vault's, say). */
import { useState } from 'react';
import { Badge } from '../../components/Badge';
import { Button } from '../../components/Button';
import { useNotes } from '../../stores/notes';

export function NotesFolderSection({ hostMode }: { hostMode: boolean }) {
  const status = useNotes((s) => s.status);
  const [path, setPath] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const save = async (folder: string | null) => {
    setBusy(true);
    const problem = await useNotes.getState().setFolder(folder);
    setBusy(false);
    setError(problem);
    if (!problem) setPath('');
  };
  const kept = status?.kept ?? [];
  return (
    <section className="card" aria-labelledby="notes-title" data-testid="notes-section">
      <h2 id="notes-title">Notes folder</h2>
      <p className="field__help">
        Each finished transcript is kept in this folder as a Markdown note, with its title, date, speakers and tags at the top and its summary when there is
        one, and kept up to date when you rename it, name speakers or correct words. A note you edit in the folder is never overwritten. Deleting a recording
        leaves its note.
      </p>
      {status?.folder && (
        <div className="field">
          <span className="field__label">
            Notes are kept in <Badge tone={status.problem ? 'danger' : 'ok'}>{status.problem ? 'Not written' : `${status.notes} notes`}</Badge>
          </span>
          <code className="path" data-testid="notes-folder">
            {status.folder}
          </code>
          {status.problem && <p className="field__error">{status.problem}</p>}
          <div className="row">
            <Button size="sm" variant="ghost" busy={busy} onClick={() => void save(null)}>
              Stop keeping notes
            </Button>
          </div>
        </div>
      )}
      {kept.length > 0 && (
        <div className="field" data-testid="notes-kept">
          <span className="field__label">Notes you edited</span>
          <ul className="notes-kept">
            {kept.map((k) => (
              <li key={k.copy}>
                You edited “{k.note}”, so Verbatim left it as it is and wrote its update beside it as “{k.copy}”.
              </li>
            ))}
          </ul>
        </div>
      )}
      <form
        className="subsection"
        aria-label="Choose the notes folder"
        onSubmit={(e) => {
          e.preventDefault();
          if (path.trim() && !busy) void save(path.trim());
        }}
      >
        <div className="field">
          <label htmlFor="notes-path">{status?.folder ? 'Another folder' : 'Folder'}</label>
          <div className="keyform__row">
            <input
              id="notes-path"
              type="text"
              value={path}
              spellCheck={false}
              autoComplete="off"
              placeholder="/home/you/Vault/Meetings"
              aria-invalid={error ? true : undefined}
              aria-describedby="notes-path-note"
              onChange={(e) => setPath(e.target.value)}
            />
            {!hostMode && (
              <Button
                size="sm"
                onClick={() =>
                  void useNotes
                    .getState()
                    .pick()
                    .then((p) => p && setPath(p))
                }
              >
                Choose…
              </Button>
            )}
          </div>
          <p id="notes-path-note" className={error ? 'field__error' : 'field__help'} role={error ? 'alert' : undefined}>
            {error ??
              (hostMode
                ? 'The full path of a folder on the computer running Verbatim, inside a folder host mode was started with (--folder).'
                : 'The full path of the folder.')}
          </p>
        </div>
        <div className="row">
          <Button type="submit" variant="primary" busy={busy} disabled={!path.trim()}>
            Keep notes here
          </Button>
        </div>
      </form>
    </section>
  );
}
