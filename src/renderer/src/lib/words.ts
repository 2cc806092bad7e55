/** Pure word lookups of the transcript view: the word at a time, and find-in-transcript. */
import type { Word } from '../../../shared/library';
import { lastStartingBy } from '../../../shared/timeline';

/** Index of the word being spoken at `ms`: the last word that started at or before it (-1 before the first). */
export function wordAt(words: readonly Word[], ms: number): number {
  return lastStartingBy(words, ms);
}

export function normalizeWord(s: string): string {
  return s
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^\p{L}\p{N}']+/gu, '');
}

/** Where the words of `query` occur in sequence (the last one as a prefix). */
export function findWords(words: readonly Word[], query: string): { matches: number[]; length: number } {
  const terms = query.split(/\s+/).map(normalizeWord).filter(Boolean);
  if (terms.length === 0) return { matches: [], length: 0 };
  const norm = words.map((w) => normalizeWord(w.text));
  const matches: number[] = [];
  outer: for (let i = 0; i + terms.length <= norm.length; i++) {
    for (let k = 0; k < terms.length; k++) {
      const w = norm[i + k] as string;
      const t = terms[k] as string;
      if (k === terms.length - 1 ? !w.startsWith(t) : w !== t) continue outer;
    }
    matches.push(i);
  }
  return { matches, length: terms.length };
}
