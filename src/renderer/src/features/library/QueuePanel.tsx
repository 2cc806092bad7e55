/**
 * The queue: files on their way to main, durable jobs, and skipped files.
 * Every state shows that something is moving (a bar, a sweep, a pulse), and
 * every error carries the action that fixes it. Finished jobs fold into one
 * line after a few seconds (they are in the library below); failed ones stay
 * until dismissed.
 */
import { memo, useEffect, useState } from 'react';
import type { EngineStatus, Job } from '../../../../shared/jobs';
import { regionLabels } from '../../components/labels';
import { Badge } from '../../components/Badge';
import { Button } from '../../components/Button';
import { splitMessage } from '../../components/errorText';
import { statusLabel } from '../../components/status';
import { Icon } from '../../components/Icon';
import { ProgressBar } from '../../components/ProgressBar';
import { formatBytes, formatClock, percent } from '../../components/format';
import { useApp } from '../../stores/app';
import { useIntake, type IntakeItem } from '../../stores/intake';
import { doneSeenAt, isFinal, useJobProgress, useJobs } from '../../stores/jobs';
import { useEngine } from '../../stores/localEngine';
import { openFilePicker } from './DropOverlay';
import { useFromWatchFolder, useHasWatchFolders, WatchOrigin, WatchStatus } from './WatchStatus';

const statusText = (s: Job['status']) => statusLabel[s][0];

/** A finished job stays a row this long, then folds into the "ready" line. */
const SHOW_DONE_MS = 5000;
/** More finished rows than this fold at once: they only repeat the library below. */
const MAX_DONE_ROWS = 3;

/** The first sentence of an error, the rest (often raw ffmpeg output) behind a disclosure. */
function ErrorText({ message }: { message: string }) {
  const { summary, detail } = splitMessage(message);
  return (
    <>
      <p className="qrow__error" role="alert">
        {summary}
      </p>
      {detail && (
        <details className="qrow__details">
          <summary>Details</summary>
          <p>{detail}</p>
        </details>
      )}
    </>
  );
}

function activityOf(job: Job, engine: EngineStatus | null): string {
  const where = job.region === 'local' ? 'the local engine' : `the ${regionLabels[job.region]} service`;
  if (job.region === 'local' && (engine?.state === 'starting' || engine?.state === 'restarting') && (job.status === 'queued' || job.status === 'uploading'))
    return engine.state === 'starting' ? 'Starting the local engine…' : 'Restarting the local engine…';
  if (job.status === 'queued') return 'Waiting for a free slot…';
  if (job.status === 'submitted') return `Queued at ${where}…`;
  if (job.status === 'processing') return `Transcribing on ${where}…`;
  return 'Working…';
}

const JobBar = memo(function JobBar({ job }: { job: Job }) {
  const p = useJobProgress((s) => s.byId[job.id]);
  const engine = useEngine((s) => s.status);
  if (job.status === 'uploading') {
    const done = p?.bytes ?? job.bytesSent;
    const total = p?.total ?? job.bytesTotal;
    return <ProgressBar label={`Uploading ${job.name}`} value={percent(done, total) ?? 0} bytesPerSecond={p?.bytesPerSecond} etaSeconds={p?.etaSeconds} />;
  }
  return <ProgressBar label={`${statusText(job.status)} ${job.name}`} value={null} activity={activityOf(job, engine)} />;
});

function ErrorActions({ job }: { job: Job }) {
  const retry = useJobs((s) => s.retry);
  const remove = useJobs((s) => s.remove);
  const setScreen = useApp((s) => s.setScreen);
  // A watched folder's file is not picked again: it is fixed or replaced where it lies, then retried.
  const watched = useFromWatchFolder(job.id);
  const code = job.error?.code;
  return (
    <>
      {code === 'invalid_key' && (
        <Button size="sm" variant="primary" icon="key" onClick={() => setScreen('settings')}>
          Re-enter key
        </Button>
      )}
      {(job.error?.retryable ?? true) || code === 'invalid_key' || job.status === 'canceled' || watched ? (
        <Button size="sm" icon="retry" variant={code === 'invalid_key' ? 'secondary' : 'primary'} onClick={() => void retry(job.id)}>
          Retry
        </Button>
      ) : (
        <Button size="sm" icon="file" onClick={openFilePicker}>
          Pick another file
        </Button>
      )}
      <Button size="sm" variant="ghost" icon="x" aria-label={`Remove ${job.name} from the queue`} onClick={() => void remove(job.id)} />
    </>
  );
}

const JobRow = memo(function JobRow({ id }: { id: string }) {
  const job = useJobs((s) => s.jobs[id]);
  const resumed = useJobs((s) => s.resumed[id] === true);
  const cancel = useJobs((s) => s.cancel);
  const remove = useJobs((s) => s.remove);
  const openTranscript = useApp((s) => s.openTranscript);
  if (!job) return null;
  const running = !isFinal(job);
  return (
    <li className={`qrow qrow--${job.status}`} data-testid="job-row" data-status={job.status} aria-label={`${job.name}: ${statusText(job.status)}`}>
      <div className="qrow__icon" aria-hidden="true">
        <Icon name={job.status === 'error' ? 'alert' : job.status === 'completed' ? 'check' : job.source === 'url' ? 'link' : 'file'} />
      </div>
      <div className="qrow__main">
        <div className="qrow__line">
          <span className="qrow__name" title={job.name}>
            {job.name}
          </span>
          <span className="qrow__meta">
            {job.durationMs !== null && <span title="Length">{formatClock(job.durationMs)}</span>}
            {job.bytesTotal !== null && <span>{formatBytes(job.bytesTotal)}</span>}
            <Badge tone="neutral">{regionLabels[job.region]}</Badge>
            <WatchOrigin jobId={job.id} />
            {resumed && running && (
              <Badge tone="info" title="Verbatim restarted while this job ran; it picked up where it left off.">
                Resumed
              </Badge>
            )}
            <Badge tone={statusLabel[job.status][1]} pulse={running && job.status !== 'queued'}>
              {statusText(job.status)}
            </Badge>
          </span>
        </div>
        {running && <JobBar job={job} />}
        {job.status === 'error' && job.error && <ErrorText message={job.error.message} />}
      </div>
      <div className="qrow__actions">
        {running && (
          <Button size="sm" variant="ghost" onClick={() => void cancel(job.id)} aria-label={`Cancel ${job.name}`}>
            Cancel
          </Button>
        )}
        {(job.status === 'error' || job.status === 'canceled') && <ErrorActions job={job} />}
        {job.status === 'completed' && (
          <>
            <Button size="sm" variant="primary" onClick={() => openTranscript(job.recordingId)}>
              Open
            </Button>
            <Button size="sm" variant="ghost" icon="x" aria-label={`Dismiss ${job.name}`} onClick={() => void remove(job.id)} />
          </>
        )}
      </div>
    </li>
  );
});

const IntakeBar = memo(function IntakeBar({ item }: { item: IntakeItem }) {
  const p = useJobProgress((s) => s.byId[item.id]);
  if (item.state === 'waiting') return <ProgressBar label={`Waiting ${item.name}`} value={null} activity="Waiting to upload…" />;
  if (item.state === 'adding') return <ProgressBar label={`Adding ${item.name}`} value={null} activity="Creating the job…" />;
  return (
    <ProgressBar
      label={`Sending ${item.name} to Verbatim`}
      value={percent(p?.bytes ?? 0, p?.total ?? item.size) ?? 0}
      bytesPerSecond={p?.bytesPerSecond}
      etaSeconds={p?.etaSeconds}
    />
  );
});

function IntakeRow({ item }: { item: IntakeItem }) {
  const failed = item.state === 'failed';
  return (
    <li
      className={`qrow ${failed ? 'qrow--error' : ''}`}
      data-testid="intake-row"
      data-status={item.state}
      aria-label={`${item.name}: ${failed ? 'failed' : 'adding'}`}
    >
      <div className="qrow__icon" aria-hidden="true">
        <Icon name={failed ? 'alert' : 'upload'} />
      </div>
      <div className="qrow__main">
        <div className="qrow__line">
          <span className="qrow__name" title={item.name}>
            {item.name}
          </span>
          <span className="qrow__meta">
            {item.durationMs !== null && <span title="Length">{formatClock(item.durationMs)}</span>}
            <span>{formatBytes(item.size)}</span>
            <Badge tone={failed ? 'danger' : 'accent'} pulse={!failed}>
              {failed ? 'Failed' : 'Adding'}
            </Badge>
          </span>
        </div>
        {failed ? <ErrorText message={item.error?.message ?? 'Could not be added.'} /> : <IntakeBar item={item} />}
      </div>
      <div className="qrow__actions">
        {failed && (
          <Button size="sm" variant="primary" icon="retry" onClick={() => useIntake.getState().retry(item.id)}>
            Retry
          </Button>
        )}
        <Button
          size="sm"
          variant="ghost"
          icon="x"
          aria-label={`${failed ? 'Remove' : 'Cancel'} ${item.name}`}
          onClick={() => useIntake.getState().cancel(item.id)}
        />
      </div>
    </li>
  );
}

function SkippedList() {
  const skipped = useIntake((s) => s.skipped);
  const clear = useIntake((s) => s.clearSkipped);
  const [open, setOpen] = useState(true);
  if (skipped.length === 0) return null;
  return (
    <div className="skipped" data-testid="skipped">
      <div className="skipped__head">
        <button type="button" className="linkish" aria-expanded={open} onClick={() => setOpen(!open)}>
          <Icon name={open ? 'down' : 'skip'} size={15} />
          {skipped.length} {skipped.length === 1 ? 'file' : 'files'} skipped
        </button>
        <Button size="sm" variant="ghost" onClick={clear}>
          Clear
        </Button>
      </div>
      {open && (
        <ul className="skipped__list">
          {skipped.map((s, i) => (
            <li key={`${s.name}-${i}`} data-testid="skipped-row">
              <span className="skipped__name">{s.name}</span>
              <span className="skipped__reason">{s.reason}</span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** Completed jobs that have been shown long enough (or are too many to list), folded into one line. */
function useFoldedDone(): Set<string> {
  // Ids joined in a string, so progress ticks and other jobs' changes do not re-render the queue.
  const key = useJobs((s) =>
    Object.values(s.jobs)
      .filter((j) => j.status === 'completed')
      .map((j) => j.id)
      .join('|'),
  );
  const [now, setNow] = useState(() => Date.now());
  const done = key === '' ? [] : key.split('|');
  const shownUntil = (id: string) => doneSeenAt(id) + SHOW_DONE_MS;
  const next = done.map(shownUntil).filter((t) => t > now);
  const wake = next.length ? Math.min(...next) : null;
  // Re-render when the next finished row is due to fold.
  useEffect(() => {
    if (wake === null) return;
    const timer = setTimeout(() => setNow(Date.now()), Math.max(50, wake - Date.now() + 20));
    return () => clearTimeout(timer);
  }, [wake]);
  if (done.length > MAX_DONE_ROWS) return new Set(done);
  return new Set(done.filter((id) => shownUntil(id) <= now));
}

function DoneLine({ ids }: { ids: string[] }) {
  const first = useJobs((s) => (ids[0] ? s.jobs[ids[0]] : undefined));
  const remove = useJobs((s) => s.remove);
  const openTranscript = useApp((s) => s.openTranscript);
  const [showAll, setShowAll] = useState(false);
  if (!first) return null;
  return (
    <>
      <div className="queue__done" data-testid="queue-done">
        <Icon name="check" size={15} />
        <span>{ids.length === 1 ? `${first.name} is ready` : `${ids.length} ready`}</span>
        <span aria-hidden="true">·</span>
        {ids.length === 1 ? (
          <Button size="sm" variant="ghost" onClick={() => openTranscript(first.recordingId)}>
            Open
          </Button>
        ) : (
          <Button size="sm" variant="ghost" aria-expanded={showAll} onClick={() => setShowAll(!showAll)}>
            {showAll ? 'Hide' : 'Show'}
          </Button>
        )}
        <span aria-hidden="true">·</span>
        <Button size="sm" variant="ghost" onClick={() => void Promise.all(ids.map((id) => remove(id)))}>
          Clear
        </Button>
      </div>
      {showAll && ids.length > 1 && (
        <ul className="queue__list">
          {ids.map((id) => (
            <JobRow key={id} id={id} />
          ))}
        </ul>
      )}
    </>
  );
}

export function QueuePanel() {
  const order = useJobs((s) => s.order);
  const intake = useIntake((s) => s.items);
  const hasSkipped = useIntake((s) => s.skipped.length > 0);
  const finishedCount = useJobs((s) => Object.values(s.jobs).filter((j) => j.status === 'completed' || j.status === 'canceled').length);
  const active = useJobs((s) => Object.values(s.jobs).filter((j) => !isFinal(j)).length);
  const clearFinished = useJobs((s) => s.clearFinished);
  const folded = useFoldedDone();
  const [collapsed, setCollapsed] = useState(false);
  // With watch folders the queue stays, so watching can be paused from here.
  const watching = useHasWatchFolders();
  if (order.length === 0 && intake.length === 0 && !hasSkipped && !watching) return null;
  const working = active + intake.filter((i) => i.state !== 'failed').length;
  const rows = order.filter((id) => !folded.has(id));
  const foldedIds = order.filter((id) => folded.has(id));
  return (
    <section className="queue" aria-labelledby="queue-title" data-testid="queue">
      <header className="queue__header">
        <button type="button" className="queue__toggle" aria-expanded={!collapsed} onClick={() => setCollapsed(!collapsed)}>
          <Icon name={collapsed ? 'skip' : 'down'} size={15} />
          <h2 id="queue-title">Queue</h2>
        </button>
        <span className="queue__summary" aria-live="polite">
          {working > 0 ? `${working} in progress` : 'Nothing running'}
        </span>
        <WatchStatus />
        {finishedCount > foldedIds.length && (
          <Button size="sm" variant="ghost" onClick={() => void clearFinished()}>
            Clear finished
          </Button>
        )}
      </header>
      {!collapsed && (
        <>
          {(intake.length > 0 || rows.length > 0) && (
            <ul className="queue__list">
              {intake.map((it) => (
                <IntakeRow key={it.id} item={it} />
              ))}
              {rows.map((id) => (
                <JobRow key={id} id={id} />
              ))}
            </ul>
          )}
          {foldedIds.length > 0 && <DoneLine ids={foldedIds} />}
          <SkippedList />
        </>
      )}
    </section>
  );
}
