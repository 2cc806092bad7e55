// Review of doubtful words: accepted words are kept by transcript version and word index (migration 18),
// so the count of words left survives a reload; a correction (same word count) leaves them in place.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Library } from '../../../../src/main/services/library/library';
import { migrations } from '../../../../src/main/services/library/migrations';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'verbatim-review-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function addCompleted(lib: Library, text: string): { recordingId: string; transcriptId: string } {
  const ids = lib.recordings.add({ title: 't', source: 't.wav', sourceKind: 'file', sizeBytes: 1, region: 'us', baseUrl: null, options: {} });
  const words = text.split(' ').map((t, i) => ({ text: t, start: i * 400, end: i * 400 + 300, confidence: i % 2 ? 0.4 : 0.95, speaker: null }));
  lib.transcripts.complete(ids.transcriptId, {
    remoteId: 'r',
    text,
    words,
    sentences: null,
    paragraphs: null,
    confidence: 0.7,
    language: 'en_us',
    model: 'universal-2',
    durationMs: 3000,
  });
  return ids;
}

describe('review: accepted words', () => {
  it('lists migration 18 in version order', () => {
    const versions = migrations.map((m) => m.version);
    expect(versions).toContain(18);
    expect([...versions].sort((a, b) => a - b)).toEqual(versions);
  });

  it('keeps accepted words across a reopen, undoes one, and survives a correction', () => {
    let lib = new Library(dir);
    const { recordingId, transcriptId } = addCompleted(lib, 'we met phebe at noon');
    expect(lib.review.accepted(recordingId, transcriptId)).toEqual([]);
    expect(lib.review.accept(recordingId, transcriptId, [3, 1, 3], true)).toEqual([1, 3]);
    lib.close();
    lib = new Library(dir);
    expect(lib.review.accepted(recordingId, transcriptId)).toEqual([1, 3]);
    lib.edits.correctWords(recordingId, [{ index: 2, text: 'Phoebe' }]);
    expect(lib.review.accepted(recordingId, transcriptId)).toEqual([1, 3]);
    expect(lib.review.accept(recordingId, transcriptId, [1], false)).toEqual([3]);
    lib.close();
  });

  it('refuses a word past the end and a transcript of another recording', () => {
    const lib = new Library(dir);
    const a = addCompleted(lib, 'one two');
    const b = addCompleted(lib, 'three four');
    expect(() => lib.review.accept(a.recordingId, a.transcriptId, [2], true)).toThrow(/no word number 2/);
    expect(() => lib.review.accepted(a.recordingId, b.transcriptId)).toThrow(/no longer in the library/);
    expect(lib.review.accepted(a.recordingId, a.transcriptId)).toEqual([]);
    lib.close();
  });
});
