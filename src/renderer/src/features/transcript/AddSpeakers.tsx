/**
 * Add speakers to a finished transcript that has none: its recording (the
 * library's copy, the original file or a live session's audio) is transcribed
 * again with speaker labels, as a new version of the same item; the file is
 * not chosen again.
 */
import { useState } from 'react';
import { Button } from '../../components/Button';
import { errorMessage } from '../../bridge';
import { useJobs } from '../../stores/jobs';
import { toast } from '../../stores/toasts';

export function AddSpeakers({ recordingId }: { recordingId: string }) {
  const [busy, setBusy] = useState(false);
  return (
    <Button
      size="sm"
      icon="mic"
      busy={busy}
      onClick={() => {
        setBusy(true);
        useJobs
          .getState()
          .addSpeakers(recordingId)
          .then(
            () => toast('Adding speakers: the recording is transcribed again with speaker labels. The new version replaces this one when it is done.', 'ok'),
            (e: unknown) => toast(errorMessage(e), 'error'),
          )
          .finally(() => setBusy(false));
      }}
    >
      Add speakers
    </Button>
  );
}
