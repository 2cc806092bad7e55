import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Library } from '../../../src/main/services/library/library';
import { transcriptSchema } from '../../../src/shared/library';
import { packTranscript, unpackTranscript } from '../../../src/shared/transcript-columns';
import { transcriptWireSchema } from '../../../src/shared/transcript-wire';
import { seedLibrary } from '../../e2e/seed';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A completed transcript in a real library (seeded as the e2e suites seed theirs), with a correction and a named speaker. */
function stored(n = 500, speakers = ['A', 'B']) {
  const dir = mkdtempSync(join(tmpdir(), 'verbatim-wire-'));
  dirs.push(dir);
  const [recordingId] = seedLibrary(dir, { count: 1, wordsPer: n, speakers }) as [string];
  const lib = new Library(dir);
  lib.edits.correctWords(recordingId, [{ index: 3, text: 'corrected' }]);
  return { lib, recordingId, t: speakers.includes('A') ? lib.edits.renameSpeaker(recordingId, 'A', 'Dana') : lib.transcripts.get(recordingId) };
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
    const { lib, recordingId, t } = stored(2_000, ['A', 'B', 'C']);
    expect(lib.transcripts.wire(recordingId)).toEqual(packTranscript(t));
    expect(unpackTranscript(lib.transcripts.wire(recordingId, t.transcriptId))).toEqual(t);
    const { lib: plain, recordingId: id2 } = stored(300, []);
    expect(plain.transcripts.wire(id2).words.speaker.every((s) => s === null)).toBe(true);
  });

  it('is under half the bytes of the word objects', () => {
    const { t } = stored(5_000, ['A', 'B', 'C']);
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

  it("answers a first screen (library.get's firstWords): whole paragraphs up to the one holding that word, no cues, and the whole's counts", () => {
    const { lib, recordingId, t } = stored(2_000, ['A', 'B', 'C']);
    const doc = lib.subtitles.open(recordingId);
    lib.subtitles.save(recordingId, doc.version, 'Insert', { at: 0, remove: [], insert: [{ start: 0, end: 200, text: 'A cue' }] });
    const wire = transcriptWireSchema.parse(JSON.parse(JSON.stringify(lib.transcripts.wire(recordingId, undefined, 200))));
    const n = wire.words.text.length;
    const holding = t.paragraphs.find((p) => p.lastWord >= 199);
    expect(n).toBe((holding?.lastWord ?? -1) + 1);
    expect(n).toBeGreaterThanOrEqual(200);
    expect(n).toBeLessThan(2_000);
    expect(wire.partial).toEqual({ words: 2_000, paragraphs: t.paragraphs.length });
    expect(wire.cues).toBeNull();
    const head = unpackTranscript(wire);
    expect(head.words).toEqual(t.words.slice(0, n));
    expect(head.words[3]).toMatchObject({ text: 'corrected', original: expect.any(String) });
    expect(head.paragraphs).toEqual(t.paragraphs.filter((p) => p.lastWord < n));
    expect(head.sentences).toEqual(t.sentences.filter((s) => s.lastWord < n));
    expect(head.speakers).toEqual(t.speakers);
    expect(head.item).toEqual(t.item);
    expect('partial' in head).toBe(false);
    // Asking for at least all of it answers the whole, unmarked, cues and all.
    const all = lib.transcripts.wire(recordingId, undefined, 2_000);
    expect(all.partial).toBeUndefined();
    expect(unpackTranscript(all)).toEqual(lib.transcripts.get(recordingId));
    expect(all.cues?.[0]?.text).toBe('A cue');
  });
});
