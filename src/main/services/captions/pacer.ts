/**
 * Sends audio frames no faster than real time (API.md §8.2): the bridge and
 * IPC deliver frames in bursts, and a service closes a session (3007) that
 * receives audio ahead of the clock. A small lead absorbs jitter without delay.
 */
export interface PacerClock {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

const systemClock: PacerClock = {
  now: () => performance.now(),
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
};

export class RealTimePacer {
  private readonly queue: { bytes: Buffer; ms: number }[] = [];
  private startedAt: number | null = null;
  private sentMs = 0;
  private timer: unknown = null;

  /**
   * @param send where paced frames go
   * @param leadMs how far ahead of the clock the audio may run (jitter allowance; services tolerate more)
   */
  constructor(
    private readonly send: (bytes: Buffer) => void,
    private readonly leadMs = 250,
    private readonly clock: PacerClock = systemClock,
  ) {}

  /** Queue a frame of `ms` milliseconds of audio. */
  push(bytes: Buffer, ms: number): void {
    this.queue.push({ bytes, ms });
    this.drain();
  }

  /** Frames waiting for their time (ms of audio). */
  get queuedMs(): number {
    return this.queue.reduce((n, f) => n + f.ms, 0);
  }

  /** A new session starts its own clock (after a reconnect). */
  reset(): void {
    this.startedAt = null;
    this.sentMs = 0;
  }

  /** Send what is queued at once (stop: the session ends anyway) and stop the timer. */
  flush(): void {
    if (this.timer !== null) this.clock.clearTimeout(this.timer);
    this.timer = null;
    for (const f of this.queue.splice(0)) this.send(f.bytes);
  }

  private drain(): void {
    if (this.timer !== null) return;
    const now = this.clock.now();
    this.startedAt ??= now;
    while (this.queue.length) {
      const head = this.queue[0]!;
      const allowed = now - this.startedAt + this.leadMs;
      if (this.sentMs + head.ms > allowed) {
        this.timer = this.clock.setTimeout(
          () => {
            this.timer = null;
            this.drain();
          },
          Math.max(1, this.sentMs + head.ms - allowed),
        );
        return;
      }
      this.queue.shift();
      this.sentMs += head.ms;
      this.send(head.bytes);
    }
  }
}
