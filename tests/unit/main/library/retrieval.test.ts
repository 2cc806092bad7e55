/**
 * Retrieval for chats over a generated 1,000-transcript library (real SQLite,
 * real FTS5): 20 questions whose answers were planted in known recordings
 * must find them; precision is printed. Also: whole transcripts when they fit,
 * passages within the budget, common words dropped for rarer ones.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Library } from '../../../../src/main/services/library/library';
import type { Word } from '../../../../src/shared/library';
import { makeWords } from '../../../e2e/seed';

const FACTS: [string, string][] = [
  ['The Hartwell bridge inspection found cracks in pillar seven.', 'What did the bridge inspection find?'],
  ['Our dentist appointment moved to Thursday afternoon.', 'When is the dentist appointment?'],
  ['The volcano expedition needs three extra oxygen tanks.', 'What does the volcano expedition need?'],
  ['Marguerite negotiated a discount with the printing supplier.', 'Who negotiated with the printing supplier?'],
  ['The orchestra rehearsal is cancelled because the violinist is sick.', 'Why was the orchestra rehearsal cancelled?'],
  ['Warehouse inventory shows four hundred missing pallets.', 'How many pallets are missing from the warehouse inventory?'],
  ['The vaccine trial enrolled nine hundred volunteers.', 'How many volunteers joined the vaccine trial?'],
  ['Our kitchen renovation uses walnut cabinets and granite counters.', 'What materials does the kitchen renovation use?'],
  ['The satellite launch slipped because of a faulty gyroscope.', 'Why did the satellite launch slip?'],
  ['Professor Okonkwo will chair the ethics committee.', 'Who will chair the ethics committee?'],
  ['The bakery franchise opens its Lisbon branch in spring.', 'Where does the bakery franchise open a branch?'],
  ['Our cybersecurity audit flagged outdated firewall firmware.', 'What did the cybersecurity audit flag?'],
  ['The wedding caterer requires a vegetarian headcount by Monday.', 'What does the wedding caterer require?'],
  ['Glacier measurements show the ice retreated eighty meters.', 'How far did the glacier ice retreat?'],
  ['The podcast sponsorship pays twelve thousand euros per episode.', 'How much does the podcast sponsorship pay?'],
  ['Our museum exhibit features Byzantine mosaics from Ravenna.', 'What does the museum exhibit feature?'],
  ['The marathon route avoids the harbour tunnel this year.', 'Which tunnel does the marathon route avoid?'],
  ['The chess tournament winner used the Sicilian defence.', 'Which defence did the chess tournament winner use?'],
  ['Our greenhouse tomatoes suffered from aphids in July.', 'What did the greenhouse tomatoes suffer from?'],
  ['The submarine cable repair will take six weeks.', 'How long will the submarine cable repair take?'],
];

const dir = mkdtempSync(join(tmpdir(), 'verbatim-retrieval-'));
let lib: Library;
const planted = new Map<number, string>();

function withSentence(words: Word[], sentence: string, at: number): Word[] {
  const start = words[at]?.start ?? 0;
  const extra = sentence.split(' ').map((text, i) => ({ text, start: start + i * 10, end: start + i * 10 + 5, confidence: 0.9, speaker: null }));
  return [...words.slice(0, at), ...extra, ...words.slice(at).map((w) => ({ ...w, start: w.start + 5000, end: w.end + 5000 }))];
}

beforeAll(() => {
  lib = new Library(join(dir, 'data'));
  lib.transaction(() => {
    for (let i = 0; i < 1000; i++) {
      const fact = FACTS.findIndex((_, f) => f * 50 + 7 === i);
      let words = makeWords(150);
      if (fact >= 0) words = withSentence(words, FACTS[fact]![0], 72);
      const { recordingId, transcriptId } = lib.recordings.add({
        title: `Recording ${i}`,
        source: `r${i}.wav`,
        sourceKind: 'file',
        sizeBytes: 1,
        region: 'local',
        baseUrl: null,
        options: {},
      });
      if (fact >= 0) planted.set(fact, recordingId);
      lib.transcripts.complete(transcriptId, {
        remoteId: null,
        text: words.map((w) => w.text).join(' '),
        words,
        sentences: null,
        paragraphs: null,
        confidence: 0.9,
        language: 'en',
        model: 't',
        durationMs: null,
      });
    }
  });
});

afterAll(() => {
  lib.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('retrieval over 1,000 transcripts', () => {
  it('finds the recording that holds the answer for 20 questions with known answers', () => {
    let top1 = 0;
    let precise = 0;
    let ranked = 0;
    for (const [f, [, question]] of FACTS.entries()) {
      const want = planted.get(f);
      const r = lib.retrieval.retrieve(question, { recordingIds: null, budgetChars: 6000 });
      if (r.recordings[0]?.recording.id === want) top1++;
      const best = lib.retrieval.rank(question, { limit: 5 });
      const wantTranscript = lib.retrieval.recordings([want!])[0]!.transcriptId;
      precise += best.filter((b) => b.transcriptId === wantTranscript).length > 0 ? 1 : 0;
      ranked += best[0]?.transcriptId === wantTranscript ? 1 : 0;
    }
    console.log(
      `retrieval precision over 1,000 transcripts, 20 questions: right recording first ${top1}/20 (${(top1 / 20).toFixed(2)}), best sentence from it ${ranked}/20, in the top 5 ${precise}/20`,
    );
    expect(top1).toBeGreaterThanOrEqual(19);
    expect(ranked).toBeGreaterThanOrEqual(19);
  });

  it('sends whole transcripts when the chosen recordings fit the budget, in their time order', () => {
    const ids = [planted.get(0)!, planted.get(1)!];
    const r = lib.retrieval.retrieve('anything at all', { recordingIds: ids, budgetChars: 100_000 });
    expect(r.whole).toBe(true);
    expect(r.recordings.map((x) => x.recording.id)).toEqual(ids);
    const times = r.recordings[0]!.passages.map((p) => p.startMs);
    expect(times).toEqual([...times].sort((a, b) => a - b));
  });

  it('keeps ranked passages within the budget when the recordings do not fit', () => {
    const r = lib.retrieval.retrieve('What did the bridge inspection find?', { recordingIds: null, budgetChars: 1500 });
    expect(r.whole).toBe(false);
    const chars = r.recordings.flatMap((x) => x.passages).reduce((a, p) => a + p.text.length + 24, 0);
    expect(chars).toBeLessThanOrEqual(1500);
    expect(r.recordings[0]!.passages.map((p) => p.text).join(' ')).toContain('Hartwell bridge inspection found cracks');
  });

  it('drops the question words found in most sentences when rarer ones exist', () => {
    const terms = lib.retrieval.terms('What did the market budget say about the bridge inspection?');
    expect(terms.map((t) => t.word)).toEqual(expect.arrayContaining(['bridge', 'inspection']));
    expect(terms.map((t) => t.word)).not.toContain('market');
  });

  it('finds nothing for a question of stop words only', () => {
    expect(lib.retrieval.retrieve('what is it about?', { recordingIds: null, budgetChars: 5000 }).recordings).toEqual([]);
  });

  it('answers a question of common words only from passages within the budget, each recording in time order', () => {
    const r = lib.retrieval.retrieve('What about the market budget and the schedule?', { recordingIds: null, budgetChars: 4000 });
    expect(r.whole).toBe(false);
    const passages = r.recordings.flatMap((x) => x.passages);
    expect(passages.length).toBeGreaterThan(5);
    expect(passages.reduce((a, p) => a + p.text.length + 24, 0)).toBeLessThanOrEqual(4000);
    for (const x of r.recordings) {
      const times = x.passages.map((p) => p.startMs);
      expect(times).toEqual([...times].sort((a, b) => a - b));
      expect(x.recording.title).toMatch(/^Recording \d+$/);
    }
  });

  it('finds a word first added after an earlier question (cached word counts are re-read after a write)', () => {
    const question = 'What leaks in the zeppelin hangar?';
    expect(lib.retrieval.retrieve(question, { recordingIds: null, budgetChars: 5000 }).recordings).toEqual([]);
    const words = withSentence(makeWords(40), 'The zeppelin hangar roof leaks.', 12);
    const { recordingId, transcriptId } = lib.recordings.add({
      title: 'Hangar walk-through',
      source: 'hangar.wav',
      sourceKind: 'file',
      sizeBytes: 1,
      region: 'local',
      baseUrl: null,
      options: {},
    });
    lib.transcripts.complete(transcriptId, {
      remoteId: null,
      text: words.map((w) => w.text).join(' '),
      words,
      sentences: null,
      paragraphs: null,
      confidence: 0.9,
      language: 'en',
      model: 't',
      durationMs: null,
    });
    const r = lib.retrieval.retrieve(question, { recordingIds: null, budgetChars: 5000 });
    expect(r.recordings[0]?.recording.id).toBe(recordingId);
    expect(r.recordings[0]!.passages.map((p) => p.text).join(' ')).toContain('zeppelin hangar roof leaks');
  });
});
