import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Library } from '../../../src/main/services/library/library';
import { transcriptSchema } from '../../../src/shared/library';
import { packTranscript, unpackTranscript } from '../../../src/shared/transcript-columns';
import { transcriptWireSchema } from '../../../src/shared/transcript-wire';
import { makeWords } from '../../e2e/seed';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A completed transcript in a real library, with speakers, a correction and a named speaker. */
function stored(words = makeWords(500, ['A', 'B'])) {
  const dir = mkdtempSync(join(tmpdir(), 'verbatim-wire-'));
  dirs.push(dir);
  const lib = new Library(dir);
  const { recordingId, transcriptId } = lib.recordings.add({
    title: 'wire',
    source: 'a.mp3',
    sourceKind: 'file',
    sizeBytes: 1,
    region: 'local',
    baseUrl: null,
    options: {},
  });
  lib.transcripts.complete(transcriptId, {
    remoteId: 'r',
    text: words.map((w) => w.text).join(' '),
    words,
    sentences: null,
    paragraphs: null,
    confidence: 0.9,
    language: 'en_us',
    model: 'pocketsphinx',
    durationMs: (words.at(-1)?.end ?? 0) + 100,
  });
  lib.edits.correctWords(recordingId, [{ index: 3, text: 'corrected' }]);
  return { lib, recordingId, t: lib.edits.renameSpeaker(recordingId, 'A', 'Dana') };
}

describe('a transcript on the bridge (words and spans as columns)', () => {
  it('round-trips a stored transcript exactly: words, corrections, sentences and paragraphs with their text', () => {
    const { t } = stored();
    expect(t.words[3]).toMatchObject({ text: 'corrected', original: expect.any(String) });
    const wire = transcriptWireSchema.parse(JSON.parse(JSON.stringify(packTranscript(t))));
    const back = unpackTranscript(wire);
    expect(transcriptSchema.parse(back)).toEqual(back);
    expect(back).toEqual(t);
  });

  it('is what the library reads from its stored columns (library.get), the same as packing the transcript read whole', () => {
    const { lib, recordingId, t } = stored(makeWords(2_000, ['A', 'B', 'C']));
    expect(lib.transcripts.wire(recordingId)).toEqual(packTranscript(t));
    expect(unpackTranscript(lib.transcripts.wire(recordingId, t.transcriptId))).toEqual(t);
    const { lib: plain, recordingId: id2 } = stored(makeWords(300));
    expect(plain.transcripts.wire(id2).words.speaker.every((s) => s === null)).toBe(true);
  });

  it('is under half the bytes of the word objects', () => {
    const { t } = stored(makeWords(5_000, ['A', 'B', 'C']));
    expect(JSON.stringify(packTranscript(t)).length).toBeLessThan(JSON.stringify(t).length / 2);
  });

  it('refuses columns that disagree: lengths, spans outside the words, non-numbers', () => {
    const wire = packTranscript(stored().t);
    const bad = [
      { ...wire, words: { ...wire.words, start: wire.words.start.slice(1) } },
      { ...wire, words: { ...wire.words, original: [[wire.words.text.length, 'x']] } },
      { ...wire, words: { ...wire.words, confidence: wire.words.confidence.map((c, i) => (i === 7 ? 'high' : c)) } },
      { ...wire, words: { ...wire.words, end: wire.words.end.map((e, i) => (i === 2 ? 1.5 : e)) } },
      { ...wire, sentences: { ...wire.sentences, lastWord: wire.sentences.lastWord.map((l, i) => (i === 0 ? wire.words.text.length : l)) } },
      { ...wire, paragraphs: { ...wire.paragraphs, speaker: [] } },
    ];
    for (const b of bad) expect(transcriptWireSchema.safeParse(b).success).toBe(false);
  });
});
