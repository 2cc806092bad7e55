/**
 * Review of doubtful words, the pure part: which words are doubtful (under the threshold, not corrected,
 * not accepted), how many are left, and the next one from a word, found by binary search in a sorted list so
 * a jump in a two-hour transcript costs a few comparisons, not a walk over its words.
 */
import type { Word } from '../../../shared/library';

/** The threshold a transcript is reviewed at unless the user sets another (Settings' `reviewThreshold`). */
export const DEFAULT_REVIEW_THRESHOLD = 0.7;
/** The thresholds offered; each is "confidence below this". */
export const REVIEW_THRESHOLDS = [0.5, 0.6, 0.7, 0.8, 0.9] as const;
/** Audio played around a word when review jumps to it: from this long before its start to this long after its end. */
export const REVIEW_PAD_MS = 500;

/** Indexes of the doubtful words, ascending. `corrected(i)`: the word was corrected (a correction is a review). */
export function doubtfulWords(words: readonly Word[], threshold: number, accepted: ReadonlySet<number>, corrected: (i: number) => boolean): number[] {
  const out: number[] = [];
  for (let i = 0; i < words.length; i++) {
    const w = words[i] as Word;
    if (w.confidence < threshold && !accepted.has(i) && !corrected(i)) out.push(i);
  }
  return out;
}

/** The first doubtful word after word `from` (before it, `dir` -1), wrapping round the ends; -1 when none is left. */
export function nextDoubtful(doubtful: readonly number[], from: number, dir: 1 | -1 = 1): number {
  const n = doubtful.length;
  if (n === 0) return -1;
  // lo: the first position whose index is > from.
  let lo = 0;
  let hi = n;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((doubtful[mid] as number) <= from) lo = mid + 1;
    else hi = mid;
  }
  if (dir === 1) return doubtful[lo < n ? lo : 0] as number;
  // Before `from`: the last position whose index is < from.
  let at = lo - 1;
  if (at >= 0 && doubtful[at] === from) at--;
  return doubtful[at >= 0 ? at : n - 1] as number;
}

/** The stretch of audio played for a word: half a second either side, never before 0. */
export function reviewWindow(word: Pick<Word, 'start' | 'end'>): { from: number; to: number } {
  return { from: Math.max(0, word.start - REVIEW_PAD_MS), to: word.end + REVIEW_PAD_MS };
}
