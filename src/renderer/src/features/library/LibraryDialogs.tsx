/** Dialogs of the library screen: add from URL, tag and delete the selection (Export is app-wide: ExportDialog.tsx). */
import { useState } from 'react';
import { Button } from '../../components/Button';
import { Dialog } from '../../components/Dialog';
import { useLibrary } from '../../stores/library';
import { toast } from '../../stores/toasts';
import { useIntake } from '../../stores/intake';

export function AddUrlDialog({ open, onClose: close }: { open: boolean; onClose(): void }) {
  const [url, setUrl] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // Each opening starts clean: a rejected link from last time is not this time's input.
  const onClose = () => {
    setUrl('');
    setError(null);
    close();
  };
  const submit = async () => {
    let parsed: URL;
    try {
      parsed = new URL(url.trim());
      if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new Error('protocol');
    } catch {
      setError('That is not a web address. Paste a link that starts with https:// and points at an audio or video file.');
      return;
    }
    setBusy(true);
    const err = await useIntake.getState().addUrl(parsed.toString());
    setBusy(false);
    if (err) setError(err);
    else {
      setUrl('');
      setError(null);
      onClose();
      toast('Added to the queue.', 'ok');
    }
  };
  return (
    <Dialog
      open={open}
      title="Add from URL"
      onClose={onClose}
      footer={
        <>
          <Button variant="ghost" onClick={onClose}>
            Cancel
          </Button>
          <Button variant="primary" type="submit" form="add-url-form" busy={busy} disabled={!url.trim()}>
            Transcribe
          </Button>
        </>
      }
    >
      <form
        id="add-url-form"
        className="field"
        // The app says what is wrong in its own words; the browser's bubble would say "Please enter a URL."
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <label htmlFor="add-url">Link to an audio or video file</label>
        <input
          id="add-url"
          data-autofocus
          type="url"
          placeholder="https://example.org/interview.mp3"
          value={url}
          onChange={(e) => setUrl(e.target.value)}
          aria-invalid={error ? true : undefined}
          aria-describedby="add-url-help"
        />
        <p id="add-url-help" className={error ? 'field__error' : 'field__help'} role={error ? 'alert' : undefined}>
          {error ?? 'The service fetches the file itself, so the link must be public. Nothing is uploaded from this computer.'}
        </p>
      </form>
    </Dialog>
  );
}

export function TagDialog({ open, onClose, ids }: { open: boolean; onClose(): void; ids: string[] }) {
  const [tag, setTag] = useState('');
  const setTags = useLibrary((s) => s.setTags);
  const items = useLibrary((s) => s.items);
  const known = useLibrary((s) => s.tags);
  const apply = async () => {
    const t = tag.trim();
    if (!t) return;
    for (const id of ids) {
      const it = items.find((x) => x?.id === id);
      await setTags(id, [...new Set([...(it?.tags ?? []), t])]);
    }
    toast(`Tagged ${ids.length} ${ids.length === 1 ? 'recording' : 'recordings'} with “${t}”.`, 'ok');
    setTag('');
    onClose();
  };
  return (
    <Dialog
      open={open}
      title={`Tag ${ids.length} ${ids.length === 1 ? 'recording' : 'recordings'}`}
      onClose={onClose}
      footer={
        <>
          <Button variant="ghost" onClick={onClose}>
            Cancel
          </Button>
          <Button variant="primary" onClick={() => void apply()} disabled={!tag.trim()}>
            Add tag
          </Button>
        </>
      }
    >
      <div className="field">
        <label htmlFor="tag-name">Tag</label>
        <input
          id="tag-name"
          data-autofocus
          type="text"
          list="known-tags"
          value={tag}
          maxLength={60}
          onChange={(e) => setTag(e.target.value)}
          onKeyDown={(e) => e.key === 'Enter' && void apply()}
        />
        <datalist id="known-tags">
          {known.map((t) => (
            <option key={t.name} value={t.name} />
          ))}
        </datalist>
      </div>
    </Dialog>
  );
}

export function DeleteDialog({ open, onClose, ids }: { open: boolean; onClose(): void; ids: string[] }) {
  const [remote, setRemote] = useState(false);
  const remove = useLibrary((s) => s.remove);
  const chosen = new Set(ids);
  // Only recordings made on a cloud service have a copy there to delete.
  const anyRemote = useLibrary((s) => s.items.some((it) => it !== undefined && chosen.has(it.id) && it.region !== 'local' && it.remoteId !== null));
  const [busy, setBusy] = useState(false);
  return (
    <Dialog
      open={open}
      title={`Delete ${ids.length} ${ids.length === 1 ? 'recording' : 'recordings'}?`}
      onClose={onClose}
      footer={
        <>
          <Button variant="ghost" data-autofocus onClick={onClose}>
            Keep
          </Button>
          <Button
            variant="danger"
            busy={busy}
            onClick={async () => {
              setBusy(true);
              await remove(ids, remote && anyRemote);
              setBusy(false);
              onClose();
            }}
          >
            Delete
          </Button>
        </>
      }
    >
      <p>The transcripts and any audio copies are removed from this computer. This cannot be undone.</p>
      {anyRemote && (
        <label className="check">
          <input type="checkbox" checked={remote} onChange={(e) => setRemote(e.target.checked)} />
          <span>Also delete {ids.length === 1 ? 'it' : 'them'} on the transcription service</span>
        </label>
      )}
    </Dialog>
  );
}
