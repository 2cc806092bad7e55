/** How many cores a file job's decoding may use: its parallel segments and threads per decode, after live captions take theirs. */
import { availableParallelism } from 'node:os';
import { workerThreadPool } from '../native/child-host';

/**
 * The native worker's decodes run on its libuv thread pool (Node-API async work), which the child host sizes to
 * the machine (workerThreadPool): more decodes in flight than that only queue.
 */
export const WORKER_POOL = workerThreadPool();

export interface ShareInput {
  /** Cores the engine may use (os.availableParallelism()). */
  cores: number;
  /** File jobs decoding now, this one included. */
  fileJobs: number;
  /** The `--workers` setting: at most this many file jobs run at once. */
  workers: number;
  /** Live sessions open now: each keeps a core for its decoding, ahead of any file job. */
  liveSessions: number;
  /** Decodes the worker runs at once (default WORKER_POOL). */
  pool?: number;
}

export interface DecodeShare {
  /** Segments of one file decoded side by side, on one loaded copy of the model. */
  parallelSegments: number;
  /** Threads each of those decodes may use. */
  threadsPerDecode: number;
}

/**
 * One job's share: the cores left after live sessions (one each, never all of them when a file job runs, since
 * a job must still progress), split evenly between the file jobs running (at most `workers`). Busy threads,
 * parallelSegments × threadsPerDecode summed over jobs, never exceed the cores left to files. The share goes to
 * parallel segments rather than threads per decode: segments are independent, so they scale without the
 * synchronisation of one decode's threads.
 */
export function decodeShare(i: ShareInput): DecodeShare {
  const cores = Math.max(1, Math.floor(i.cores));
  const live = Math.max(0, Math.floor(i.liveSessions));
  const forFiles = Math.max(1, cores - live);
  const jobs = Math.max(1, Math.min(Math.floor(i.fileJobs), Math.max(1, Math.floor(i.workers))));
  const pool = Math.max(1, Math.floor(i.pool ?? WORKER_POOL));
  return { parallelSegments: Math.max(1, Math.min(pool, Math.floor(forFiles / jobs))), threadsPerDecode: 1 };
}

/** What the engine knows now: set by the server (workers) and the live sessions, counted by the file jobs. */
const state = { workers: 1, fileJobs: 0, liveSessions: 0, cores: availableParallelism() };

/** The `--workers` setting (the server calls this once). */
export function setFileWorkers(n: number): void {
  state.workers = Math.max(1, Math.floor(n));
}

/** Counts a live session as open until the returned function is called (idempotent). */
export function liveSessionOpened(): () => void {
  state.liveSessions++;
  let open = true;
  return () => {
    if (open) state.liveSessions--;
    open = false;
  };
}

/** Counts a file job as decoding until the returned function is called (idempotent). */
export function fileJobDecoding(): () => void {
  state.fileJobs++;
  let on = true;
  return () => {
    if (on) state.fileJobs--;
    on = false;
  };
}

/** This job's share now (read at each segment, so it follows jobs and sessions that come and go). */
export function currentShare(): DecodeShare {
  return decodeShare(state);
}
