/** The queue's watch-folder parts: which folder a job came from, and watching paused or resumed for every folder at once. */
import { Badge } from '../../components/Badge';
import { Button } from '../../components/Button';
import { useWatch } from '../../stores/watch';
import './watch-status.css';

/** "From Inbox" on a job a watch folder took. */
export function WatchOrigin({ jobId }: { jobId: string }) {
  const folder = useWatch((s) => {
    const id = s.origins[jobId];
    return id ? s.folders.find((f) => f.id === id) : undefined;
  });
  if (!folder) return null;
  return (
    <Badge tone="info" title={`Taken from the watch folder ${folder.path}`}>
      From {folder.name}
    </Badge>
  );
}

/** Whether a job came from a watch folder. */
export function useFromWatchFolder(jobId: string): boolean {
  return useWatch((s) => s.origins[jobId] !== undefined);
}

export function useHasWatchFolders(): boolean {
  return useWatch((s) => s.folders.length > 0);
}

/** "Watching 2 folders · Pause" in the queue's header. */
export function WatchStatus() {
  const folders = useWatch((s) => s.folders);
  const pauseAll = useWatch((s) => s.pauseAll);
  if (folders.length === 0) return null;
  const paused = folders.every((f) => f.paused);
  // A folder that cannot be watched (gone, outside host mode's folders) is not counted as watched.
  const watching = folders.filter((f) => !f.paused && !f.problem).length;
  const notWatched = folders.filter((f) => !f.paused && f.problem).length;
  const empty = folders.reduce((n, f) => n + (f.paused ? 0 : f.empty.length), 0);
  const text = paused ? 'Watching paused' : `Watching ${watching} ${watching === 1 ? 'folder' : 'folders'}`;
  return (
    <span className="queue__watch" data-testid="watch-status">
      <span>{text}</span>
      {notWatched > 0 && (
        <Badge tone="danger" title="Settings → Watch folders says why.">
          {notWatched} not watched
        </Badge>
      )}
      {empty > 0 && (
        <Badge tone="warn" title="Empty files (0 bytes) are not taken. Settings → Watch folders names them.">
          {empty} empty {empty === 1 ? 'file' : 'files'} skipped
        </Badge>
      )}
      <Button size="sm" variant="ghost" onClick={() => void pauseAll(!paused)}>
        {paused ? 'Resume watching' : 'Pause watching'}
      </Button>
    </span>
  );
}
