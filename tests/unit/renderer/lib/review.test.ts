// Review of doubtful words, the pure part: which words count, the jump (binary search, round the ends, both
// ways), the played window, where confidences come from, and that F8 is no command's key in the editor.
import { describe, expect, it } from 'vitest';
import type { Word } from '../../../../src/shared/library';
import { allKeyPresses, keyCommands } from '../../../../src/shared/subtitles/commands';
import { confidenceSource, confidenceSourceText } from '../../../../src/renderer/src/lib/confidenceSource';
import { doubtfulWords, nextDoubtful, reviewWindow } from '../../../../src/renderer/src/lib/review';
import { isReviewKey } from '../../../../src/renderer/src/features/transcript/ReviewBar';

const word = (confidence: number, i: number): Word => ({ text: `w${i}`, start: i * 300, end: i * 300 + 200, confidence, speaker: null });

describe('doubtful words', () => {
  const words = [0.9, 0.3, 0.95, 0.69, 0.7, 0.1].map(word);

  it('are under the threshold, not accepted and not corrected', () => {
    expect(doubtfulWords(words, 0.7, new Set(), () => false)).toEqual([1, 3, 5]);
    expect(doubtfulWords(words, 0.7, new Set([3]), (i) => i === 5)).toEqual([1]);
    expect(doubtfulWords(words, 0.5, new Set(), () => false)).toEqual([1, 5]);
  });

  it('jump forward and back from any word, round the ends', () => {
    const list = [1, 3, 5];
    expect(nextDoubtful(list, -1)).toBe(1);
    expect(nextDoubtful(list, 1)).toBe(3);
    expect(nextDoubtful(list, 2)).toBe(3);
    expect(nextDoubtful(list, 5)).toBe(1);
    expect(nextDoubtful(list, 3, -1)).toBe(1);
    expect(nextDoubtful(list, 4, -1)).toBe(3);
    expect(nextDoubtful(list, 1, -1)).toBe(5);
    expect(nextDoubtful(list, 6, -1)).toBe(5);
    expect(nextDoubtful([], 0)).toBe(-1);
    // Every start in a long list agrees with a walk.
    const long = Array.from({ length: 500 }, (_, i) => i * 7 + 3);
    for (let from = -1; from < 3600; from += 13) {
      const walk = long.find((i) => i > from) ?? long[0];
      expect(nextDoubtful(long, from)).toBe(walk);
    }
  });

  it('plays half a second either side, never before the start', () => {
    expect(reviewWindow({ start: 1200, end: 1500 })).toEqual({ from: 700, to: 2000 });
    expect(reviewWindow({ start: 200, end: 400 })).toEqual({ from: 0, to: 900 });
  });
});

describe('where confidences come from', () => {
  it('tells the cloud, token scores, PocketSphinx and models that give none apart', () => {
    expect(confidenceSource('us', 'universal-2')).toBe('cloud');
    expect(confidenceSource('eu', null)).toBe('cloud');
    expect(confidenceSource('local', 'pocketsphinx')).toBe('sphinx');
    expect(confidenceSource('local', 'parakeet-tdt-0.6b-v2')).toBe('tokens');
    expect(confidenceSource('local', 'streaming-zipformer-en')).toBe('tokens');
    expect(confidenceSource('local', 'moonshine-tiny-en')).toBe('none');
    expect(confidenceSource('local', 'sense-voice-zh-en-ja-ko-yue')).toBe('none');
    expect(confidenceSource('local', 'not-a-catalog-model')).toBe('none');
    expect(confidenceSourceText('tokens', 'parakeet-tdt-0.6b-v2')).toMatch(/^Word confidences from Parakeet TDT 0\.6B v2/);
    expect(confidenceSourceText('none', 'moonshine-tiny-en')).toMatch(/gives no word confidences/);
  });
});

describe('the review key', () => {
  it('is F8 (Shift+F8 back), which no subtitle-editor command answers', () => {
    expect(isReviewKey({ key: 'F8', ctrlKey: false, metaKey: false, altKey: false })).toBe(true);
    expect(isReviewKey({ key: 'F8', ctrlKey: true, metaKey: false, altKey: false })).toBe(false);
    const f8 = allKeyPresses()
      .map((e) => ({ ...e, key: 'F8' }))
      .filter((e) => !e.ctrlKey && !e.metaKey && !e.altKey);
    for (const e of f8)
      expect(
        keyCommands()
          .filter((k) => k.command.keyTest?.(e))
          .map((k) => k.command.name),
      ).toEqual([]);
  });
});
