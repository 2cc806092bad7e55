/**
 * The durable job queue's workers. Jobs are transcript rows with status
 * `queued`; a worker claims one atomically, processes it and writes the final
 * status, then the webhook goes out. On start, jobs a killed engine left in
 * `processing` are queued again. `drain()` stops claiming; jobs still running
 * after the timeout are aborted and left queued for the next start.
 */
import type { JobContext, JobQueue } from '../context';
import { startSpawner } from '../audio/spawner';
import { JobFailure, processJob } from './process';

export class JobRunner implements JobQueue {
  private draining = false;
  private wake: (() => void)[] = [];
  private loops: Promise<void>[] = [];
  private active = new Map<string, AbortController>();

  constructor(private readonly ctx: JobContext) {}

  start(): void {
    const n = this.ctx.store.requeueInterrupted();
    if (n) this.ctx.logger.info(`re-queued ${n} job(s) interrupted by the last shutdown`);
    startSpawner();
    // Decoders and speech detectors are made when a job needs them and freed after an idle minute
    // (an engine that idles all day stays small); the first job after a pause pays about 0.5 s of model load.
    for (let i = 0; i < this.ctx.opts.workers; i++) this.loops.push(this.loop());
  }

  get accepting(): boolean {
    return !this.draining;
  }

  /** Wakes an idle worker after a new job was stored. */
  notify(): void {
    const w = this.wake.shift();
    w?.();
  }

  /** Cancels a running job (its transcript was deleted). */
  cancel(id: string): void {
    this.active.get(id)?.abort(new Error('deleted'));
  }

  private async loop(): Promise<void> {
    while (!this.draining) {
      const job = this.ctx.store.claimNextJob();
      if (!job) {
        await new Promise<void>((r) => {
          // Woken by notify() or by the timer, whichever comes first; either way it leaves the wake list, so a later
          // notify() wakes a worker that is waiting (not one that already left after its timer, which left the job a second).
          const woken = () => {
            clearTimeout(timer);
            const at = this.wake.indexOf(woken);
            if (at >= 0) this.wake.splice(at, 1);
            r();
          };
          this.wake.push(woken);
          // A periodic look as a safety net (e.g. another writer).
          const timer = setTimeout(woken, 1000);
          timer.unref();
        });
        continue;
      }
      const ac = new AbortController();
      this.active.set(job.id, ac);
      try {
        const result = await processJob(this.ctx, job, ac.signal);
        if (this.ctx.store.complete(job.id, result.result, result.redactedAudioPath)) {
          void this.ctx.webhooks.notify(job.id, { transcript_id: job.id, status: 'completed' });
          if (result.redactedAudioPath) {
            // The spec's RedactedAudioNotification (and AssemblyAI's PII docs): status and URL only; a receiver tells jobs apart by its webhook_url.
            void this.ctx.webhooks.notify(job.id, {
              status: 'redacted_audio_ready',
              redacted_audio_url: `${this.ctx.baseUrl()}/v2/transcript/${job.id}/redacted-audio/file`,
            });
          }
        }
      } catch (err) {
        if (ac.signal.aborted && this.draining) {
          this.ctx.store.requeue(job.id);
        } else if (ac.signal.aborted) {
          // Deleted while running: the row is already scrubbed.
        } else {
          const message =
            err instanceof JobFailure
              ? err.message
              : `The local engine failed while transcribing this file (${err instanceof Error ? err.message : String(err)}). This is a fault of the engine, not of the file: it may be submitted again.`;
          if (!(err instanceof JobFailure)) this.ctx.logger.error(`job ${job.id}: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
          if (this.ctx.store.fail(job.id, message)) void this.ctx.webhooks.notify(job.id, { transcript_id: job.id, status: 'error' });
        }
      } finally {
        this.active.delete(job.id);
      }
    }
  }

  /** Stops taking jobs; waits for running ones up to `timeoutMs`, then aborts them (they stay queued). */
  async drain(timeoutMs: number): Promise<void> {
    this.draining = true;
    for (const w of this.wake.splice(0)) w();
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<void>((r) => {
      timer = setTimeout(() => {
        for (const ac of this.active.values()) ac.abort(new Error('draining'));
        r();
      }, timeoutMs);
    });
    await Promise.race([Promise.all(this.loops), timedOut]);
    await Promise.all(this.loops);
    clearTimeout(timer);
  }
}
