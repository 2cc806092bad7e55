/**
 * A short fingerprint of a cue list: its count and a 32-bit FNV-1a hash of
 * every field, in order. Main answers each edit with the digest of what it
 * stored; the renderer compares it with its own, and reopens the document
 * when they differ, so the two never drift apart unseen. Each cue's own hash
 * is kept per cue object: an edit makes new objects only for the cues it
 * touched, so the renderer's digest after an edit is mostly lookups.
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

/** "count:hash" of a cue list, the same on both sides of the bridge for equal cues. */
export function cuesDigest(cues: readonly Cue[]): string {
  let h = 0x811c9dc5;
  for (const c of cues) {
    const x = cueHash(c);
    h = Math.imul(h ^ (x & 0xffff), PRIME);
    h = Math.imul(h ^ (x >>> 16), PRIME);
  }
  return `${cues.length}:${(h >>> 0).toString(16).padStart(8, '0')}`;
}
