/**
 * Subtitle files people really have (issue 24), one fixture per quirk in
 * tests/fixtures/subtitles/quirks: other encodings (bytes generated here from
 * a UTF-8 fixture), a timing line with no blank line before it, a WebVTT cue
 * right after the WEBVTT line, HTML entities, CR-only line ends, ASS tags, a
 * text file with no cue, and files that are not text at all.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  cueDisplayText,
  decodeSubtitleBytes,
  docToVtt,
  parseSubtitles,
  readSubtitleFile,
  readingChars,
  sniffNotText,
  toSrt,
  visibleLines,
} from '../../../../src/shared/subtitles/index';

const dir = join(import.meta.dirname, '../../../fixtures/subtitles/quirks');
const read = (f: string) => readFileSync(join(dir, f), 'utf8');
const bytes = (s: string) => new Uint8Array(Buffer.from(s, 'utf8'));

/** Windows-1252 bytes of text (Latin-1 plus the 0x80–0x9F punctuation this fixture uses). */
function cp1252(text: string): Uint8Array {
  const high: Record<string, number> = { '€': 0x80, '…': 0x85, '“': 0x93, '”': 0x94, '—': 0x97 };
  return Uint8Array.from([...text], (ch) => high[ch] ?? (ch.charCodeAt(0) <= 0xff ? ch.charCodeAt(0) : 0x3f));
}

function utf16(text: string, endian: 'le' | 'be'): Uint8Array {
  const le = Buffer.from(`\uFEFF${text}`, 'utf16le');
  if (endian === 'be') for (let i = 0; i < le.length; i += 2) [le[i], le[i + 1]] = [le[i + 1]!, le[i]!];
  return new Uint8Array(le);
}

/** A RIFF/WAVE header and a little silence: what a .wav chosen by mistake starts with. */
function wav(): Uint8Array {
  const data = Buffer.alloc(3200);
  const h = Buffer.alloc(44);
  h.write('RIFF', 0, 'latin1');
  h.writeUInt32LE(36 + data.length, 4);
  h.write('WAVEfmt ', 8, 'latin1');
  h.writeUInt32LE(16, 16);
  h.writeUInt16LE(1, 20);
  h.writeUInt16LE(1, 22);
  h.writeUInt32LE(16000, 24);
  h.writeUInt32LE(32000, 28);
  h.writeUInt16LE(2, 32);
  h.writeUInt16LE(16, 34);
  h.write('data', 36, 'latin1');
  h.writeUInt32LE(data.length, 40);
  return new Uint8Array(Buffer.concat([h, data]));
}

describe('encodings', () => {
  const text = read('encoding.srt');
  const want = ['Café au lait, naïve façade.', '“Quoted” — it costs €5 … ok?'];

  it.each([
    ['UTF-8', bytes(text), 'UTF-8', /^Read as UTF-8 text\.$/],
    ['UTF-8 with a BOM', new Uint8Array([0xef, 0xbb, 0xbf, ...bytes(text)]), 'UTF-8', /byte-order mark/],
    ['UTF-16LE with a BOM', utf16(text, 'le'), 'UTF-16LE', /^Read as UTF-16LE text, as its byte-order mark says\.$/],
    ['UTF-16BE with a BOM', utf16(text, 'be'), 'UTF-16BE', /^Read as UTF-16BE text, as its byte-order mark says\.$/],
    ['Windows-1252 (not valid UTF-8)', cp1252(text), 'Windows-1252', /^Read as Windows-1252 text \(it is not valid UTF-8\)\.$/],
  ] as const)('reads %s with the right text and names the encoding', (_label, b, encoding, summary) => {
    const r = readSubtitleFile('a.srt', b);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.encoding).toBe(encoding);
    expect(r.summary[0]).toMatch(summary);
    expect(r.parsed.doc.cues.map((c) => c.text)).toEqual(want);
    expect(r.parsed.problems).toEqual([]);
  });

  it('keeps Windows-1252 bytes that are valid UTF-8 by chance as UTF-8 (UTF-8 is tried first)', () => {
    expect(decodeSubtitleBytes(bytes('é')).encoding).toBe('UTF-8');
    expect(decodeSubtitleBytes(cp1252('é')).text).toBe('é');
  });
});

describe('a valid timing line starts a new cue wherever it stands', () => {
  it('SRT: the next cue’s number and times do not end up in the previous cue’s text', () => {
    const r = parseSubtitles(read('no-blank-before-timing.srt'));
    expect(r.doc.cues.map((c) => [c.start, c.end, c.text])).toEqual([
      [1000, 2000, 'First line.'],
      [3000, 4000, 'Second line,\non two lines.'],
      [5000, 6000, 'Third line.'],
      [7000, 8000, 'Fourth line.'],
    ]);
    expect(r.problems).toEqual([]);
    expect(r.fixes).toEqual(['2 timing lines with no blank line before them started new cues.']);
    // Written back, it is a clean SRT file.
    expect(parseSubtitles(toSrt(r.doc.cues)).fixes).toEqual([]);
  });

  it('WebVTT: a cue right after the WEBVTT line is a cue, not part of the header', () => {
    const r = parseSubtitles(read('cue-after-header.vtt'));
    expect(r.format).toBe('vtt');
    expect(r.doc.header).toEqual(['WEBVTT']);
    expect(r.doc.cues.map((c) => c.text)).toEqual(['Right after the header.', 'Second cue.']);
    expect(r.fixes).toEqual(['A timing line with no blank line before it started a new cue.']);
  });

  it('WebVTT: a line before the next timing line stays text of the cue above, as browsers read it', () => {
    const r = parseSubtitles('WEBVTT\n\n00:00.000 --> 00:01.000\nOne\nnext\n00:01.000 --> 00:02.000\nTwo\n');
    expect(r.doc.cues.map((c) => [c.text, c.ident])).toEqual([
      ['One\nnext', undefined],
      ['Two', undefined],
    ]);
  });

  it('leaves text that merely contains an arrow alone', () => {
    const r = parseSubtitles('1\n00:00:01,000 --> 00:00:02,000\nGo left --> then right\n');
    expect(r.doc.cues.map((c) => c.text)).toEqual(['Go left --> then right']);
    expect(r.fixes).toEqual([]);
  });
});

describe('HTML entities', () => {
  const text = read('entities.srt');
  const r = parseSubtitles(text);

  it('keeps the file’s text in the cue, so an export writes it back unchanged', () => {
    expect(r.doc.cues.map((c) => c.text)).toEqual(['Tom &amp; Jerry &lt;3', '&gt;&gt; Next speaker:&nbsp;hello']);
    expect(toSrt(r.doc.cues)).toBe(text);
  });

  it('decodes them for display and counts them as the characters they are', () => {
    expect(r.doc.cues.map((c) => cueDisplayText(c.text))).toEqual(['Tom & Jerry <3', '>> Next speaker:\u00a0hello']);
    expect(readingChars('Tom &amp; Jerry')).toBe('Tom & Jerry'.length);
    // HTML's rules, as the WebVTT tokenizer uses them: an unknown name stays, the legacy &amp without ";" decodes.
    expect(cueDisplayText('&#233;t&#xE9; &bogus; &amp')).toBe('été &bogus; &');
  });

  it('says so in the summary', () => {
    expect(r.fixes).toEqual(['HTML entities such as &amp; are shown as the characters they stand for; the file’s text is kept.']);
  });
});

describe('CR-only line ends (old Mac)', () => {
  const lf = read('cr-only.vtt');
  const cr = lf.replace(/\n/g, '\r');

  it('a WebVTT file stays WebVTT, with its header, note, identifiers and settings', () => {
    const r = parseSubtitles(cr);
    expect(r.format).toBe('vtt');
    expect(r.doc.header).toEqual(['WEBVTT - made on an old Mac', 'NOTE\nLine ends are CR only in the test (this file is written with LF).']);
    expect(r.doc.cues).toEqual([
      { start: 0, end: 1000, text: 'Opening words.', ident: 'intro', settings: 'line:90% align:start' },
      { start: 1500, end: 3000, text: 'Closing words.', ident: 'outro', settings: 'position:10%' },
    ]);
    expect(r.fixes).toEqual(['Its old Mac line ends (CR only) were read as line breaks.']);
    // Written back with LF line ends, nothing else changes.
    expect(docToVtt(r.doc)).toBe(lf);
  });

  it('reads a CR-only SRT file too', () => {
    const r = parseSubtitles(read('entities.srt').replace(/\n/g, '\r'));
    expect(r.format).toBe('srt');
    expect(r.doc.cues).toHaveLength(2);
  });
});

describe('ASS tags', () => {
  const text = read('ass-tags.srt');
  const r = parseSubtitles(text);

  it('keeps them in the file and hides them when shown', () => {
    expect(r.doc.cues.map((c) => c.text)).toEqual(['{\\an8}Top of the screen', 'A {\\i1}slanted{\\i0} word']);
    expect(toSrt(r.doc.cues)).toBe(text);
    expect(r.doc.cues.map((c) => cueDisplayText(c.text))).toEqual(['Top of the screen', 'A slanted word']);
    expect(visibleLines('{\\an8}Top')).toEqual(['Top']);
    expect(r.fixes).toEqual(['ASS tags such as {\\an8} are hidden when shown and kept in the file.']);
  });
});

describe('files that are not subtitles', () => {
  it('refuses a WAV in one sentence naming what it is, as audio that can be transcribed', () => {
    const r = readSubtitleFile('a.wav', wav());
    expect(r).toEqual({ ok: false, kind: 'audio', media: true, message: 'a.wav is audio, not subtitles.' });
  });

  it('tells video, images, PDFs and archives by their first bytes', () => {
    const mp4 = Buffer.concat([Buffer.from([0, 0, 0, 0x20]), Buffer.from('ftypisom'), Buffer.alloc(64)]);
    const mkv = Buffer.concat([Buffer.from([0x1a, 0x45, 0xdf, 0xa3]), Buffer.alloc(64)]);
    const png = Buffer.concat([Buffer.from([0x89]), Buffer.from('PNG\r\n\x1a\n'), Buffer.alloc(64)]);
    expect(sniffNotText('talk.mp4', mp4)).toBe('video');
    expect(sniffNotText('talk.mkv', mkv)).toBe('video');
    expect(sniffNotText('x.png', png)).toBe('an image');
    expect(sniffNotText('x.pdf', Buffer.from('%PDF-1.7\n'))).toBe('a PDF document');
    expect(sniffNotText('x.zip', Buffer.from('PK\x03\x04\x14\x00', 'latin1'))).toBe('an archive');
    expect(readSubtitleFile('talk.mp4', mp4)).toMatchObject({ ok: false, media: true, message: 'talk.mp4 is video, not subtitles.' });
    expect(readSubtitleFile('x.pdf', Buffer.from('%PDF-1.7\n'))).toMatchObject({ ok: false, media: false, message: 'x.pdf is a PDF document, not subtitles.' });
  });

  it('calls other binary data a binary file, and UTF-16 text (with its NULs) text', () => {
    expect(
      sniffNotText(
        'blob.srt',
        Uint8Array.from({ length: 256 }, (_, i) => i),
      ),
    ).toBe('a binary file');
    expect(sniffNotText('a.srt', utf16('1\n00:00:01,000 --> 00:00:02,000\nHi\n', 'le'))).toBeNull();
  });

  it('says in one sentence that a text file has no cue', () => {
    const r = readSubtitleFile('notes.txt', bytes(read('no-cues.txt')));
    expect(r).toEqual({
      ok: false,
      kind: 'no-cues',
      media: false,
      message: 'notes.txt has no subtitle cues in it: no line like “00:00:01,000 --> 00:00:02,500” was found.',
    });
  });

  it('keeps listing bad cues, by line, for a real subtitle file that has some', () => {
    const good = (i: number) => `${i}\n00:00:${String(i).padStart(2, '0')},000 --> 00:00:${String(i).padStart(2, '0')},500\nCue ${i}.\n`;
    const bad = (i: number) => `${i}\n00:00:${String(i).padStart(2, '0')},000 --> soon\nBroken ${i}.\n`;
    const file = Array.from({ length: 30 }, (_, i) => (i % 2 ? bad(i + 1) : good(i + 1))).join('\n');
    const r = readSubtitleFile('mixed.srt', bytes(file));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.parsed.doc.cues).toHaveLength(15);
    expect(r.parsed.problems).toHaveLength(15);
    expect(r.parsed.problems[0]!.message).toMatch(/^Line 6: .*not a valid time range/);
  });
});

describe('clean files', () => {
  it.each(['encoding.srt', 'entities.srt', 'ass-tags.srt'])('%s: nothing to fix but the entities or tags it has, and export gives the file back', (f) => {
    const text = read(f);
    const r = parseSubtitles(text);
    expect(r.problems).toEqual([]);
    expect(toSrt(r.doc.cues)).toBe(text);
  });
});
