import { describe, expect, it } from 'vitest';
import { KnownVoices } from '../../../../src/engine/streaming/known-voices';
import { TurnVoices } from '../../../../src/engine/streaming/turn-voices';

/** A "voice" is the constant value of its samples; the embedding points one way per voice. */
const voiced = (v: number, ms: number) => new Int16Array(ms * 16).fill(v);
const embedOf = async (parts: Int16Array[]) => {
  const v = parts[0]?.[0] ?? 0;
  return Float32Array.from(v === 1 ? [1, 0, 0] : v === 2 ? [0, 1, 0] : [0, 0, 1]);
};

function speaker(known: KnownVoices, model = 'm') {
  const t = new TurnVoices(embedOf, null, (d) => known.match(model, d));
  let at = 0;
  return (v: number, ms = 1500) => {
    t.hear(voiced(v, ms), at);
    const label = t.label(at, at + ms * 16);
    at += ms * 16;
    return label;
  };
}

describe('TurnVoices with remembered voices', () => {
  it('names a voice that matches a remembered one; the letters go to the others in order', async () => {
    const known = new KnownVoices();
    known.set({ threshold: 0.8, voices: [{ name: 'Dana', model: 'm', vector: [0, 2, 0] }] });
    const turn = speaker(known);
    expect([await turn(1), await turn(2), await turn(3), await turn(2), await turn(1)]).toEqual(['A', 'Dana', 'B', 'Dana', 'A']);
  });

  it('compares only prints of the session’s model, of its length, at or above the threshold', async () => {
    const other = new KnownVoices();
    other.set({ threshold: 0.8, voices: [{ name: 'Dana', model: 'other-model', vector: [1, 0, 0] }] });
    expect(await speaker(other)(1)).toBe('A');
    const short = new KnownVoices();
    short.set({ threshold: 0.8, voices: [{ name: 'Dana', model: 'm', vector: [1, 0] }] });
    expect(await speaker(short)(1)).toBe('A');
    const strict = new KnownVoices();
    // cos([1,0,0], [1,1,0]) ≈ 0.707: under 0.8, not Dana; at 0.7 it is.
    strict.set({ threshold: 0.8, voices: [{ name: 'Dana', model: 'm', vector: [1, 1, 0] }] });
    expect(await speaker(strict)(1)).toBe('A');
    strict.set({ threshold: 0.7, voices: [{ name: 'Dana', model: 'm', vector: [1, 1, 0] }] });
    expect(await speaker(strict)(1)).toBe('Dana');
  });

  it('a voice told of mid-session takes its name from its next turn on, and keeps it', async () => {
    const known = new KnownVoices();
    const turn = speaker(known);
    expect(await turn(1)).toBe('A');
    known.set({ threshold: 0.8, voices: [{ name: 'Dana', model: 'm', vector: [1, 0, 0] }] });
    expect(await turn(1)).toBe('Dana');
    known.set({ threshold: 0.8, voices: [] });
    expect([await turn(1), await turn(2)]).toEqual(['Dana', 'B']);
  });
});
