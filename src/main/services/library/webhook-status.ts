/**
 * Following the user's webhook after a transcript completes. The service
 * delivers after `completed` (and retries for up to ~200 s: 10 attempts,
 * 10 s apart, 10 s each), so the answer of the team's server
 * (`webhook_status_code`) is only known later: re-read the transcript a few
 * times, quickly at first, until a 2xx (delivered), a 4xx (refused: the
 * service stops) or the end of the retry window.
 */
import { AppError } from '../../../shared/errors';
import type { WebhookStatus } from '../../../shared/library';
import type { RestClient } from '../client/rest';
import type { Library, RemoteRef } from './library';

export interface WebhookFollowOptions {
  /** Waits before the first re-reads, from completion (ms). */
  delaysMs?: number[];
  /** Then one re-read every (ms). */
  everyMs?: number;
  /** After this long from completion the outcome is settled whatever it is (ms). */
  windowMs?: number;
  log?: (message: string) => void;
}

const DEFAULTS = { delaysMs: [1000, 3000, 7000, 15_000], everyMs: 20_000, windowMs: 240_000 };

/** A 2xx is delivered; a 4xx makes the service stop at once (API.md §7). */
const settledCode = (code: number | null) => code !== null && ((code >= 200 && code < 300) || (code >= 400 && code < 500));

export class WebhookFollower {
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private readonly o: Required<Omit<WebhookFollowOptions, 'log'>>;
  private disposed = false;

  constructor(
    private readonly library: Library,
    private readonly clientFor: (ref: RemoteRef) => Promise<RestClient>,
    private readonly opts: WebhookFollowOptions = {},
  ) {
    this.o = { delaysMs: opts.delaysMs ?? DEFAULTS.delaysMs, everyMs: opts.everyMs ?? DEFAULTS.everyMs, windowMs: opts.windowMs ?? DEFAULTS.windowMs };
  }

  /** A transcript just completed: follow its webhook, if it was sent with one. */
  follow(recordingId: string): void {
    let ref: RemoteRef;
    try {
      ref = this.library.webhooks.ref(recordingId);
    } catch {
      return;
    }
    if (!ref.webhookUrl || ref.webhookSettled || !ref.remoteId || this.timers.has(recordingId)) return;
    this.schedule(recordingId, 0);
  }

  /** Whether a check of this recording's webhook is planned or under way (false: nothing more will be asked). */
  isFollowing(recordingId: string): boolean {
    return this.timers.has(recordingId);
  }

  /** After a restart: follow every webhook whose outcome was not settled. */
  resume(): void {
    for (const id of this.library.webhooks.unsettled()) this.follow(id);
  }

  /** Ask the service now (the details panel's "Check again"). */
  async check(recordingId: string): Promise<WebhookStatus | null> {
    const ref = this.library.webhooks.ref(recordingId);
    if (!ref.webhookUrl) return null;
    if (!ref.remoteId) throw new AppError('conflict', 'This transcript was never submitted, so no webhook was sent.');
    const client = await this.clientFor(ref);
    const t = await client.get(ref.remoteId, AbortSignal.timeout(15_000));
    const code = t.webhook_status_code ?? null;
    const completedAt = ref.completedAt ? Date.parse(ref.completedAt) : Date.now();
    const windowOver = Date.now() - completedAt >= this.o.windowMs;
    this.library.webhooks.recordCheck(ref.transcriptId, code, settledCode(code) || windowOver);
    return this.library.webhooks.status(recordingId);
  }

  dispose(): void {
    this.disposed = true;
    for (const t of this.timers.values()) clearTimeout(t);
    this.timers.clear();
  }

  private schedule(recordingId: string, step: number): void {
    if (this.disposed) return;
    const ref = this.library.webhooks.ref(recordingId);
    const since = ref.completedAt ? Date.now() - Date.parse(ref.completedAt) : 0;
    const planned = step < this.o.delaysMs.length ? this.o.delaysMs[step]! : this.o.delaysMs.at(-1)! + (step - this.o.delaysMs.length + 1) * this.o.everyMs;
    // Never check later than the window's end; after a restart, steps already past run at once.
    const wait = Math.max(0, Math.min(planned, this.o.windowMs) - since);
    // The timer stays listed while its check runs, and leaves when no further check is planned.
    const timer = setTimeout(() => {
      void this.check(recordingId).then(
        (s) => {
          this.timers.delete(recordingId);
          if (s && s.state !== 'delivered' && s.state !== 'failed') this.schedule(recordingId, step + 1);
        },
        (e: unknown) => {
          this.timers.delete(recordingId);
          this.opts.log?.(`webhook status of ${recordingId}: ${e instanceof Error ? e.message : String(e)}`);
          // Gone from the library: stop. Offline or a service fault: try again later, within the
          // window (after it, the next start or "Check again" asks once more).
          const gone = e instanceof AppError && e.code === 'not_found';
          if (!gone && since + wait < this.o.windowMs) this.schedule(recordingId, step + 1);
        },
      );
    }, wait);
    timer.unref();
    this.timers.set(recordingId, timer);
  }
}
