import { describe, expect, it } from 'vitest';
import { TurnVoices } from '../../../../src/engine/streaming/turn-voices';

/** A "voice" is the constant value of its samples; the embedding says which of two voices it is. */
const voiced = (v: number, ms: number) => new Int16Array(ms * 16).fill(v);
const embedOf = async (parts: Int16Array[]) => {
  const v = parts[0]?.[0] ?? 0;
  return Float32Array.from(v > 100 ? [1, 0] : [0, 1]);
};

describe('TurnVoices', () => {
  it('labels turns by their audio: A, B, A; a turn under a second is UNKNOWN', async () => {
    const t = new TurnVoices(embedOf, null);
    let at = 0;
    const turn = async (v: number, ms: number) => {
      t.hear(voiced(v, ms), at);
      const label = t.label(at, at + ms * 16);
      at += ms * 16;
      return label;
    };
    expect([await turn(200, 1500), await turn(50, 1200), await turn(200, 800), await turn(200, 2000)]).toEqual(['A', 'B', 'UNKNOWN', 'A']);
  });

  it('a failed voiceprint labels the turn UNKNOWN and the next turn still gets its label', async () => {
    let fail = true;
    const t = new TurnVoices(async (p) => {
      if (fail) throw new Error('the model crashed');
      return embedOf(p);
    }, null);
    t.hear(voiced(200, 3000), 0);
    const first = t.label(0, 1500 * 16);
    fail = false;
    const second = t.label(1500 * 16, 3000 * 16);
    expect([await first, await second]).toEqual(['UNKNOWN', 'A']);
  });

  it('takes only the span asked for', async () => {
    const seen: number[] = [];
    const t = new TurnVoices(async (parts) => {
      seen.push(parts.reduce((n, p) => n + p.length, 0));
      return Float32Array.from([1, 0]);
    }, 2);
    t.hear(voiced(1, 1000), 0);
    t.hear(voiced(1, 1000), 16000);
    expect(await t.label(8000, 8000 + 24000)).toBe('A');
    expect(seen).toEqual([24000]);
  });
});
