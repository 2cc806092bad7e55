/** What every step of the job machine is handed: the stores, the services it talks to, the clock, the one retry policy. */
import { AppError } from '../../../shared/errors';
import type { Job, JobProgress, JobStatus } from '../../../shared/jobs';
import { defaultRetry, withRetries, type Clock, type RetryPolicy } from '../client/http';
import { RestClient } from '../client/rest';
import type { Library } from '../library/library';
import type { JobRow, JobStore, TransitionExtra } from '../library/jobs';
import type { EngineHandle } from '../local-engine';
import type { Settings } from '../../../shared/settings';
import type { WebhookReceiver } from '../webhooks';
import type { UserFiles } from '../files/refs';
import { canTransition } from './states';

export interface JobEvents {
  changed(id: string, job: Job | null): void;
  progress(p: JobProgress): void;
}

export interface JobServiceOptions {
  /** Poll delays: first, cap (ms). */
  pollStartMs?: number;
  pollCapMs?: number;
  retry?: RetryPolicy;
  clock?: Clock;
  log?: (message: string) => void;
  /** The owner of the user's files (core.ts builds one; absent: the desktop's, uploads in `<data>/uploads`). */
  files?: UserFiles;
}

/** The parts of the engine manager jobs use (tests hand a fake). */
export interface EngineAccess {
  ensure(): Promise<EngineHandle>;
  awaitRunning(signal?: AbortSignal): Promise<EngineHandle>;
  current(): EngineHandle | null;
}

export interface SettingsAccess {
  get(): Settings;
  webhookAuthHeaderValue(): string;
}

export interface KeyAccess {
  /** Whether a cloud key exists (decides local vs cloud for new jobs). */
  get(): string | null;
  /** The key that may be sent to this address (a stored key is bound to the origin it was entered for). */
  keyFor(url: string): string | null;
}

export type WebhookAccess = Pick<WebhookReceiver, 'start' | 'params' | 'wait'>;

export class JobContext {
  readonly store: JobStore;
  readonly retry: RetryPolicy;
  readonly pollStartMs: number;
  readonly pollCapMs: number;
  readonly log: (message: string) => void;

  constructor(
    /** Every file a job reads goes through its check, at upload time too. */
    readonly files: UserFiles,
    readonly library: Library,
    readonly settings: SettingsAccess,
    readonly keys: KeyAccess,
    readonly engine: EngineAccess,
    readonly webhooks: WebhookAccess | null,
    readonly events: JobEvents,
    readonly clock: Clock,
    opts: JobServiceOptions,
  ) {
    this.store = library.jobs;
    this.retry = { ...(opts.retry ?? defaultRetry), clock };
    this.pollStartMs = opts.pollStartMs ?? 500;
    this.pollCapMs = opts.pollCapMs ?? 5000;
    this.log = opts.log ?? (() => undefined);
  }

  /** Write a transition (refusing one the machine does not have) and tell the renderer. */
  transition(id: string, to: JobStatus, extra: TransitionExtra = {}): Job {
    const from = this.store.must(id).status;
    if (!canTransition(from, to)) throw new AppError('conflict', `This job is ${from}; it cannot become ${to}.`);
    const job = this.store.transition(id, to, extra);
    this.events.changed(id, job);
    return job;
  }

  /** The client of the job's service; the local engine's address is looked up each time (it may restart on another port). */
  async client(row: JobRow, signal: AbortSignal): Promise<RestClient> {
    if (row.region === 'local') {
      const h = await this.engine.awaitRunning(signal);
      return new RestClient(h.url, h.key);
    }
    const key = this.keys.keyFor(row.base_url);
    if (!key && row.region !== 'custom')
      throw new AppError(
        'invalid_key',
        this.keys.get()
          ? `The saved API key was entered for another service address, so Verbatim does not send it to ${row.base_url}. Enter the key again in Settings → Transcription service, then retry.`
          : 'There is no API key for the cloud service. Add one in Settings → Transcription service, then retry.',
      );
    return new RestClient(row.base_url, key ?? '');
  }

  /** A service call under the one retry policy, with the client re-resolved for each attempt. */
  call<T>(row: JobRow, signal: AbortSignal, fn: (c: RestClient) => Promise<T>): Promise<T> {
    return withRetries(async () => fn(await this.client(row, signal)), signal, {
      ...this.retry,
      onRetry: (err, attempt, delay) => this.log(`job ${row.id}: ${err.code}, retry ${attempt} in ${Math.round(delay)} ms`),
    });
  }
}
