/**
 * Undo/redo as splices: an edit is stored as the cues it removed and the cues
 * it put in their place at one index, so a history of thousands of edits on
 * a 5,000-cue list stays small, and undoing is applying the inverse splice.
 */
import type { Cue } from './types';

export interface Splice {
  at: number;
  remove: Cue[];
  insert: Cue[];
}

export interface HistoryEntry {
  label: string;
  splice: Splice;
}

function sameCue(a: Cue, b: Cue): boolean {
  return (
    a === b ||
    (a.start === b.start &&
      a.end === b.end &&
      a.text === b.text &&
      a.speaker === b.speaker &&
      a.words?.[0] === b.words?.[0] &&
      a.words?.[1] === b.words?.[1] &&
      a.ident === b.ident &&
      a.settings === b.settings &&
      (a.notes ?? []).join('\u0000') === (b.notes ?? []).join('\u0000'))
  );
}

/** The smallest splice turning `before` into `after` (common head and tail left out). */
export function diffCues(before: readonly Cue[], after: readonly Cue[]): Splice | null {
  let head = 0;
  const min = Math.min(before.length, after.length);
  while (head < min && sameCue(before[head]!, after[head]!)) head++;
  let tail = 0;
  while (tail < min - head && sameCue(before[before.length - 1 - tail]!, after[after.length - 1 - tail]!)) tail++;
  if (head === before.length && head === after.length) return null;
  return { at: head, remove: before.slice(head, before.length - tail), insert: after.slice(head, after.length - tail) };
}

/** A new list with `remove` cues at `at` replaced by `insert`: built by loops, since spreading 125,000 cues into splice()'s arguments overflows the stack. */
export function spliceCues(cues: readonly Cue[], at: number, remove: number, insert: readonly Cue[]): Cue[] {
  const out = cues.slice(0, at);
  for (const c of insert) out.push(c);
  for (let i = at + remove; i < cues.length; i++) out.push(cues[i]!);
  return out;
}

export function applySplice(cues: readonly Cue[], s: Splice): Cue[] {
  return spliceCues(cues, s.at, s.remove.length, s.insert);
}

export function invertSplice(s: Splice): Splice {
  return { at: s.at, remove: s.insert, insert: s.remove };
}

/** Whether a splice can be applied to `cues` (what it removes is there): a stale client cannot corrupt the list. */
export function spliceFits(cues: readonly Cue[], s: Splice): boolean {
  if (s.at < 0 || s.at + s.remove.length > cues.length) return false;
  return s.remove.every((c, i) => sameCue(c, cues[s.at + i]!));
}
