/**
 * SHA-256 of a download on a second thread, beside the transfer: hashing 1 GiB
 * costs seconds of CPU, which on the download's own thread would slow it well
 * below what curl manages. Bytes are copied into 1 MiB batches whose memory is
 * handed to the worker (no second copy); at most MAX_IN_FLIGHT bytes wait for
 * it (their memory comes back to be refilled), and `update` answers false until the worker catches up (the caller
 * pauses its source, as with a stream's backpressure).
 */
import { Worker } from 'node:worker_threads';

const BATCH = 1024 * 1024;
const MAX_IN_FLIGHT = 4 * BATCH;

// Plain JavaScript, so it runs the same from tsx, the host bundle and Electron.
const WORKER = `
const { parentPort } = require('node:worker_threads');
const hash = require('node:crypto').createHash('sha256');
parentPort.on('message', (m) => {
  if (m === 'digest') return parentPort.postMessage({ digest: hash.digest('hex') });
  hash.update(new Uint8Array(m));
  // The memory goes back to be filled again: no garbage piles up on either side.
  parentPort.postMessage({ done: m.byteLength, buf: m }, [m]);
});
`;

export class ThreadHasher {
  // A small heap: the worker holds a hash state and the batch it is on, nothing else.
  private readonly worker = new Worker(WORKER, { eval: true, resourceLimits: { maxYoungGenerationSizeMb: 2, maxOldGenerationSizeMb: 16 } });
  private batch: Buffer = Buffer.allocUnsafeSlow(BATCH);
  /** Batches the worker has finished with, to fill again. */
  private readonly pool: Buffer[] = [];
  private used = 0;
  private inFlight = 0;
  private drained: (() => void) | null = null;
  private result: ((hex: string) => void) | null = null;
  private failure: Error | null = null;

  constructor() {
    this.worker.on('message', (m: { done?: number; buf?: ArrayBuffer; digest?: string }) => {
      if (m.done !== undefined) {
        this.inFlight -= m.done;
        if (m.buf?.byteLength === BATCH) this.pool.push(Buffer.from(m.buf));
        if (this.inFlight <= MAX_IN_FLIGHT / 2 && this.drained) {
          const d = this.drained;
          this.drained = null;
          d();
        }
      } else if (m.digest !== undefined) this.result?.(m.digest);
    });
    this.worker.on('error', (e) => (this.failure = e));
    this.worker.unref();
  }

  /** Add bytes; false when enough wait for the worker that the caller should wait for `drain()`. */
  update(chunk: Buffer): boolean {
    let at = 0;
    while (at < chunk.length) {
      const n = Math.min(chunk.length - at, BATCH - this.used);
      chunk.copy(this.batch, this.used, at, at + n);
      this.used += n;
      at += n;
      if (this.used === BATCH) this.flush();
    }
    return this.inFlight < MAX_IN_FLIGHT;
  }

  private flush(): void {
    if (this.used === 0) return;
    // A full batch hands its own memory over; the last, partial one a copy of its bytes.
    const ab = this.used === BATCH ? this.batch.buffer : this.batch.buffer.slice(0, this.used);
    this.inFlight += this.used;
    this.worker.postMessage(ab, [ab as ArrayBuffer]);
    this.batch = this.pool.pop() ?? Buffer.allocUnsafeSlow(BATCH);
    this.used = 0;
  }

  /** Resolves once the worker has caught up enough to take more. */
  drain(): Promise<void> {
    if (this.inFlight < MAX_IN_FLIGHT) return Promise.resolve();
    return new Promise((r) => (this.drained = r));
  }

  /** The hex digest of everything given; the worker then ends. */
  async digest(): Promise<string> {
    this.flush();
    if (this.failure) throw this.failure;
    const hex = await new Promise<string>((resolve, reject) => {
      this.result = resolve;
      this.worker.once('error', reject);
      this.worker.postMessage('digest');
    });
    await this.worker.terminate();
    return hex;
  }

  /** Stop the worker without a digest (a failed or aborted attempt). */
  dispose(): void {
    void this.worker.terminate();
  }
}
