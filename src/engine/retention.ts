/**
 * Disk retention of the engine's data folder: what a crash or a forgotten
 * upload leaves behind is removed on start and then hourly. `.part` files
 * (uploads cut off, even by kill -9) and unrecorded files after an hour;
 * uploads no transcript uses after 24 hours; a transcript's work folder
 * (`audio/<id>`) once it is empty, its leftovers once the job is over, and
 * the whole folder when the transcript is gone. Uploads a transcript uses
 * stay until that transcript is deleted (API.md §2).
 */
import { readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { serviceTime, type Store } from './store';

export interface RetentionPolicy {
  /** Age (by last write) after which `.part` files and unrecorded upload files go. */
  partMaxAgeMs: number;
  /** Age after which an upload that no transcript uses goes. */
  unusedUploadMaxAgeMs: number;
  /** Time between sweeps. */
  intervalMs: number;
}

export const RETENTION_DEFAULTS: RetentionPolicy = { partMaxAgeMs: 60 * 60_000, unusedUploadMaxAgeMs: 24 * 60 * 60_000, intervalMs: 60 * 60_000 };

/** Temporary files a job writes in its folder (process.ts); anything else there (redacted audio) is a result. */
const JOB_TEMPORARIES = new Set(['audio.raw', 'download']);

export interface SweepReport {
  parts: number;
  uploads: number;
  folders: number;
  bytes: number;
}

function sizeOf(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}

function ageMs(path: string, now: number): number {
  try {
    return now - statSync(path).mtimeMs;
  } catch {
    return 0;
  }
}

function list(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

/** One sweep; `now` is injectable so tests need not wait a day. */
export function sweepDisk(store: Store, policy: RetentionPolicy = RETENTION_DEFAULTS, now = Date.now()): SweepReport {
  const report: SweepReport = { parts: 0, uploads: 0, folders: 0, bytes: 0 };
  const remove = (path: string) => {
    report.bytes += sizeOf(path);
    rmSync(path, { force: true, recursive: true });
  };

  for (const name of list(store.uploadsDir)) {
    const path = join(store.uploadsDir, name);
    if (ageMs(path, now) < policy.partMaxAgeMs) continue;
    if (name.endsWith('.part')) {
      remove(path);
      report.parts++;
    } else if (!store.hasUpload(name)) {
      // Renamed into place but never recorded: the engine stopped in between.
      remove(path);
      report.parts++;
    }
  }

  for (const id of store.unreferencedUploads(serviceTime(new Date(now - policy.unusedUploadMaxAgeMs)))) {
    const up = store.getUpload(id);
    if (up) report.bytes += sizeOf(up.path);
    store.deleteUpload(id);
    report.uploads++;
  }

  for (const id of list(store.audioDir)) {
    const dir = join(store.audioDir, id);
    const t = store.getTranscript(id);
    if (t && (t.status === 'queued' || t.status === 'processing') && !t.deleted) continue;
    if (!t || t.deleted) {
      if (ageMs(dir, now) < policy.partMaxAgeMs && t === null) continue; // a job row may be on its way in
      remove(dir);
      report.folders++;
      continue;
    }
    for (const name of list(dir)) if (JOB_TEMPORARIES.has(name)) remove(join(dir, name));
    if (list(dir).length === 0) {
      rmSync(dir, { recursive: true, force: true });
      report.folders++;
    }
  }
  return report;
}

/** Sweeps now and every `intervalMs`; answers the function that stops it. */
export function startRetention(
  store: Store,
  logger: { info(m: string): void; warn(m: string): void },
  policy: RetentionPolicy = RETENTION_DEFAULTS,
): () => void {
  const run = () => {
    try {
      const r = sweepDisk(store, policy);
      if (r.parts || r.uploads || r.folders)
        logger.info(
          `disk sweep: removed ${r.uploads} unused upload(s), ${r.parts} partial file(s), ${r.folders} work folder(s), ${(r.bytes / 1024 / 1024).toFixed(1)} MiB`,
        );
    } catch (err) {
      logger.warn(`disk sweep failed: ${err instanceof Error ? err.message : String(err)}`);
    }
  };
  run();
  const timer = setInterval(run, policy.intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
