import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseSync } from 'subtitle';
import subsrt from 'subsrt-ts';
import { describe, expect, it } from 'vitest';
import { docToVtt, parseSubtitles, parseTime, srtTime, toSrt, vttTime } from '../../../../src/shared/subtitles/index';

const dir = join(import.meta.dirname, '../../../fixtures/subtitles');
const files = readdirSync(dir).filter((f) => /\.(srt|vtt)$/.test(f));
const read = (f: string) => readFileSync(join(dir, f), 'utf8');
const triples = (cues: { start: number; end: number; text: string }[]) => cues.map((c) => [c.start, c.end, c.text.replace(/\r/g, '')]);

/**
 * Where an established parser reads a corpus file differently, and why ours is
 * right; everywhere else all three must agree cue for cue.
 */
const knownDifferences: Record<string, { subtitle?: string; subsrt?: string }> = {
  'bom-crlf.srt': { subsrt: 'subsrt-ts drops the first cue of a file that starts with a byte order mark' },
  'crlf-no-blank.vtt': { subsrt: 'subsrt-ts keeps the final line end inside the last cue’s text when the file has no closing blank line' },
  'loose.srt': {
    subtitle: '"01,5" is read as 1.005 s by both libraries; a decimal fraction is 1.5 s (what the file means)',
    subsrt: 'same, and subsrt-ts also drops a cue after extra blank lines',
  },
  'malformed.srt': {
    subtitle: 'subtitle glues a cue with a broken time into the previous cue’s text and keeps a cue that ends before it starts; we report both by line',
    subsrt: 'subsrt-ts keeps a cue that ends before it starts; we report it by line',
  },
  'settings-notes.vtt': { subtitle: 'subtitle throws on a STYLE block' },
};

describe('SRT/VTT parsing on a corpus of tricky files', () => {
  it('has a corpus to check', () => {
    expect(files.length).toBeGreaterThanOrEqual(7);
  });

  for (const f of files) {
    describe(f, () => {
      const text = read(f);
      const ours = parseSubtitles(text);

      it('reads the same cues as the subtitle package', () => {
        if (knownDifferences[f]?.subtitle) return expect(knownDifferences[f].subtitle).toBeTruthy();
        const theirs = parseSync(text).flatMap((n) => (n.type === 'cue' ? [n.data] : []));
        expect(triples(ours.doc.cues)).toEqual(triples(theirs));
      });

      it('reads the same cues as subsrt-ts', () => {
        if (knownDifferences[f]?.subsrt) return expect(knownDifferences[f].subsrt).toBeTruthy();
        const theirs = subsrt
          .parse(text, { format: f.endsWith('.vtt') ? 'vtt' : 'srt' })
          .flatMap((c) => (c.type === 'caption' ? [{ start: c.start, end: c.end, text: c.content }] : []));
        expect(triples(ours.doc.cues)).toEqual(triples(theirs));
      });

      it('survives parse → serialize → parse unchanged, in its own format and in the other', () => {
        const again = ours.format === 'vtt' ? docToVtt(ours.doc) : toSrt(ours.doc.cues);
        expect(parseSubtitles(again).doc).toEqual(ours.doc);
        expect(parseSubtitles(again).problems).toEqual([]);
        // Across formats the timing and text survive (SRT has no identifiers, settings or notes).
        const other = ours.format === 'vtt' ? toSrt(ours.doc.cues) : docToVtt({ cues: ours.doc.cues, header: [] });
        expect(triples(parseSubtitles(other).doc.cues)).toEqual(triples(ours.doc.cues.map((c) => ({ ...c, text: c.text.replace(/<v[^>]*>/g, '') }))));
      });
    });
  }

  it('reports a malformed cue with its line number and keeps the others', () => {
    const r = parseSubtitles(read('malformed.srt'));
    expect(r.doc.cues.map((c) => c.text)).toEqual(['Fine.', 'Fine again.']);
    expect(r.problems.map((p) => p.line)).toEqual([6, 10]);
    expect(r.problems[0]!.message).toMatch(/^Line 6: .*not a valid time range/);
    expect(r.problems[1]!.message).toMatch(/^Line 10: the cue ends .* before it starts/);
  });

  it('reports text with no timing line instead of dropping it', () => {
    const r = parseSubtitles('1\n00:00:01,000 --> 00:00:02,000\nOne.\n\nStray text after a blank line\n\n2\n00:00:03,000 --> 00:00:04,000\nTwo.\n');
    expect(r.doc.cues).toHaveLength(2);
    expect(r.problems).toEqual([{ line: 5, message: expect.stringMatching(/^Line 5: .*no timing line/) }]);
  });

  it('keeps the WebVTT header, STYLE and NOTE blocks, identifiers and cue settings byte for byte', () => {
    const text = read('settings-notes.vtt');
    const r = parseSubtitles(text);
    expect(r.doc.header).toHaveLength(3);
    expect(r.doc.header[1]).toMatch(/^STYLE\n/);
    expect(r.doc.cues[0]).toMatchObject({ ident: 'intro', settings: 'line:90% align:start' });
    expect(r.doc.cues[2]!.notes).toEqual(['NOTE\nA note between cues,\non two lines.']);
    expect(docToVtt(r.doc)).toBe(text);
  });

  it('reads SRT with a BOM and CRLF, and writes canonical SRT', () => {
    const r = parseSubtitles(read('bom-crlf.srt'));
    expect(r.format).toBe('srt');
    expect(toSrt(r.doc.cues)).toBe(
      read('bom-crlf.srt')
        .replace(/^\uFEFF/, '')
        .replace(/\r\n/g, '\n'),
    );
  });

  it('reads times with and without hours, comma or dot milliseconds', () => {
    expect(parseTime('00:00:01,000')).toBe(1000);
    expect(parseTime('01:02:03.004')).toBe(3_723_004);
    expect(parseTime('02:03.004')).toBe(123_004);
    expect(parseTime('00:61:00,000')).toBeNull();
    expect(parseTime('banana')).toBeNull();
    expect(srtTime(3_723_004)).toBe('01:02:03,004');
    expect(vttTime(2900)).toBe('00:02.900');
    expect(vttTime(3_723_004)).toBe('01:02:03.004');
  });
});
