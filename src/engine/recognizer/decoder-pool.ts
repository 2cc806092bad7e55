/**
 * Idle decoders of one kind, at most `max`; one unused for `idleMs` is freed
 * (then memory is released: see memory.ts), so memory returns after work.
 */
import { releaseMemory } from '../memory';
import type { Decoder } from './sphinx-decoder';

export class DecoderPool {
  private idle: { d: Decoder; since: number }[] = [];
  private timer: NodeJS.Timeout | null = null;
  private draining = false;
  onEmpty: (() => void) | null = null;

  constructor(
    private readonly max: number,
    private readonly idleMs: number,
    private readonly make: () => Promise<Decoder>,
  ) {}

  get size(): number {
    return this.idle.length;
  }

  async acquire(): Promise<Decoder> {
    this.draining = false;
    return this.idle.pop()?.d ?? (await this.make());
  }

  /**
   * Makes decoders until `n` are idle (at most `max`). It stops when the pool is drained meanwhile: a decoder
   * given back then is freed at once, so going on would make and free decoders for as long as the process lives.
   */
  async fill(n: number): Promise<void> {
    const want = Math.min(n, this.max);
    while (!this.draining && this.idle.length < want) this.give(await this.make());
  }

  give(d: Decoder): void {
    if (this.draining || this.idle.length >= this.max) {
      void freeDecoders([d]);
      return;
    }
    this.idle.push({ d, since: Date.now() });
    this.schedule();
  }

  /** Frees idle decoders (the longest idle first) until at most `n` are left. */
  shrink(n: number): void {
    const extra = this.idle.splice(0, Math.max(0, this.idle.length - Math.max(0, n))).map((e) => e.d);
    if (extra.length) void freeDecoders(extra);
  }

  private schedule(): void {
    if (this.timer || !this.idle.length) return;
    const oldest = Math.min(...this.idle.map((e) => e.since));
    this.timer = setTimeout(() => this.sweep(), Math.max(10, oldest + this.idleMs - Date.now()));
    this.timer.unref();
  }

  private sweep(): void {
    this.timer = null;
    const now = Date.now();
    const stale = this.idle.filter((e) => now - e.since >= this.idleMs);
    this.idle = this.idle.filter((e) => now - e.since < this.idleMs);
    if (stale.length) void freeDecoders(stale.map((e) => e.d));
    if (this.idle.length) this.schedule();
    else this.onEmpty?.();
  }

  drain(): void {
    this.draining = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const all = this.idle.splice(0).map((e) => e.d);
    if (all.length) void freeDecoders(all);
  }
}

async function freeDecoders(ds: Decoder[]): Promise<void> {
  await Promise.all(ds.map((d) => d.run(() => d.free())));
  releaseMemory();
}
