// The WHATWG WebVTT parser's rules where a browser reads a file differently from a lenient reading: identifiers, broken timings, "-->" in cue text, NUL, byte-order marks, character references.
import { describe, expect, it } from 'vitest';
import { cueDisplayText, docToVtt, parseSubtitles, readSubtitleFile } from '../../../../src/shared/subtitles/index';

const utf8 = (s: string) => new Uint8Array(Buffer.from(s, 'utf8'));
const BOM = [0xef, 0xbb, 0xbf];

describe('WebVTT cue identifiers', () => {
  it('keep their spaces, inside and around, and are written back as they were', () => {
    const text = 'WEBVTT\n\n  Scene 1 \u00b7 intro  \n00:01.000 --> 00:02.000\nHello.\n\n';
    const r = parseSubtitles(text);
    expect(r.doc.cues.map((c) => c.ident)).toEqual(['  Scene 1 \u00b7 intro  ']);
    expect(docToVtt(r.doc)).toBe(text);
  });
});

describe('WebVTT cues with negative or garbage timings', () => {
  it('are left out with their text, as players leave them out, and reported by line', () => {
    const r = parseSubtitles(
      [
        'WEBVTT',
        '',
        '-00:00:01.000 --> 00:00:02.000',
        'Negative start.',
        '',
        '00:00:03.000 --> banana',
        'Garbage end.',
        '',
        '00:00:05.000 --> 00:00:06.000',
        'Kept.',
        '',
      ].join('\n'),
    );
    expect(r.doc.cues.map((c) => c.text)).toEqual(['Kept.']);
    expect(r.problems.map((p) => p.line)).toEqual([3, 6]);
  });

  it('take their lines with them when they stand inside the cue above, with no blank line before them', () => {
    const r = parseSubtitles('WEBVTT\n\n00:01.000 --> 00:02.000\nFirst.\n-00:03.000 --> 00:04.000\nNot shown.\n\n00:05.000 --> 00:06.000\nSecond.\n');
    expect(r.doc.cues.map((c) => [c.start, c.text])).toEqual([
      [1000, 'First.'],
      [5000, 'Second.'],
    ]);
    expect(r.problems).toEqual([{ line: 5, message: expect.stringMatching(/^Line 5: .*-->/) }]);
  });
});

describe('a line holding "-->" inside a WebVTT cue', () => {
  it('ends the cue there: the cue keeps the lines above it, and the line and those under it up to a blank line are not text', () => {
    const r = parseSubtitles('WEBVTT\n\n00:01.000 --> 00:02.000\nHe said\nthis --> that\nand left.\n\n00:03.000 --> 00:04.000\nNext.\n');
    expect(r.doc.cues.map((c) => c.text)).toEqual(['He said', 'Next.']);
    expect(r.problems).toHaveLength(1);
    expect(r.problems[0]!.message).toMatch(/^Line 5: “this --> that” holds “-->”/);
  });

  it('starts a new cue when it is a good timing line, even as the second line after a timing line', () => {
    const r = parseSubtitles('WEBVTT\n\nid\n00:01.000 --> 00:02.000\n00:02.000 --> 00:03.000\nTwo.\n');
    expect(r.doc.cues.map((c) => [c.ident, c.start, c.text])).toEqual([
      ['id', 1000, ''],
      [undefined, 2000, 'Two.'],
    ]);
  });

  it('after two lines of text, lets the timing line begin its own cue (the lines above are reported)', () => {
    const r = parseSubtitles('WEBVTT\n\nstray one\nstray two\n00:01.000 --> 00:02.000\nCue.\n');
    expect(r.doc.cues.map((c) => c.text)).toEqual(['Cue.']);
    expect(r.problems.map((p) => p.line)).toEqual([3]);
  });

  it('is text in SRT, which has no such rule', () => {
    const r = parseSubtitles('1\n00:00:01,000 --> 00:00:02,000\nthis --> that\n');
    expect(r.doc.cues.map((c) => c.text)).toEqual(['this --> that']);
  });
});

describe('NUL characters', () => {
  it('become U+FFFD, as the parser replaces them, and the summary says so', () => {
    const r = parseSubtitles('WEBVTT\n\nid\u0000\n00:01.000 --> 00:02.000\na\u0000b\n');
    expect(r.doc.cues[0]).toMatchObject({ ident: 'id\ufffd', text: 'a\ufffdb' });
    expect(r.fixes.join(' ')).toMatch(/NUL/);
    expect(JSON.stringify(r.doc)).not.toContain('\\u0000');
  });
});

describe('byte-order marks', () => {
  it('one is dropped, from a file read from bytes and from the text main parses again', () => {
    const check = readSubtitleFile('a.vtt', new Uint8Array([...BOM, ...utf8('WEBVTT\n\n00:01.000 --> 00:02.000\nOne.\n')]));
    expect(check.ok).toBe(true);
    if (!check.ok) return;
    expect(check.parsed.format).toBe('vtt');
    expect(check.parsed.problems).toEqual([]);
    // Main parses the text the renderer read: still one mark, still WebVTT.
    expect(parseSubtitles(check.text).format).toBe('vtt');
  });

  it('two: only one is dropped, so the file is not WebVTT (players show none of it); it says so and keeps the cues', () => {
    const bytes = new Uint8Array([...BOM, ...BOM, ...utf8('WEBVTT\n\n00:01.000 --> 00:02.000\nOne.\n')]);
    const check = readSubtitleFile('a.vtt', bytes);
    expect(check.ok).toBe(true);
    if (!check.ok) return;
    expect(check.parsed.format).toBe('srt');
    expect(check.parsed.problems).toEqual([{ line: 1, message: expect.stringMatching(/two byte-order marks/) }]);
    expect(check.parsed.doc.cues.map((c) => c.text)).toEqual(['One.']);
    // The same when main parses the text again: the second mark is not lost on the way.
    expect(parseSubtitles(check.text).problems[0]!.message).toMatch(/two byte-order marks/);
  });

  it('two in UTF-16: the same', () => {
    const le = new Uint8Array(Buffer.from('\ufeff\ufeffWEBVTT\n\n00:01.000 --> 00:02.000\nOne.\n', 'utf16le'));
    const check = readSubtitleFile('a.vtt', le);
    expect(check.ok && check.encoding).toBe('UTF-16LE');
    expect(check.ok && check.parsed.format).toBe('srt');
  });
});

describe('cue text character references', () => {
  it('decode every HTML named reference, not a short list', () => {
    expect(cueDisplayText('&hellip; &eacute;t&eacute; &mdash; &copy; &euro;5 &rarr; &frac12; &NotEqualTilde; &Aring;')).toBe(
      '\u2026 \u00e9t\u00e9 \u2014 \u00a9 \u20ac5 \u2192 \u00bd \u2242\u0338 \u00c5',
    );
  });

  it('decode as HTML does: numeric references with the Windows-1252 table, unknown names kept', () => {
    expect(cueDisplayText('&#128; &#x2014; &#0; &nosuchname; AT&T')).toBe('\u20ac \u2014 \ufffd &nosuchname; AT&T');
  });

  it('count in the summary when only a name outside the old list is used', () => {
    expect(parseSubtitles('WEBVTT\n\n00:01.000 --> 00:02.000\nCaf&eacute;\n').fixes.join(' ')).toMatch(/HTML entities/);
  });
});
