/** Word search over a transcript's words: words, numbers or phrases of up to 5 words. */
import type { Word } from '../../shared/api/transcript';

export interface WordMatch {
  text: string;
  count: number;
  timestamps: [number, number][];
  indexes: number[];
}

export function normalizeToken(s: string): string {
  return s.toLowerCase().replace(/[^\p{L}\p{N}'#[\]_]+/gu, '');
}

export function wordSearch(words: readonly Word[], items: readonly string[]): WordMatch[] {
  const norm = words.map((w) => normalizeToken(w.text));
  return items.map((item) => {
    const parts = item.split(/\s+/).map(normalizeToken).filter(Boolean);
    const m: WordMatch = { text: item, count: 0, timestamps: [], indexes: [] };
    if (!parts.length) return m;
    for (let i = 0; i + parts.length <= norm.length; i++) {
      if (parts.every((p, k) => norm[i + k] === p)) {
        m.count++;
        m.timestamps.push([(words[i] as Word).start, (words[i + parts.length - 1] as Word).end]);
        m.indexes.push(i);
      }
    }
    return m;
  });
}
