/**
 * Improve accuracy of a live session that just stopped: its recording goes to
 * the service as a pre-recorded job; the improved transcript becomes the one
 * shown in the library (the transcript's Versions switch between them).
 */
import { ImproveButton } from '../../components/ImproveButton';
import { improveAccuracy, useVersions } from '../../stores/versions';

export function ImproveAccuracy({ recordingId }: { recordingId: string }) {
  const versions = useVersions(recordingId);
  if (!versions) return null;
  const pending = versions.find((v) => v.kind === 'improved' && !['completed', 'error', 'canceled'].includes(v.status));
  const improved = versions.some((v) => v.kind === 'improved' && v.status === 'completed');
  return (
    <span className="cap-improve">
      <ImproveButton pending={pending?.status ?? null} improved={improved} improve={() => improveAccuracy(recordingId)} />
    </span>
  );
}
