/**
 * The far end of a download, on a second thread: the bytes the socket
 * delivers are copied into a shared ring, and a worker hashes them (SHA-256)
 * and writes them to the partial file. The download's own thread then only
 * reads the socket and copies: hashing and writing 1 GiB on it cost seconds,
 * and a message per batch cost more than the copy (measured with
 * bench/models-download.ts). The worker also hashes the bytes a resumed
 * download already holds, off the main thread and stoppable between MiBs.
 */
import { Worker } from 'node:worker_threads';

/** Ring size: a power of two; the socket is paused while more than half of it waits. */
const RING = 4 * 1024 * 1024;
// Control words: bytes produced and consumed (both mod 2^32), and flags.
const HEAD = 0;
const TAIL = 1;
const FLAGS = 2;
/** 1 while the worker sleeps, waiting for bytes: only then is a wake-up worth its cost. */
const SLEEPING = 3;
/** Bytes waiting before a sleeping worker is woken: a wake-up per socket read costs more than the copy. */
const WAKE_AT = 256 * 1024;
const FLUSH_MS = 20;
const END = 1;
const ABORT = 2;
const FAILED = 4;

// Plain JavaScript, so it runs the same from tsx, the host bundle and Electron.
const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const fs = require('node:fs');
const hash = require('node:crypto').createHash('sha256');
const ring = new Uint8Array(workerData.ring);
const ctl = new Int32Array(workerData.ctl);
const SIZE = ring.length;
const fail = (e) => ({ code: e && e.code, message: String((e && e.message) || e) });
parentPort.on('message', (m) => {
  if (m.type === 'prefix') {
    // The first bytes of the partial file, read and hashed here; a pause or cancel stops it between reads.
    let fd = -1;
    try {
      fd = fs.openSync(m.path, 'r');
      const buf = Buffer.allocUnsafe(1 << 20);
      for (let at = 0; at < m.bytes; ) {
        if (Atomics.load(ctl, ${FLAGS}) & ${ABORT}) return parentPort.postMessage({ type: 'aborted' });
        const n = fs.readSync(fd, buf, 0, Math.min(buf.length, m.bytes - at), at);
        if (n === 0) throw Object.assign(new Error('the partial file is shorter than it was'), { code: 'ESHORT' });
        hash.update(buf.subarray(0, n));
        at += n;
      }
      parentPort.postMessage({ type: 'prefixed' });
    } catch (e) {
      parentPort.postMessage({ type: 'failed', error: fail(e) });
    } finally {
      if (fd >= 0) fs.closeSync(fd);
    }
    return;
  }
  if (m.type === 'run') {
    let error = null;
    for (;;) {
      const head = Atomics.load(ctl, ${HEAD});
      const tail = Atomics.load(ctl, ${TAIL});
      const avail = (head - tail) >>> 0;
      if (avail === 0) {
        if (Atomics.load(ctl, ${FLAGS}) & ${END}) break;
        // Say so before sleeping, then look again: bytes pushed in between are seen, or their pusher sees the flag.
        Atomics.store(ctl, ${SLEEPING}, 1);
        if (Atomics.load(ctl, ${HEAD}) === head && !(Atomics.load(ctl, ${FLAGS}) & ${END})) Atomics.wait(ctl, ${HEAD}, head);
        Atomics.store(ctl, ${SLEEPING}, 0);
        continue;
      }
      const at = tail & (SIZE - 1);
      const n = Math.min(avail, SIZE - at);
      const view = ring.subarray(at, at + n);
      // After a failed write the bytes are still taken (the socket must not wait on a dead sink), but no longer written.
      if (!error) {
        hash.update(view);
        try {
          for (let off = 0; off < n; ) off += fs.writeSync(m.fd, view, off, n - off);
        } catch (e) {
          error = fail(e);
          Atomics.or(ctl, ${FLAGS}, ${FAILED});
        }
      }
      Atomics.store(ctl, ${TAIL}, (tail + n) | 0);
      Atomics.notify(ctl, ${TAIL});
    }
    parentPort.postMessage({ type: 'done', digest: error ? null : hash.digest('hex'), error });
  }
});
`;

export type SinkError = Error & { code?: string };

// Atomics.waitAsync (ES2024; Node ≥ 16) is missing from this project's TypeScript lib.
const waitAsync = (Atomics as unknown as { waitAsync: (a: Int32Array, i: number, v: number, t: number) => { async: boolean; value: unknown } }).waitAsync;

export class DownloadSink {
  private readonly ringBuffer = new SharedArrayBuffer(RING);
  // A Buffer over the shared memory: Buffer#copy is a memcpy, where TypedArray#set into shared memory copies element by element.
  private readonly ring = Buffer.from(this.ringBuffer);
  private readonly ctl = new Int32Array(new SharedArrayBuffer(16));
  // A small heap: the worker holds a hash state, a read buffer and views of the ring.
  private readonly worker = new Worker(WORKER, {
    eval: true,
    workerData: { ring: this.ringBuffer, ctl: this.ctl.buffer },
    resourceLimits: { maxYoungGenerationSizeMb: 2, maxOldGenerationSizeMb: 16 },
  });
  private head = 0;
  private pending: Buffer | null = null;
  private running = false;
  private dead: SinkError | null = null;
  private readonly waiting = new Set<(m: { type: string; digest?: string | null; error?: { code?: string; message: string } | null }) => void>();

  constructor() {
    this.worker.on('message', (m: { type: string }) => {
      for (const w of [...this.waiting]) w(m);
    });
    this.worker.on('error', (e) => this.die(e));
    this.worker.on('exit', () => this.die(new Error('the hashing thread stopped')));
    this.worker.unref();
  }

  private die(e: SinkError): void {
    this.dead ??= e;
    for (const w of [...this.waiting]) w({ type: 'failed', error: { code: e.code, message: e.message } });
  }

  private next(types: string[]): Promise<{ type: string; digest?: string | null; error?: { code?: string; message: string } | null }> {
    if (this.dead) return Promise.resolve({ type: 'failed', error: { code: this.dead.code, message: this.dead.message } });
    return new Promise((resolve) => {
      const w = (m: { type: string }) => {
        if (!types.includes(m.type) && m.type !== 'failed') return;
        this.waiting.delete(w);
        resolve(m);
      };
      this.waiting.add(w);
    });
  }

  /** Hash the first `bytes` of `path` (what a resumed download holds); rejects with 'aborted' when `signal` fires first. */
  async hashPrefix(path: string, bytes: number, signal: AbortSignal): Promise<void> {
    if (bytes === 0) return;
    const stop = () => Atomics.or(this.ctl, FLAGS, ABORT);
    signal.addEventListener('abort', stop, { once: true });
    if (signal.aborted) stop();
    try {
      const answer = this.next(['prefixed', 'aborted']);
      this.worker.postMessage({ type: 'prefix', path, bytes });
      const m = await answer;
      if (m.type === 'aborted') throw Object.assign(new Error('aborted'), { code: 'ABORT_ERR' });
      if (m.type === 'failed') throw Object.assign(new Error(m.error?.message ?? 'failed'), { code: m.error?.code });
    } finally {
      signal.removeEventListener('abort', stop);
    }
  }

  /** From now on every byte pushed is hashed and written to `fd` (opened by the caller, closed by it after `finish`). */
  start(fd: number): void {
    this.running = true;
    this.worker.postMessage({ type: 'run', fd });
  }

  /** Whether a write has failed (the error comes with `finish`). */
  get failed(): boolean {
    return (Atomics.load(this.ctl, FLAGS) & FAILED) !== 0 || this.dead !== null;
  }

  private room(): number {
    return RING - ((this.head - Atomics.load(this.ctl, TAIL)) >>> 0);
  }

  /** Copy what fits of `chunk` into the ring; the rest waits in `pending`. */
  private copy(chunk: Buffer): Buffer | null {
    const n = Math.min(chunk.length, this.room());
    const at = this.head & (RING - 1);
    const first = Math.min(n, RING - at);
    chunk.copy(this.ring, at, 0, first);
    if (n > first) chunk.copy(this.ring, 0, first, n);
    this.head = (this.head + n) | 0;
    Atomics.store(this.ctl, HEAD, this.head);
    this.wake(false);
    return n < chunk.length ? chunk.subarray(n) : null;
  }

  /**
   * Wake the worker if it sleeps and enough waits for it (or `always`: the
   * stream ends, or the producer waits for room). Fewer bytes are written
   * within FLUSH_MS all the same, so a slow or paused transfer's partial file
   * keeps up with what arrived (a kill loses at most that).
   */
  private wake(always: boolean): void {
    if (Atomics.load(this.ctl, SLEEPING) !== 1) return;
    if (always || RING - this.room() >= WAKE_AT) Atomics.notify(this.ctl, HEAD);
    else
      this.flushTimer ??= setTimeout(() => {
        this.flushTimer = null;
        this.wake(true);
      }, FLUSH_MS);
  }

  private flushTimer: NodeJS.Timeout | null = null;

  /** Take a chunk; false when the caller should pause its source until `drain()` resolves. */
  push(chunk: Buffer): boolean {
    if (this.pending) this.pending = Buffer.concat([this.pending, chunk]);
    else this.pending = this.copy(chunk);
    return this.pending === null && this.room() >= RING / 2;
  }

  /** Resolves once every pushed byte is in the ring and at most half of it waits (or the worker has failed). */
  async drain(): Promise<void> {
    for (;;) {
      if (this.pending) this.pending = this.copy(this.pending);
      if ((this.pending === null && this.room() >= RING / 2) || this.dead) return;
      this.wake(true);
      const tail = Atomics.load(this.ctl, TAIL);
      const w = waitAsync(this.ctl, TAIL, tail, 250);
      if (w.async) await w.value;
    }
  }

  private finishing: Promise<string> | null = null;

  /** Ends the stream (once; later calls answer the same): every pushed byte is written; resolves with the SHA-256 of all bytes (the prefix's too), or rejects with the write's error. */
  finish(): Promise<string> {
    this.finishing ??= this.end();
    return this.finishing;
  }

  private async end(): Promise<string> {
    if (!this.running) throw new Error('the sink was never started');
    while (this.pending && !this.dead) await this.drain();
    const done = this.next(['done']);
    Atomics.or(this.ctl, FLAGS, END);
    Atomics.notify(this.ctl, HEAD);
    const m = await done;
    if (m.type === 'done' && m.digest) return m.digest;
    throw Object.assign(new Error(m.error?.message ?? 'the write failed'), { code: m.error?.code });
  }

  /** Stop the worker (after `finish`, or to abandon the bytes). */
  dispose(): void {
    if (this.flushTimer) clearTimeout(this.flushTimer);
    Atomics.or(this.ctl, FLAGS, END | ABORT);
    Atomics.notify(this.ctl, HEAD);
    this.worker.removeAllListeners('exit');
    void this.worker.terminate();
  }
}
