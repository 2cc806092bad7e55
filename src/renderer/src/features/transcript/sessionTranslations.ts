/** Which paragraph of a saved live session each translated line goes under: the one that holds the middle of its turn. */
import type { SavedTranslation } from '../../../../shared/captions-extras';
import type { Block } from './paragraphs';

/**
 * Lines by block index. By the turn's middle, not its start: a turn may start a
 * moment before its first word, which would put it under the paragraph before.
 */
export function translationsByBlock(blocks: readonly Block[], rows: readonly SavedTranslation[]): Map<number, SavedTranslation[]> {
  const out = new Map<number, SavedTranslation[]>();
  if (blocks.length === 0) return out;
  for (const row of rows) {
    const mid = (row.startMs + row.endMs) / 2;
    let lo = 0;
    let hi = blocks.length - 1;
    // The last block that starts at or before the middle (the first block takes what comes before it).
    while (lo < hi) {
      const m = (lo + hi + 1) >> 1;
      if ((blocks[m] as Block).start <= mid) lo = m;
      else hi = m - 1;
    }
    const list = out.get(lo);
    if (list) list.push(row);
    else out.set(lo, [row]);
  }
  return out;
}
