/**
 * Who speaks at a word: the one rule the engine (diarization turns) and the app (a live session's You/Others)
 * share. The turn holding the word's midpoint wins; among several (overlapping speech), the one overlapping
 * the word the longest, then the one that started first, then the lowest label. A word between turns takes
 * the nearest turn (ties: the earlier). Null when there are no turns.
 */

/** One speaker's turn in milliseconds; `speaker` is a cluster number (engine) or a label (app). */
export interface SpeakerTurn<S extends number | string = number> {
  start: number;
  end: number;
  speaker: S;
}

function earlier<S extends number | string>(a: SpeakerTurn<S>, b: SpeakerTurn<S>): boolean {
  return a.start < b.start || (a.start === b.start && a.speaker < b.speaker);
}

export function speakerAt<S extends number | string>(word: { start: number; end: number }, turns: readonly SpeakerTurn<S>[]): S | null {
  const mid = (word.start + word.end) / 2;
  let best: SpeakerTurn<S> | null = null;
  let bestOverlap = -1;
  for (const t of turns) {
    if (mid < t.start || mid > t.end) continue;
    const overlap = Math.min(word.end, t.end) - Math.max(word.start, t.start);
    if (!best || overlap > bestOverlap || (overlap === bestOverlap && earlier(t, best))) {
      best = t;
      bestOverlap = overlap;
    }
  }
  if (best) return best.speaker;
  let nearest: SpeakerTurn<S> | null = null;
  let nearestGap = Infinity;
  for (const t of turns) {
    const gap = mid < t.start ? t.start - mid : mid - t.end;
    if (gap < nearestGap || (gap === nearestGap && nearest && earlier(t, nearest))) {
      nearest = t;
      nearestGap = gap;
    }
  }
  return nearest ? nearest.speaker : null;
}

/**
 * Words given the speakers of other words of the same audio that carry them (a two-source live session's
 * You / Others, for the improved version of it): each word takes the label at its midpoint by the rule
 * above. Unchanged when no labelled word exists.
 */
export function labelByWords<W extends { start: number; end: number; speaker: string | null }>(
  words: readonly W[],
  labelled: readonly { start: number; end: number; speaker: string | null }[],
): W[] {
  const turns: SpeakerTurn<string>[] = [];
  for (const w of labelled) if (w.speaker) turns.push({ start: w.start, end: w.end, speaker: w.speaker });
  if (!turns.length) return [...words];
  return words.map((w) => ({ ...w, speaker: speakerAt(w, turns) ?? w.speaker }));
}
