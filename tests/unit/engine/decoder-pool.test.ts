/**
 * The pool of idle PocketSphinx decoders: filling it ahead of use ends when it is full, and when the pool is
 * drained while it fills (the engine shutting down during a warm-up); before, a drained pool freed each decoder
 * it was given and the fill made another, for as long as the process lived.
 */
import { describe, expect, it } from 'vitest';
import { DecoderPool } from '../../../src/engine/recognizer/decoder-pool';
import type { Decoder } from '../../../src/engine/recognizer/sphinx-decoder';

/** A decoder that only counts its freeing (the pool runs free() through run()). */
function fakeDecoders() {
  const made: { freed: boolean }[] = [];
  const make = async (): Promise<Decoder> => {
    await new Promise((r) => setImmediate(r));
    const d = { freed: false, run: <T>(fn: () => Promise<T>) => fn(), free: async () => void (d.freed = true) };
    made.push(d);
    return d as unknown as Decoder;
  };
  return { made, make };
}

describe('DecoderPool.fill', () => {
  it('makes decoders until n are idle, never more than the pool holds', async () => {
    const { made, make } = fakeDecoders();
    const pool = new DecoderPool(2, 60_000, make);
    await pool.fill(1);
    expect(pool.size).toBe(1);
    await pool.fill(5);
    expect(pool.size).toBe(2);
    expect(made).toHaveLength(2);
    pool.drain();
  });

  it('stops when the pool is drained while it fills, and frees what it made', async () => {
    const { made, make } = fakeDecoders();
    const pool = new DecoderPool(4, 60_000, make);
    // fill() has asked for its first decoder; the pool is drained before it comes.
    const filling = pool.fill(4);
    pool.drain();
    await filling;
    // That one decoder is freed as it arrives, and no other is made (the old fill made and freed them forever).
    expect(made).toEqual([{ freed: true, run: expect.any(Function), free: expect.any(Function) }]);
    expect(pool.size).toBe(0);
  });
});
