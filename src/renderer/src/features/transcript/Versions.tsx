/**
 * A live session's transcript versions: improve its accuracy (the recording
 * goes to the service as a pre-recorded job; the improved transcript becomes
 * the one shown), and read the live version again once an improved one exists.
 */
import { useEffect, useState } from 'react';
import { Button } from '../../components/Button';
import { ImproveButton } from '../../components/ImproveButton';
import { improveAccuracy, showVersion, useVersions } from '../../stores/versions';

export function Versions({ recordingId }: { recordingId: string }) {
  const versions = useVersions(recordingId);
  const [shown, setShown] = useState<string | null>(null);

  const pending = versions?.find((v) => v.kind === 'improved' && !['completed', 'error', 'canceled'].includes(v.status));
  const improved = versions?.find((v) => v.kind === 'improved' && v.status === 'completed');
  const live = versions?.find((v) => v.kind === 'live');
  const newest = versions?.[0];

  // While an improvement runs (or after it failed), the live text stays readable; once it completes it is shown.
  const fallback = newest && live && newest.kind === 'improved' && newest.status !== 'completed' ? (improved?.transcriptId ?? live.transcriptId) : null;
  useEffect(() => {
    if (versions && fallback) showVersion(recordingId, fallback);
  }, [versions, fallback, recordingId]);

  if (!versions) return null;
  return (
    <span className="cap-improve">
      <ImproveButton pending={pending?.status ?? null} improved={!!improved} improve={() => improveAccuracy(recordingId)} />
      {improved && live && (
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
    </span>
  );
}
