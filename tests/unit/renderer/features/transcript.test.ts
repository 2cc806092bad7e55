// features/transcript: a transcript's reading blocks (paragraphs, else sentences, else runs of words).
import { describe, expect, it } from 'vitest';
import { blockOf, blocksOf } from '../../../../src/renderer/src/features/transcript/paragraphs';
import type { Transcript, Word } from '../../../../src/shared/library';

const w = (text: string, start: number, confidence = 0.9): Word => ({ text, start, end: start + 300, confidence, speaker: null });
const words = [w('Hello', 0), w('world.', 400), w('The', 900), w('world', 1300), w('wonders', 1700)];

describe('transcript blocks', () => {
  it('falls back from paragraphs to sentences to runs of words', () => {
    const t = {
      words,
      paragraphs: [],
      sentences: [
        { text: '', start: 0, end: 700, firstWord: 0, lastWord: 1, speaker: null },
        { text: '', start: 900, end: 2000, firstWord: 2, lastWord: 4, speaker: null },
      ],
      speakers: [],
    } as unknown as Transcript;
    const blocks = blocksOf(t);
    expect(blocks.map((b) => [b.first, b.last])).toEqual([
      [0, 1],
      [2, 4],
    ]);
    expect(blockOf(blocks, 3)).toBe(1);
    expect(blocksOf({ ...t, sentences: [] }).map((b) => [b.first, b.last])).toEqual([[0, 4]]);
  });
});
