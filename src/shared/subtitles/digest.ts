/**
 * A short fingerprint of a cue list: its count and a 32-bit sum over each
 * pair of neighbouring cues (with a start and an end mark) of a hash of the
 * two cues' hashes, so order counts. Main answers each edit with the digest of
 * what it stored; the renderer compares it with its own, and reopens the
 * document when they differ, so the two never drift apart unseen. Each cue's
 * own hash is kept per cue object, and a list's sum per list: an edit changes
 * the pairs around its splice only (`digestAfter`), so the renderer's digest
 * after an edit costs the cues it touched, not a pass over 5,000 of them.
 */
import type { Cue } from './types';

const PRIME = 0x01000193;
const perCue = new WeakMap<Cue, number>();

function mix(h: number, s: string): number {
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), PRIME);
  // A separator no field holds, so "ab"+"c" and "a"+"bc" differ.
  return Math.imul(h ^ 0xffff, PRIME);
}

/** One cue's hash over every field it carries (an absent field and a null speaker differ). */
export function cueHash(c: Cue): number {
  const known = perCue.get(c);
  if (known !== undefined) return known;
  let h = 0x811c9dc5;
  h = mix(h, String(c.start));
  h = mix(h, String(c.end));
  h = mix(h, c.text);
  h = mix(h, c.words ? `${c.words[0]}-${c.words[1]}` : '');
  h = mix(h, c.speaker === undefined ? '\u0001' : c.speaker === null ? '\u0002' : c.speaker);
  h = mix(h, c.ident ?? '\u0001');
  h = mix(h, c.settings ?? '\u0001');
  h = mix(h, c.notes ? c.notes.join('\u0000') : '\u0001');
  perCue.set(c, h >>> 0);
  return h >>> 0;
}

const START = 0x5bd1e995;
const END = 0x27d4eb2f;
/** The sum of a list's pair hashes, per list (the renderer's lists are replaced, never changed in place). */
const sums = new WeakMap<readonly Cue[], number>();

/** An asymmetric hash of two neighbours (murmur3's finaliser on a mix of both), so A,B and B,A differ. */
function pair(a: number, b: number): number {
  let x = Math.imul(a ^ 0x85ebca6b, 0x9e3779b1) ^ b;
  x = Math.imul(x ^ (x >>> 16), 0x85ebca6b);
  x = Math.imul(x ^ (x >>> 13), 0xc2b2ae35);
  return (x ^ (x >>> 16)) >>> 0;
}

function sumOf(cues: readonly Cue[]): number {
  const known = sums.get(cues);
  if (known !== undefined) return known;
  let sum = 0;
  let prev = START;
  for (const c of cues) {
    const h = cueHash(c);
    sum = (sum + pair(prev, h)) >>> 0;
    prev = h;
  }
  sum = (sum + pair(prev, END)) >>> 0;
  sums.set(cues, sum);
  return sum;
}

const text = (cues: readonly Cue[], sum: number) => `${cues.length}:${sum.toString(16).padStart(8, '0')}`;

/** "count:hash" of a cue list, the same on both sides of the bridge for equal cues. */
export function cuesDigest(cues: readonly Cue[]): string {
  return text(cues, sumOf(cues));
}

/** The pair hashes of cues[from, to) with their neighbours on either side (START/END at the ends). */
function pairsAround(cues: readonly Cue[], from: number, to: number): number {
  let sum = 0;
  let prev = from > 0 ? cueHash(cues[from - 1] as Cue) : START;
  for (let i = from; i < to; i++) {
    const h = cueHash(cues[i] as Cue);
    sum = (sum + pair(prev, h)) >>> 0;
    prev = h;
  }
  return (sum + pair(prev, to < cues.length ? cueHash(cues[to] as Cue) : END)) >>> 0;
}

/**
 * `after` is `before` with `removed` cues at `at` replaced by `inserted` (a splice's counts): its sum from
 * before's, over the pairs that changed only. Nothing is kept when before's sum is not known (the next
 * cuesDigest reads the whole list once).
 */
export function digestAfter(before: readonly Cue[], at: number, removed: number, inserted: number, after: readonly Cue[]): void {
  const known = sums.get(before);
  if (known === undefined || sums.has(after)) return;
  sums.set(after, (known - pairsAround(before, at, at + removed) + pairsAround(after, at, at + inserted)) >>> 0);
}

/** A list whose digest main sent with it (subtitles.open): its sum is read from the digest, not computed. */
export function knownDigest(cues: readonly Cue[], digest: string): void {
  const [count, hex] = digest.split(':');
  if (Number(count) === cues.length && hex && /^[0-9a-f]{8}$/.test(hex)) sums.set(cues, parseInt(hex, 16));
}
