import { describe, expect, it } from 'vitest';
import { formatBytes, formatClock, formatEta, percent } from '../../../src/renderer/src/components/format';
import { classify, sortFiles } from '../../../src/renderer/src/lib/collect';
import { blockOf, blocksOf } from '../../../src/renderer/src/features/transcript/paragraphs';
import { findWords, wordAt } from '../../../src/renderer/src/lib/words';
import { parseCueTime, parseShift } from '../../../src/renderer/src/features/subtitles/time';
import type { Transcript, Word } from '../../../src/shared/library';

const w = (text: string, start: number, confidence = 0.9): Word => ({ text, start, end: start + 300, confidence, speaker: null });
const words = [w('Hello', 0), w('world.', 400), w('The', 900), w('world', 1300), w('wonders', 1700)];

describe('drop classification', () => {
  it('accepts audio and video by MIME type or by extension', () => {
    expect(classify('a.wav', 'audio/wav', 10)).toEqual({ ok: true, kind: 'audio' });
    expect(classify('clip.MKV', '', 10)).toEqual({ ok: true, kind: 'video' });
    expect(classify('noext', 'video/mp4', 10)).toEqual({ ok: true, kind: 'video' });
  });
  it('skips non-media, empty, hidden and oversized files with a reason that says what to do', () => {
    const txt = classify('notes.txt', 'text/plain', 10);
    expect(txt.ok).toBe(false);
    expect(!txt.ok && txt.reason).toMatch(/Not audio or video \(a \.txt file\)/);
    expect(classify('empty.wav', 'audio/wav', 0)).toMatchObject({ ok: false, reason: expect.stringMatching(/empty \(0 bytes\).*Pick another file/) });
    expect(classify('folder/.DS_Store', '', 10)).toMatchObject({ ok: false });
    expect(classify('huge.mp4', 'video/mp4', 6e9)).toMatchObject({ ok: false, reason: expect.stringMatching(/5 GB/) });
  });
  it('sorts a batch into files and skipped without stopping at the first bad one', () => {
    const list = [new File(['x'], 'a.txt'), new File([], 'b.wav', { type: 'audio/wav' }), new File(['abc'], 'c.mp3', { type: 'audio/mpeg' })];
    const out = sortFiles(list);
    expect(out.files.map((f) => f.path)).toEqual(['c.mp3']);
    expect(out.skipped.map((s) => s.name)).toEqual(['a.txt', 'b.wav']);
  });
});

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

describe('progress figures', () => {
  it('formats times, sizes, percent and time left', () => {
    expect(formatClock(3_723_000)).toBe('1:02:03');
    expect(formatClock(83_000)).toBe('1:23');
    expect(formatBytes(1_500_000)).toBe('1.5 MB');
    expect(formatEta(null)).toBe('estimating…');
    expect(formatEta(90)).toBe('2 min left');
    expect(percent(50, 200)).toBe(25);
    expect(percent(1, null)).toBeNull();
  });
});

describe('renderer copies of contract values (kept out of the bundle to avoid loading zod)', () => {
  it('match src/shared exactly', async () => {
    const labels = await import('../../../src/renderer/src/components/labels');
    const settings = await import('../../../src/shared/settings');
    const jobs = await import('../../../src/shared/jobs');
    expect(labels.regionLabels).toEqual(settings.regionLabels);
    expect(labels.initialSettings).toEqual({ ...settings.defaultSettings, webhookAuthHeaderSaved: false });
    expect(Object.keys(labels.piiPolicyLabels).sort()).toEqual([...jobs.piiPolicies].sort());
    for (const s of jobs.jobStatusSchema.options) expect(labels.isFinalStatus(s)).toBe((jobs.FINAL_JOB_STATUSES as readonly string[]).includes(s));
  });
});

describe('subtitle times as typed', () => {
  it('reads cue times, and refuses what is not one', () => {
    expect(parseCueTime('1:02.5')).toBe(62_500);
    expect(parseCueTime('62,250')).toBe(62_250);
    expect(parseCueTime('1:00:02.000')).toBe(3_602_000);
    expect(parseCueTime('1:75')).toBeNull();
    expect(parseCueTime('soon')).toBeNull();
  });

  it('reads a shift: a signed time or milliseconds; later is positive; nothing is not a shift', () => {
    expect(parseShift('+2.5')).toBe(2500);
    expect(parseShift('2.5 s')).toBe(2500);
    expect(parseShift('-0:01.250')).toBe(-1250);
    expect(parseShift('− 0.3')).toBe(-300);
    expect(parseShift('250 ms')).toBe(250);
    expect(parseShift('-80ms')).toBe(-80);
    expect(parseShift('0')).toBeNull();
    expect(parseShift('+')).toBeNull();
    expect(parseShift('1:2:3:4')).toBeNull();
    expect(parseShift('ten ms')).toBeNull();
  });
});
