// lib/words: the word at a time, and find-in-transcript over words.
import { describe, expect, it } from 'vitest';
import { findWords, wordAt } from '../../../../src/renderer/src/lib/words';
import type { Word } from '../../../../src/shared/library';

const w = (text: string, start: number, confidence = 0.9): Word => ({ text, start, end: start + 300, confidence, speaker: null });
const words = [w('Hello', 0), w('world.', 400), w('The', 900), w('world', 1300), w('wonders', 1700)];

describe('transcript word lookups', () => {
  it('finds the word being spoken at a time', () => {
    expect(wordAt(words, -1)).toBe(-1);
    expect(wordAt(words, 0)).toBe(0);
    expect(wordAt(words, 899)).toBe(1);
    expect(wordAt(words, 10_000)).toBe(4);
  });
  it('finds words in sequence, ignoring case and punctuation, the last as a prefix', () => {
    expect(findWords(words, 'world')).toEqual({ matches: [1, 3], length: 1 });
    expect(findWords(words, 'the wo')).toEqual({ matches: [2], length: 2 });
    expect(findWords(words, '  ')).toEqual({ matches: [], length: 0 });
  });
});
