/**
 * A transcript's turns for voiceprints: runs of consecutive words of one speaker, cut again at a long pause
 * or after ten seconds, so that re-clustering can split a speaker the first clustering joined. Pure.
 */
import type { Word } from '../../../shared/library';

export interface VoiceTurn {
  firstWord: number;
  lastWord: number;
  start: number;
  end: number;
}

/** A pause this long starts a new turn. */
const PAUSE_MS = 1000;
/** A turn is cut after this long. */
const MAX_TURN_MS = 10_000;

export function voiceTurns(words: readonly Word[]): VoiceTurn[] {
  const out: VoiceTurn[] = [];
  let first = 0;
  for (let i = 0; i < words.length; i++) {
    const w = words[i] as Word;
    const next = words[i + 1];
    const head = words[first] as Word;
    if (!next || next.speaker !== w.speaker || next.start - w.end > PAUSE_MS || next.end - head.start > MAX_TURN_MS) {
      out.push({ firstWord: first, lastWord: i, start: head.start, end: w.end });
      first = i + 1;
    }
  }
  return out;
}

/** Speaker letters for the words from each turn's group; words outside every turn keep null. */
export function wordsWithGroups(words: readonly Word[], turns: readonly VoiceTurn[], group: readonly (string | null)[]): Word[] {
  const out = words.map((w) => ({ ...w }));
  turns.forEach((t, i) => {
    for (let k = t.firstWord; k <= t.lastWord; k++) (out[k] as Word).speaker = group[i] ?? null;
  });
  return out;
}

/**
 * Kept turns as they may be used against a transcript of `wordCount` words: a row from a restored backup can
 * point past the words, run backwards, overlap the turn before it or hold a print that is not numbers. Such a
 * turn is dropped (or its last word cut to the transcript's last), and a print that cannot be compared (values
 * that are not finite, all zeros, another length than the others) is kept as none. Answers the turns in order.
 */
export function usableTurns<T extends VoiceTurn & { vector: Float32Array | null }>(turns: readonly T[], wordCount: number): T[] {
  const out: T[] = [];
  let dim = -1;
  let after = -1;
  for (const t of turns) {
    if (!Number.isInteger(t.firstWord) || !Number.isInteger(t.lastWord) || t.firstWord <= after || t.firstWord >= wordCount || t.lastWord < t.firstWord)
      continue;
    const start = Number.isFinite(t.start) ? t.start : 0;
    const end = Number.isFinite(t.end) && t.end >= start ? t.end : start;
    let vector = t.vector;
    if (vector && (vector.length === 0 || (dim >= 0 && vector.length !== dim) || !vector.every(Number.isFinite) || vector.every((x) => x === 0))) vector = null;
    if (vector) dim = vector.length;
    const lastWord = Math.min(t.lastWord, wordCount - 1);
    out.push({ ...t, lastWord, start, end, vector });
    after = lastWord;
  }
  return out;
}
