// features/models: the words the Models screen uses for a model's speed.
import { describe, expect, it } from 'vitest';
import { rtfText } from '../../../../src/renderer/src/features/models/modelText';

describe('a speed in words', () => {
  it('says how many times faster than real time a fast model is, never "0.11× real time"', () => {
    expect(rtfText(0.11)).toBe('9× faster than real time');
    expect(rtfText(0.5)).toBe('2× faster than real time');
    expect(rtfText(0.04)).toBe('25× faster than real time');
    expect(rtfText(0.3)).toBe('3× faster than real time');
    expect(rtfText(0.7)).toBe('1.4× faster than real time');
  });

  it('says a slow model is slower, and one near 1 is about real time', () => {
    expect(rtfText(2.5)).toBe('2.5× slower than real time');
    expect(rtfText(1)).toBe('about as fast as real time');
  });
});
