/**
 * A subtitle file chosen for import: onto the open recording's cues (`onto`,
 * from the Subtitles view), or as a new library item, optionally with its
 * video or audio. A file that is not subtitles is refused in one sentence
 * (audio or video can be transcribed instead); a readable file shows how it
 * was read (its encoding, what was fixed up) and the first cues it could not read.
 */
import { useId, useRef, useState } from 'react';
import { mediaAcceptAttribute } from '../../../../shared/media-files';
import type { UploadProgress } from '../../bridge';
import { errorMessage } from '../../bridge';
import { Button } from '../../components/Button';
import { Dialog } from '../../components/Dialog';
import { formatBytes } from '../../components/format';
import { ProgressBar } from '../../components/ProgressBar';
import { classify, sortFiles } from '../../lib/collect';
import type { SubtitleFile } from '../../lib/subtitleFile';
import { useApp } from '../../stores/app';
import { useIntake } from '../../stores/intake';
import { useSubtitles } from '../../stores/subtitles';
import { importAsItem } from '../../stores/subtitleFiles';
import { toast } from '../../stores/toasts';
import { cueTime } from './time';

/** Cues that could not be read, listed by line: the first ones, then how many more. */
const LISTED_PROBLEMS = 10;

export function ImportSubtitlesDialog({ file, onClose, onto = true }: { file: SubtitleFile | null; onClose(): void; onto?: boolean }) {
  const importOnto = useSubtitles((s) => s.importOnto);
  const count = useSubtitles((s) => s.cues.length);
  const openTranscript = useApp((s) => s.openTranscript);
  const setScreen = useApp((s) => s.setScreen);
  const desktop = useApp((s) => s.info?.mode === 'electron');
  const [media, setMedia] = useState<File | null>(null);
  const [mediaError, setMediaError] = useState<string | null>(null);
  const [upload, setUpload] = useState<UploadProgress | null>(null);
  const [busy, setBusy] = useState(false);
  const mediaInput = useRef<HTMLInputElement>(null);
  const abort = useRef<AbortController | null>(null);
  const legendId = useId();
  const check = file?.check ?? null;
  const parsed = check?.ok ? check.parsed : null;
  const usable = (parsed?.doc.cues.length ?? 0) > 0;
  // Another subtitle file: start again with no media (adjusted during render, React's pattern for state that follows a prop).
  const [forFile, setForFile] = useState(file);
  if (forFile !== file) {
    setForFile(file);
    setMedia(null);
    setMediaError(null);
    setUpload(null);
  }
  const close = () => {
    abort.current?.abort();
    abort.current = null;
    setBusy(false);
    onClose();
  };
  const addAsItem = async () => {
    if (!file) return;
    setBusy(true);
    const ac = new AbortController();
    abort.current = ac;
    try {
      const r = await importAsItem(file, media, setUpload, ac.signal);
      toast(`Added “${file.name}” to the library with ${r.cues} cues${r.media ? ` and ${r.media}` : ''}.`, 'ok');
      abort.current = null;
      setBusy(false);
      onClose();
      openTranscript(r.id);
    } catch (err) {
      if (ac.signal.aborted) return;
      setBusy(false);
      setUpload(null);
      toast(errorMessage(err), 'error');
    }
  };
  const transcribe = () => {
    if (!file?.file) return;
    useIntake.getState().add(sortFiles([file.file]));
    toast(`Transcribing ${file.name}: it is in the library's queue.`, 'ok');
    onClose();
    setScreen('library');
  };

  if (check && !check.ok) {
    const canTranscribe = check.media && file?.file !== undefined;
    return (
      <Dialog
        open={file !== null}
        title={`Import ${file?.name ?? ''}`}
        width={540}
        onClose={close}
        footer={
          <>
            <Button data-autofocus={canTranscribe ? undefined : true} onClick={close}>
              {canTranscribe ? 'Cancel' : 'OK'}
            </Button>
            {canTranscribe && (
              <Button variant="primary" icon="upload" data-autofocus onClick={transcribe}>
                Transcribe {file?.name}
              </Button>
            )}
          </>
        }
      >
        <p role="alert" data-testid="import-refusal">
          {check.message}
        </p>
        {canTranscribe && <p className="muted">It can be transcribed instead: its text then becomes subtitles in the Subtitles view.</p>}
      </Dialog>
    );
  }

  return (
    <Dialog
      open={file !== null}
      title={file ? `Import ${file.name}` : 'Import'}
      width={540}
      onClose={close}
      footer={
        <>
          <Button onClick={close}>Cancel</Button>
          <Button variant={onto ? 'secondary' : 'primary'} data-autofocus={onto ? undefined : true} disabled={!usable || busy} busy={busy} onClick={addAsItem}>
            Add as a new item
          </Button>
          {onto && (
            <Button
              variant="primary"
              data-autofocus
              disabled={!usable || busy}
              onClick={() => {
                if (!parsed || !file) return;
                importOnto(file.text, file.name, file.file);
                toast(`Imported ${parsed.doc.cues.length} cues from ${file.name}. Undo brings the previous cues back.`, 'ok');
                onClose();
              }}
            >
              Replace these cues
            </Button>
          )}
        </>
      }
    >
      {parsed && check?.ok && (
        <>
          <p>
            {usable
              ? `${parsed.doc.cues.length} ${parsed.doc.cues.length === 1 ? 'cue' : 'cues'} (${parsed.format.toUpperCase()}), from ${cueTime(parsed.doc.cues[0]!.start)} to ${cueTime(parsed.doc.cues[parsed.doc.cues.length - 1]!.end)}. ${
                  onto ? `They can replace the ${count} cues here (undoable), or become a new library item.` : 'They become a new library item.'
                }`
              : 'Verbatim found no cue it could read in this file.'}
          </p>
          <ul className="import-summary" aria-label="How the file was read" data-testid="import-summary">
            {check.summary.map((s) => (
              <li key={s}>{s}</li>
            ))}
          </ul>
          {parsed.problems.length > 0 && (
            <div className="banner banner--error" role="alert">
              <p>
                {parsed.problems.length} {parsed.problems.length === 1 ? 'part' : 'parts'} of the file could not be read and will be left out. Fix them in the
                file and import it again to keep them:
              </p>
              <ul className="problems" data-testid="import-problems">
                {parsed.problems.slice(0, LISTED_PROBLEMS).map((p, i) => (
                  <li key={`${p.line}-${i}`}>{p.message}</li>
                ))}
                {parsed.problems.length > LISTED_PROBLEMS && <li>…and {parsed.problems.length - LISTED_PROBLEMS} more.</li>}
              </ul>
            </div>
          )}
          {usable && (
            <div className="media-choice" role="group" aria-labelledby={legendId}>
              <p id={legendId} className="media-choice__label">
                Video or audio for the new item <span className="muted">(optional)</span>
              </p>
              <div className="media-choice__row">
                <span className={media ? 'media-choice__file' : 'muted'} data-testid="media-choice">
                  {media
                    ? `${media.name} (${formatBytes(media.size)})`
                    : desktop
                      ? 'None chosen: a video or audio file with the same name beside the subtitle file is used, if there is one.'
                      : 'None chosen: the new item has the cues and text, with nothing to play.'}
                </span>
                <Button size="sm" icon="upload" disabled={busy} onClick={() => mediaInput.current?.click()}>
                  {media ? 'Change…' : 'Choose video or audio…'}
                </Button>
                {media && (
                  <Button size="sm" variant="ghost" disabled={busy} onClick={() => setMedia(null)}>
                    Remove
                  </Button>
                )}
              </div>
              <input
                ref={mediaInput}
                type="file"
                hidden
                accept={mediaAcceptAttribute}
                aria-label="Video or audio file for the new item"
                onChange={(e) => {
                  const f = e.target.files?.[0];
                  e.target.value = '';
                  if (!f) return;
                  const c = classify(f.name, f.type, f.size);
                  setMediaError(c.ok ? null : `“${f.name}” cannot be used: ${c.reason}`);
                  if (c.ok) setMedia(f);
                }}
              />
              {mediaError && (
                <p className="field__error" role="alert">
                  {mediaError}
                </p>
              )}
              {upload && media && !desktop && (
                <ProgressBar
                  value={upload.total ? (upload.bytes / upload.total) * 100 : null}
                  label={`Uploading ${media.name}`}
                  bytesPerSecond={upload.bytesPerSecond}
                  etaSeconds={upload.etaSeconds}
                />
              )}
            </div>
          )}
        </>
      )}
    </Dialog>
  );
}
