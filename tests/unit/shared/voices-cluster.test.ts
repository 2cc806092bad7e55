import { describe, expect, it } from 'vitest';
import { bestMatch, cosine, groupVoices, mergePhantoms, OnlineSpeakers, speakerLetter } from '../../../src/shared/voices/cluster';

const A = [1, 0, 0];
const B = [0, 1, 0];
const C = [0, 0, 1];
const near = (v: number[], e = 0.1) => v.map((x, i) => x + (i === 2 ? e : 0));

describe('voiceprint clustering', () => {
  it('names speakers A…Z then AA', () => {
    expect([0, 1, 25, 26, 27].map(speakerLetter)).toEqual(['A', 'B', 'Z', 'AA', 'AB']);
  });

  it('online: a new voice starts a speaker, a known one joins it, max_speakers bounds the count', () => {
    const s = new OnlineSpeakers();
    expect([A, B, near(A), near(B, 0.2), A].map((v) => s.assign(v).speaker)).toEqual([0, 1, 0, 1, 0]);
    const one = new OnlineSpeakers(1);
    expect([A, B, C].map((v) => one.assign(v).speaker)).toEqual([0, 0, 0]);
    const two = new OnlineSpeakers(2);
    expect([A, B, near(A, 0.3), C].map((v) => two.assign(v).speaker).slice(0, 3)).toEqual([0, 1, 0]);
  });

  it('groups to N, or by threshold (Auto)', () => {
    const items = [A, near(A), B, near(B), C];
    expect(groupVoices(items, { threshold: 0.5 })).toEqual([0, 0, 1, 1, 2]);
    expect(new Set(groupVoices(items, { speakers: 2 })).size).toBe(2);
    expect(groupVoices(items, { speakers: 3 })).toEqual([0, 0, 1, 1, 2]);
    expect(groupVoices(items, { speakers: 1 })).toEqual([0, 0, 0, 0, 0]);
  });

  it('folds groups with too little speech into their nearest neighbour and counts them', () => {
    const items = [
      { vector: A, ms: 4000 },
      { vector: B, ms: 5000 },
      { vector: [0.9, 0.1, 0.4], ms: 600 },
      { vector: A, ms: 3000 },
    ];
    const r = mergePhantoms(items, [0, 1, 2, 0], 1500);
    expect(r).toEqual({ groups: [0, 1, 0, 0], merged: 1 });
    expect(mergePhantoms(items, [0, 1, 1, 0], 1500).merged).toBe(0);
  });

  it('matches a probe against known voices', () => {
    const known = [
      { id: 'dana', vector: A },
      { id: 'sam', vector: B },
    ];
    expect(bestMatch(near(A), known)?.id).toBe('dana');
    expect(bestMatch(near(A), known)?.similarity).toBeCloseTo(cosine(near(A), A));
    expect(bestMatch(A, [])).toBeNull();
  });
});
