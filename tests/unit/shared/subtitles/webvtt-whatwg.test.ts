// The import reads a WebVTT file's cue blocks as the WHATWG parser does
// (https://w3c.github.io/webvtt/#webvtt-parser-algorithm, "collect a WebVTT block"),
// whatever its line ends: checked against a small transcription of that algorithm
// over generated files, and on the cases of web-platform-tests'
// webvtt/parsing/file-parsing (arrows.vtt).
import { describe, expect, it } from 'vitest';
import { parseSubtitles } from '../../../../src/shared/subtitles/index';
import { CUE_LIMITS, cutLongLines } from '../../../../src/shared/subtitles/limits';

interface RefCue {
  ident: string;
  start: number;
  end: number;
  text: string;
}

/** WebVTT timestamp, strictly: (hh+:)mm:ss.ttt with minutes and seconds under 60. */
function timestamp(s: string): number | null {
  const m = /^(?:(\d{2,}):)?(\d{2}):(\d{2})\.(\d{3})$/.exec(s);
  if (!m) return null;
  const [, h, mi, se, ms] = m;
  if (Number(mi) > 59 || Number(se) > 59) return null;
  return Number(h ?? 0) * 3_600_000 + Number(mi) * 60_000 + Number(se) * 1000 + Number(ms);
}

function timings(line: string): { start: number; end: number } | null {
  const m = /^[ \t]*(\S+)[ \t]+-->[ \t]+(\S+)(?:[ \t].*)?$/.exec(line);
  if (!m) return null;
  const start = timestamp(m[1]!);
  const end = timestamp(m[2]!);
  return start === null || end === null ? null : { start, end };
}

/** The WHATWG parser's cues (identifier, times, text), transcribed step by step for the block structure. */
function whatwgCues(input: string): RefCue[] {
  const text = input.replace(/\0/g, '\uFFFD').replace(/\r\n/g, '\n').replace(/\r/g, '\n');
  let pos = 0;
  const line = (): string => {
    const nl = text.indexOf('\n', pos);
    const l = nl < 0 ? text.slice(pos) : text.slice(pos, nl);
    pos = nl < 0 ? text.length + 1 : nl + 1;
    return l;
  };
  const eof = () => pos >= text.length;
  const skipLfs = () => {
    while (pos < text.length && text[pos] === '\n') pos++;
  };
  const block = (inHeader: boolean): RefCue | null => {
    let count = 0;
    let prev = pos;
    let buffer = '';
    let seenArrow = false;
    let cue: RefCue | null = null;
    for (;;) {
      const l = line();
      count++;
      const seenEof = pos > text.length;
      if (l.includes('-->')) {
        if (!inHeader && (count === 1 || (count === 2 && !seenArrow))) {
          seenArrow = true;
          prev = pos;
          const t = timings(l);
          cue = t ? { ident: buffer, start: t.start, end: t.end, text: '' } : null;
          buffer = '';
        } else {
          pos = prev;
          break;
        }
      } else if (l === '') break;
      else {
        if (buffer !== '') buffer += '\n';
        buffer += l;
        prev = pos;
      }
      if (seenEof) break;
    }
    if (cue) cue.text = buffer;
    return cue;
  };
  line(); // the signature line
  if (!eof() && text[pos] !== '\n') block(true);
  skipLfs();
  const cues: RefCue[] = [];
  while (!eof()) {
    const c = block(false);
    if (c) cues.push(c);
    skipLfs();
  }
  return cues;
}

function ours(input: string): RefCue[] {
  return parseSubtitles(cutLongLines(input).content).doc.cues.map((c) => ({ ident: c.ident ?? '', start: c.start, end: c.end, text: c.text }));
}

/** A small deterministic generator, so a failure names its seed. */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

function file(seed: number): string {
  const r = rng(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
  const ends = pick([['\n'], ['\r'], ['\r\n'], ['\n', '\r', '\r\n']]);
  const lines = ['WEBVTT'];
  const n = 4 + Math.floor(r() * 30);
  for (let i = 0; i < n; i++) {
    const t = Math.floor(r() * 50) * 1000;
    lines.push(
      pick([
        `00:${String(Math.floor(t / 60000)).padStart(2, '0')}:${String((t / 1000) % 60).padStart(2, '0')}.000 --> 00:59:00.000`,
        `00:${String((t / 1000) % 60).padStart(2, '0')}.500 --> 00:59.000 align:start`,
        'Some words',
        'more text here',
        `id-${i}`,
        '',
        '',
        'this --> that',
        '-->',
      ]),
    );
  }
  return lines.map((l, i) => l + (i < lines.length - 1 ? pick(ends) : '')).join('');
}

describe('WebVTT blocks, as the WHATWG parser collects them', () => {
  it('agree with it on 2,000 generated files with LF, CR and CRLF line ends, timing lines right after text among them', () => {
    for (let seed = 1; seed <= 2000; seed++) {
      const input = file(seed);
      expect({ seed, cues: ours(input) }).toEqual({ seed, cues: whatwgCues(input) });
    }
  });

  it('reads the six cues of web-platform-tests arrows.vtt', () => {
    const arrows =
      'WEBVTT\n\n-->\n00:00:00.000 --> 00:00:01.000\ntext1\nfoo-->\n00:00:00.000 --> 00:00:01.000\ntext2\n-->foo\n00:00:00.000 --> 00:00:01.000\ntext3\n--->\n00:00:00.000 --> 00:00:01.000\ntext4\n-->-->\n00:00:00.000 --> 00:00:01.000\ntext5\n00:00:00.000 --> 00:00:01.000\ntext6\n\n00:00:00.000 -a -->\n\n00:00:00.000 --a -->\n\n00:00:00.000 - -->\n\n00:00:00.000 -- -->\n';
    expect(ours(arrows).map((c) => c.text)).toEqual(['text1', 'text2', 'text3', 'text4', 'text5', 'text6']);
    expect(whatwgCues(arrows)).toHaveLength(6);
  });

  it('reads identifiers and text whatever ends their lines: CR, LF and CRLF mixed in one file', () => {
    const t = '00:00:00.000 --> 00:00:01.000';
    const input = `WEBVTT\n\ncr\r${t}\rtext1\r\rlf\n${t}\ntext2\n\ncrlf\r\n${t}\r\ntext3\r\n\r\nlfcr\n${t}\ntext4\n`;
    expect(ours(input).map((c) => [c.ident, c.text])).toEqual([
      ['cr', 'text1'],
      ['lf', 'text2'],
      ['crlf', 'text3'],
      ['lfcr', 'text4'],
    ]);
  });

  it('reads every cue of a long file whose lines end in CR alone (the line limit counts CR as a line end)', () => {
    const cues = Array.from(
      { length: 2000 },
      (_, i) => `00:${String(Math.floor(i / 60) % 60).padStart(2, '0')}:${String(i % 60).padStart(2, '0')}.000 --> 00:59:59.000\rCue ${i}`,
    );
    const input = `WEBVTT\r\r${cues.join('\r\r')}\r`;
    expect(input.length).toBeGreaterThan(CUE_LIMITS.lineChars);
    expect(cutLongLines(input).cut).toEqual([]);
    const got = ours(input);
    expect(got).toHaveLength(2000);
    expect(got[1999]!.text).toBe('Cue 1999');
  });

  it('still cuts one over-long line, whatever ends it, and names its line', () => {
    const long = 'x'.repeat(CUE_LIMITS.lineChars + 10);
    const r = cutLongLines(`WEBVTT\r\r00:01.000 --> 00:02.000\r${long}\rend`);
    expect(r.cut).toEqual([{ line: 4, chars: CUE_LIMITS.lineChars + 10 }]);
    expect(r.content).toBe(`WEBVTT\r\r00:01.000 --> 00:02.000\r${long.slice(0, CUE_LIMITS.lineChars)}\rend`);
  });
});
