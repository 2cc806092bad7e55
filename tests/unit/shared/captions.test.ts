import { describe, expect, it } from 'vitest';
import { buildCues, mergeCues, parseCaptions, shiftCues, splitCue, srtTime, toSrt, toVtt, vttTime } from '../../../src/shared/captions/index';

const words = 'The quick brown fox jumps over the lazy dog. Then it sleeps.'.split(' ').map((text, i) => ({ text, start: 320 + i * 400, end: 320 + i * 400 + 350 }));

describe('captions', () => {
  it('formats SRT and VTT times', () => {
    expect(srtTime(320)).toBe('00:00:00,320');
    expect(srtTime(3_723_004)).toBe('01:02:03,004');
    expect(vttTime(2900)).toBe('00:02.900');
    expect(vttTime(3_723_004)).toBe('01:02:03.004');
  });

  it('builds cues within chars_per_caption and breaks after a sentence end', () => {
    const cues = buildCues(words, { charsPerCaption: 20 });
    for (const c of cues) expect(c.text.length).toBeLessThanOrEqual(20);
    expect(cues.map((c) => c.text).join(' ')).toBe(words.map((w) => w.text).join(' '));
    const wide = buildCues(words, { charsPerCaption: 80 });
    expect(wide[0]!.text.endsWith('dog.')).toBe(true);
    expect(wide).toHaveLength(2);
  });

  it('with a speaker label: never spans two speakers, and names each change of speaker once', () => {
    const said = [
      { text: 'Ready?', start: 0, end: 300, speaker: 'A' },
      { text: 'Yes.', start: 400, end: 600, speaker: 'B' },
      { text: 'Then', start: 700, end: 900, speaker: 'B' },
      { text: 'go.', start: 950, end: 1100, speaker: 'B' },
    ];
    const named = buildCues(said, { charsPerCaption: 8, speakerLabel: (s) => (s === 'A' ? 'Dana' : `Speaker ${s}`) });
    expect(named.map((c) => c.text)).toEqual(['Dana: Ready?', 'Speaker B: Yes.', 'Then go.']);
    // Without a label (the engine's /srt, API.md §5) speakers are not named and do not split cues.
    expect(buildCues(said, { charsPerCaption: 80 }).map((c) => c.text)).toEqual(['Ready? Yes. Then go.']);
  });

  it('breaks at long pauses', () => {
    const cues = buildCues([{ text: 'a', start: 0, end: 100 }, { text: 'b', start: 3000, end: 3100 }]);
    expect(cues).toHaveLength(2);
  });

  it('serializes SRT/VTT and parses them back', () => {
    const cues = buildCues(words, { charsPerCaption: 30 });
    const srt = toSrt(cues);
    expect(srt.startsWith('1\n00:00:00,320 --> ')).toBe(true);
    expect(parseCaptions(srt)).toEqual(cues);
    const vtt = toVtt(cues);
    expect(vtt.startsWith('WEBVTT\n\n00:00.320 --> ')).toBe(true);
    expect(parseCaptions(vtt)).toEqual(cues);
  });

  it('splits, merges and shifts cues', () => {
    const [a, b] = splitCue({ start: 0, end: 1000, text: 'hello world' }, 5);
    expect(a).toEqual({ start: 0, end: 500, text: 'hello' });
    expect(b.text).toBe('world');
    expect(mergeCues(a, b)).toEqual({ start: 0, end: 1000, text: 'hello world' });
    expect(shiftCues([a], -200)[0]).toEqual({ start: 0, end: 300, text: 'hello' });
  });
});
