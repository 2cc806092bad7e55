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

/** The clustering as it was first written (every pair's linkage recomputed after each merge): the reference groupVoices must agree with. */
function referenceGroups(items: readonly number[][], g: { speakers: number } | { threshold: number }): number[] {
  const units = items.map((v) => {
    const n = Math.sqrt(v.reduce((s, x) => s + x * x, 0));
    return Float32Array.from(v, (x) => (n ? x / n : 0));
  });
  const sim = units.map((a) => units.map((b) => cosine(a, b)));
  let groups = units.map((_, i) => [i]);
  const linkage = (a: number[], b: number[]): number => {
    let s = 0;
    for (const i of a) for (const j of b) s += sim[i]![j]!;
    return s / (a.length * b.length);
  };
  while (groups.length > 1) {
    if ('speakers' in g && groups.length <= Math.max(1, g.speakers)) break;
    let best = -Infinity;
    let pair: [number, number] = [0, 1];
    for (let i = 0; i < groups.length; i++)
      for (let j = i + 1; j < groups.length; j++) {
        const l = linkage(groups[i]!, groups[j]!);
        if (l > best) {
          best = l;
          pair = [i, j];
        }
      }
    if ('threshold' in g && best < g.threshold) break;
    const [i, j] = pair;
    groups = [...groups.filter((_, k) => k !== i && k !== j), [...groups[i]!, ...groups[j]!]];
  }
  const of = new Array<number>(items.length).fill(0);
  groups.forEach((grp, k) => grp.forEach((i) => (of[i] = k)));
  const order = new Map<number, number>();
  return of.map((k) => {
    if (!order.has(k)) order.set(k, order.size);
    return order.get(k)!;
  });
}

/** A small deterministic generator (mulberry32), so a failure can be replayed from its seed. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('groupVoices against the reference clustering', () => {
  it('gives the same groups for 400 random sets of prints (voices with noise), by count and by threshold', () => {
    for (let seed = 1; seed <= 400; seed++) {
      const r = rng(seed);
      const dim = 3 + Math.floor(r() * 14);
      const voices = Array.from({ length: 1 + Math.floor(r() * 6) }, () => Array.from({ length: dim }, () => r() * 2 - 1));
      const noise = r() * 1.5;
      const n = 1 + Math.floor(r() * 70);
      const items = Array.from({ length: n }, () => voices[Math.floor(r() * voices.length)]!.map((x) => x + (r() * 2 - 1) * noise));
      const g = r() < 0.5 ? { speakers: 1 + Math.floor(r() * 10) } : { threshold: r() * 1.2 - 0.2 };
      expect(groupVoices(items, g), `seed ${seed}, ${JSON.stringify(g)}`).toEqual(referenceGroups(items, g));
    }
  });

  it('handles no prints, one print, and more speakers asked than prints', () => {
    expect(groupVoices([], { threshold: 0.5 })).toEqual([]);
    expect(groupVoices([A], { speakers: 3 })).toEqual([0]);
    expect(groupVoices([A, B], { speakers: 5 })).toEqual([0, 1]);
    expect(groupVoices([A, A, A], { threshold: 0.5 })).toEqual([0, 0, 0]);
  });
});
