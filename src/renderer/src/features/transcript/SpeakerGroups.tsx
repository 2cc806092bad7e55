/**
 * Re-cluster a transcript's speakers (as N, or Auto) from the voiceprints the library keeps: no new
 * transcription. Beside it, what the transcript should say about its speakers: how many short ones were
 * merged into their nearest voice, and the remembered voices recognised in it with how sure each match was.
 */
import { useEffect, useId, useState } from 'react';
import type { SpeakerNote, VoiceMatch } from '../../../../shared/ipc/people';
import { Button } from '../../components/Button';
import { usePeople } from '../../stores/people';
import { noteText } from './speakerNote';
import './speaker-groups.css';

const COUNTS = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];

export function SpeakerGroups({ recordingId, transcriptId }: { recordingId: string; transcriptId: string }) {
  const [count, setCount] = useState('auto');
  const [busy, setBusy] = useState(false);
  const [note, setNote] = useState<SpeakerNote | null>(null);
  const [matches, setMatches] = useState<VoiceMatch[]>([]);
  const id = useId();
  useEffect(() => {
    let live = true;
    void usePeople
      .getState()
      .speakersOf(recordingId)
      .then((r) => {
        if (!live) return;
        setNote(r.note);
        setMatches(r.matches);
      });
    return () => {
      live = false;
    };
  }, [recordingId, transcriptId]);
  const run = async () => {
    setBusy(true);
    const n = await usePeople.getState().recluster(recordingId, count === 'auto' ? null : Number(count));
    // Names follow their voices through a re-cluster: the recognitions now are read again.
    const now = n ? await usePeople.getState().speakersOf(recordingId) : null;
    setBusy(false);
    if (!n || !now) return;
    setNote(n);
    setMatches(now.matches);
  };
  const text = noteText(note, matches);
  return (
    <>
      <form
        className="speaker-groups"
        onSubmit={(e) => {
          e.preventDefault();
          void run();
        }}
      >
        <label htmlFor={`${id}-n`}>Speakers</label>
        <select id={`${id}-n`} value={count} onChange={(e) => setCount(e.target.value)}>
          <option value="auto">Auto</option>
          {COUNTS.map((n) => (
            <option key={n} value={String(n)}>
              {n}
            </option>
          ))}
        </select>
        <Button type="submit" size="sm" busy={busy}>
          Re-cluster
        </Button>
      </form>
      <p className="muted speaker-groups__note" role="status" data-testid="speaker-note">
        {text}
      </p>
    </>
  );
}
