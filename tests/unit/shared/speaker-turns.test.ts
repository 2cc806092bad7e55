import { describe, expect, it } from 'vitest';
import { labelByWords, speakerAt } from '../../../src/shared/speaker-turns';

const w = (start: number, end: number, speaker: string | null = null) => ({ text: 'x', start, end, confidence: 1, speaker });

describe('speaker turns shared by the engine and the app', () => {
  it('labels an improved live transcript with the You / Others of its live words, by midpoint', () => {
    const live = [w(0, 400, 'You'), w(500, 900, 'You'), w(2000, 2400, 'Others'), w(2500, 2900, 'Others'), w(4000, 4400, 'You')];
    // The improved version splits and times words differently; each takes the label at its midpoint, or the nearest.
    const improved = [w(50, 300), w(350, 950), w(1300, 1500), w(2100, 2600), w(3500, 3700), w(4100, 4300)];
    expect(labelByWords(improved, live).map((x) => x.speaker)).toEqual(['You', 'You', 'You', 'Others', 'You', 'You']);
  });

  it('leaves words as they are when the live words carry no labels (one source)', () => {
    const improved = [w(0, 100, 'A'), w(200, 300, 'B')];
    expect(labelByWords(improved, [w(0, 100), w(200, 300)])).toEqual(improved);
  });

  it('is the same rule with labels as with cluster numbers', () => {
    expect(
      speakerAt({ start: 100, end: 200 }, [
        { start: 0, end: 1000, speaker: 'Others' },
        { start: 0, end: 1000, speaker: 'You' },
      ]),
    ).toBe('Others');
    expect(speakerAt({ start: 100, end: 200 }, [])).toBeNull();
  });
});
