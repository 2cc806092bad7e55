/**
 * Subtitle files through the library (issue 24): import → export gives a
 * clean file back byte for byte, the file's entities and ASS tags stay in the
 * cues while the words and search read the decoded text, and a file read
 * leniently (CR-only WebVTT, no blank line before a timing line) imports as
 * the cues a user expects.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Library } from '../../../../src/main/services/library/library';
import { importSubtitlesAsItem } from '../../../../src/main/services/library/subtitle-import';

const fixtures = join(import.meta.dirname, '../../../fixtures/subtitles');
const read = (f: string) => readFileSync(join(fixtures, f), 'utf8');
let dir: string;
let lib: Library;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'subtitle-quirks-'));
  lib = new Library(dir);
});

afterEach(() => {
  lib.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('import → export', () => {
  it.each([
    ['quirks/encoding.srt', 'srt'],
    ['quirks/entities.srt', 'srt'],
    ['quirks/ass-tags.srt', 'srt'],
    ['settings-notes.vtt', 'vtt'],
  ] as const)('%s comes back byte for byte', (f, format) => {
    const text = read(f);
    const r = importSubtitlesAsItem(lib, f.split('/').pop()!, text);
    expect(r.problems).toEqual([]);
    expect(lib.exports.render(r.id, format).content).toBe(text);
  });

  it('a CR-only WebVTT file keeps its identifiers, settings and note, written back with LF', () => {
    const lf = read('quirks/cr-only.vtt');
    const r = importSubtitlesAsItem(lib, 'old-mac.vtt', lf.replace(/\n/g, '\r'));
    expect(lib.exports.render(r.id, 'vtt').content).toBe(lf);
  });

  it('a timing line with no blank line before it starts its own cue', () => {
    const r = importSubtitlesAsItem(lib, 'tight.srt', read('quirks/no-blank-before-timing.srt'));
    expect(r.cues).toBe(4);
    expect(lib.subtitles.cues(r.id).cues.map((c) => c.text)).toEqual(['First line.', 'Second line,\non two lines.', 'Third line.', 'Fourth line.']);
  });
});

describe('entities and ASS tags', () => {
  it('words and search read the decoded text; the cues keep the file’s', () => {
    const r = importSubtitlesAsItem(lib, 'entities.srt', read('quirks/entities.srt'));
    const t = lib.transcripts.get(r.id);
    expect(t.words.map((w) => w.text)).toEqual(['Tom', '&', 'Jerry', '<3', '>>', 'Next', 'speaker:', 'hello']);
    expect(t.text).not.toMatch(/&amp;|&gt;|&nbsp;/);
    expect(lib.search.search('Jerry').map((h) => h.recordingId)).toEqual([r.id]);
    expect(lib.search.search('amp')).toEqual([]);
    expect(lib.subtitles.cues(r.id).cues[0]!.text).toBe('Tom &amp; Jerry &lt;3');
  });

  it('ASS tags are not words', () => {
    const r = importSubtitlesAsItem(lib, 'ass.srt', read('quirks/ass-tags.srt'));
    expect(lib.transcripts.get(r.id).words.map((w) => w.text)).toEqual(['Top', 'of', 'the', 'screen', 'A', 'slanted', 'word']);
    expect(lib.search.search('an8')).toEqual([]);
  });
});
