/**
 * Improve accuracy of a live session: its recording goes to the service as a
 * pre-recorded job; the improved transcript becomes the one shown, and the
 * live one is kept and can be read again.
 */
import { useEffect, useState } from 'react';
import { Button } from '../../components/Button';
import { api, errorMessage } from '../../bridge';
import { useTranscript } from '../../stores/transcript';
import { unpackTranscript } from '../../../../shared/transcript-columns';

type Version = { transcriptId: string; kind: 'live' | 'improved'; status: string; createdAt: string; wordCount: number };

/** Shows one version in the open transcript: a transcript id, or null for the newest. */
function showVersion(recordingId: string, transcriptId: string | null): void {
  const load = transcriptId ? api.invoke('captions.version', { id: recordingId, transcriptId }) : api.invoke('library.get', { id: recordingId });
  void load.then((t) => useTranscript.getState().applyTranscript(unpackTranscript(t))).catch(() => undefined);
}

/** `switcher`: on the transcript screen, also offer to read the live version once an improved one exists. */
export function ImproveAccuracy({ recordingId, switcher = false }: { recordingId: string; switcher?: boolean }) {
  const [versions, setVersions] = useState<Version[] | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [shown, setShown] = useState<string | null>(null);

  useEffect(() => {
    let alive = true;
    const load = () =>
      api
        .invoke('captions.versions', { id: recordingId })
        .then((v) => alive && setVersions(v.versions))
        .catch(() => alive && setVersions(null));
    void load();
    const off = api.on('library.changed', (c) => c.ids.includes(recordingId) && void load());
    return () => {
      alive = false;
      off();
    };
  }, [recordingId]);

  const pending = versions?.find((v) => v.kind === 'improved' && !['completed', 'error', 'canceled'].includes(v.status));
  const improved = versions?.find((v) => v.kind === 'improved' && v.status === 'completed');
  const live = versions?.find((v) => v.kind === 'live');
  const newest = versions?.[0];

  // While an improvement runs (or after it failed), the live text stays readable; once it completes it is shown.
  const fallback =
    switcher && newest && live && newest.kind === 'improved' && newest.status !== 'completed' ? (improved?.transcriptId ?? live.transcriptId) : null;
  useEffect(() => {
    if (!switcher || !versions) return;
    if (fallback) showVersion(recordingId, fallback);
  }, [switcher, versions, fallback, recordingId]);

  if (!versions) return null;

  return (
    <span className="cap-improve">
      {pending ? (
        <span className="muted" role="status">
          Improving accuracy… ({pending.status})
        </span>
      ) : (
        <Button
          size="sm"
          icon="spark"
          busy={busy}
          onClick={() => {
            setBusy(true);
            setError(null);
            api
              .invoke('captions.improve', { id: recordingId })
              .catch((e: unknown) => setError(errorMessage(e)))
              .finally(() => setBusy(false));
          }}
        >
          {improved ? 'Improve again' : 'Improve accuracy'}
        </Button>
      )}
      {switcher && improved && live && (
        <Button
          size="sm"
          variant="ghost"
          onClick={() => {
            const next = shown === live.transcriptId ? null : live.transcriptId;
            setShown(next);
            showVersion(recordingId, next ?? (newest?.status === 'completed' ? null : improved.transcriptId));
          }}
        >
          {shown === live.transcriptId ? 'Show improved version' : 'Show live version'}
        </Button>
      )}
      {error && (
        <span className="field__error" role="alert">
          {error}
        </span>
      )}
    </span>
  );
}
