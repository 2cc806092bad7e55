/**
 * Hands files to main: each accepted file is staged (host mode uploads its
 * bytes; Electron passes its path) and becomes a durable job. Two files stage
 * at a time; a failure stays in the queue with a retry, and never stops the
 * rest of the batch.
 */
import { api, errorCode, errorMessage, uploadFile } from '../../bridge';
import { useJobProgress, useJobs, type IntakeItem } from '../../stores/jobs';
import { toast } from '../../stores/toasts';
import type { Collected } from './collect';
import { probeDurationMs } from './probe';

const STAGING_AT_ONCE = 2;
let seq = 0;
let running = 0;
const controllers = new Map<string, AbortController>();
/** Lengths being read from the files' headers while they upload (kept across a retry). */
const probes = new Map<string, Promise<number | null>>();

function patch(id: string, p: Partial<IntakeItem>): void {
  useJobs.setState((s) => ({ intake: s.intake.map((x) => (x.id === id ? { ...x, ...p } : x)) }));
}

function removeIntake(id: string): void {
  probes.delete(id);
  useJobs.setState((s) => ({ intake: s.intake.filter((x) => x.id !== id) }));
  useJobProgress.getState().clear(id);
}

async function stage(item: IntakeItem): Promise<void> {
  const ctl = new AbortController();
  controllers.set(item.id, ctl);
  patch(item.id, { state: 'staging', error: null });
  // Read the length while the bytes go up: at most STAGING_AT_ONCE media elements at a time, even for a folder of 500 files.
  if (!probes.has(item.id)) {
    const probe = probeDurationMs(item.file);
    probes.set(item.id, probe);
    void probe.then((durationMs) => durationMs !== null && patch(item.id, { durationMs }));
  }
  try {
    const source = await uploadFile(
      item.file,
      (p) => useJobProgress.getState().put({ id: item.id, bytes: p.bytes, total: p.total, bytesPerSecond: p.bytesPerSecond, etaSeconds: p.etaSeconds }),
      ctl.signal,
    );
    patch(item.id, { state: 'adding' });
    const durationMs = (await probes.get(item.id)) ?? null;
    if (source.kind === 'path') {
      const { jobs } = await api.invoke('jobs.addFiles', { paths: [source.path], durationsMs: [durationMs] });
      for (const j of jobs) useJobs.getState().upsert(j);
    } else {
      const name = item.name;
      useJobs.getState().upsert(await api.invoke('jobs.addUpload', durationMs === null ? { uploadId: source.uploadId, name } : { uploadId: source.uploadId, name, durationMs }));
    }
    probes.delete(item.id);
    removeIntake(item.id);
  } catch (err) {
    if (errorCode(err) === 'canceled') removeIntake(item.id);
    else patch(item.id, { state: 'failed', error: { code: errorCode(err), message: errorMessage(err) } });
  } finally {
    controllers.delete(item.id);
  }
}

function pump(): void {
  while (running < STAGING_AT_ONCE) {
    const next = useJobs.getState().intake.find((x) => x.state === 'waiting');
    if (!next) return;
    running++;
    patch(next.id, { state: 'staging' });
    void stage(next).finally(() => {
      running--;
      pump();
    });
  }
}

/** Queue what a drop or pick collected; skipped files are listed with their reasons. */
export function addCollected(c: Collected): void {
  const items: IntakeItem[] = c.files.map(({ file, path }) => ({
    id: `intake-${++seq}`,
    name: path.split('/').pop() ?? path,
    size: file.size,
    state: 'waiting',
    error: null,
    durationMs: null,
    file,
  }));

  useJobs.setState((s) => ({ intake: [...s.intake, ...items], skipped: [...c.skipped, ...s.skipped].slice(0, 500) }));
  if (items.length === 0 && c.skipped.length > 0) toast(`Nothing to transcribe: ${c.skipped.length} ${c.skipped.length === 1 ? 'file was' : 'files were'} skipped. See the queue for why.`, 'error');
  else if (c.skipped.length > 0) toast(`Added ${items.length}, skipped ${c.skipped.length} (see the queue for why).`, 'info');
  pump();
}

export function retryIntake(id: string): void {
  patch(id, { state: 'waiting', error: null });
  pump();
}

export function cancelIntake(id: string): void {
  const ctl = controllers.get(id);
  if (ctl) ctl.abort();
  else removeIntake(id);
}

export async function addUrl(url: string, name?: string): Promise<string | null> {
  try {
    useJobs.getState().upsert(await api.invoke('jobs.addUrl', name ? { url, name } : { url }));
    return null;
  } catch (err) {
    return errorMessage(err);
  }
}
