/**
 * Re-cluster against a real library (SQLite), from kept turn voiceprints (no engine): names follow their
 * voices through a re-cluster (People, matches and "Said by" search keep working), hostile kept rows (a
 * restored backup's) are checked instead of answering `internal`, a 100% recognition is no "named here",
 * and a long meeting's grouping lets the event loop run between slices.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AppError } from '../../../../src/shared/errors';
import type { Word } from '../../../../src/shared/library';
import { Library } from '../../../../src/main/services/library/library';
import type { EngineManager } from '../../../../src/main/services/local-engine';
import { SettingsService } from '../../../../src/main/services/settings';
import { PeopleService } from '../../../../src/main/services/voices/people';
import { VoicesService } from '../../../../src/main/services/voices/service';
import { addCompleted } from '../../../support/library';

let dir: string;
let lib: Library;
let voices: VoicesService;
let people: PeopleService;

/** Kept prints are all these tests use: the engine is never asked (a recording without kept prints would say so). */
const noEngine = {
  ensure: () => Promise.reject(new AppError('engine_unavailable', 'This test has no engine: every print is kept.')),
} as unknown as EngineManager;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'verbatim-recluster-names-'));
  lib = new Library(join(dir, 'lib'));
  let stored: unknown = null;
  const settings = new SettingsService({ read: () => stored, write: (v) => (stored = v) });
  voices = new VoicesService(lib, lib.voices, noEngine);
  people = new PeopleService(lib, voices, settings);
});
afterEach(() => {
  lib.close();
  rmSync(dir, { recursive: true, force: true });
});

const DANA = [1, 0, 0];
const SAM = [0, 1, 0];
const nudge = (v: number[], k: number) => v.map((x, i) => x + (i === 2 ? 0.05 * (k % 3) : 0));

/** Turns of four words over 2 s each, 1.5 s apart, Dana speaking of the budget and Sam of lunch (letters by first appearance); their prints are kept. */
function meeting(plan: ('D' | 'S')[], title = 'Standup'): { recordingId: string; transcriptId: string } {
  const words: Word[] = [];
  const kept: { firstWord: number; lastWord: number; start: number; end: number; model: string; vector: Float32Array }[] = [];
  let t = 0;
  plan.forEach((who, k) => {
    const first = words.length;
    const text = who === 'D' ? ['the', 'budget', 'is', 'fine.'] : ['lunch', 'at', 'noon', 'today.'];
    text.forEach((w, i) => words.push({ text: w, start: t + i * 500, end: t + i * 500 + 450, confidence: 0.9, speaker: who === plan[0] ? 'A' : 'B' }));
    kept.push({
      firstWord: first,
      lastWord: words.length - 1,
      start: t,
      end: t + 2000,
      model: 'tiny-embedding',
      vector: Float32Array.from(nudge(who === 'D' ? DANA : SAM, k)),
    });
    t += 3500;
  });
  const ids = addCompleted(lib, title, words);
  lib.voices.saveTurns(ids.transcriptId, kept);
  return ids;
}

const speakerNames = (recordingId: string) => Object.fromEntries(lib.transcripts.get(recordingId).speakers.map((s) => [s.id, s.name]));
const saidBy = (recordingId: string) => lib.transcripts.get(recordingId).words.map((w) => w.speaker);

describe('names follow their voices through a re-cluster', () => {
  it('Dana named as A, re-clustered to 1 and then Auto, is still Dana: transcript, People and "Said by Dana"', async () => {
    const { recordingId } = meeting(['D', 'S', 'D', 'S', 'D']);
    const { voiceId } = await people.nameSpeaker(recordingId, 'A', 'Dana', true);
    expect(voiceId).not.toBeNull();
    expect(await voices.recluster(recordingId, 1)).toMatchObject({ speakers: 1 });
    expect(speakerNames(recordingId)).toEqual({ A: 'Dana' });
    expect(await voices.recluster(recordingId, null)).toMatchObject({ speakers: 2, asked: 'auto' });
    expect(saidBy(recordingId)).toEqual([...'AAAA', ...'BBBB', ...'AAAA', ...'BBBB', ...'AAAA']);
    expect(speakerNames(recordingId)).toEqual({ A: 'Dana', B: null });
    // Named here, so no recognition, and People lists the recording as named in it.
    expect(people.matches(recordingId)).toEqual([{ speaker: 'A', voiceId, name: 'Dana', similarity: 1, named: true }]);
    expect(people.list().find((v) => v.id === voiceId)?.recordings).toEqual([{ id: recordingId, title: 'Standup', similarity: null }]);
    // "Said by Dana": her words are found, Sam's are not.
    expect([...new Set(people.search('budget', voiceId as string).map((h) => h.recordingId))]).toEqual([recordingId]);
    expect(people.search('lunch', voiceId as string)).toEqual([]);
  });

  it('two named voices keep their names when the letters swap, and a name given without remembering follows its turns', async () => {
    const { recordingId } = meeting(['S', 'D', 'S', 'D']);
    // Sam speaks first: A is Sam, B is Dana.
    const sam = (await people.nameSpeaker(recordingId, 'A', 'Sam', true)).voiceId as string;
    const dana = (await people.nameSpeaker(recordingId, 'B', 'Dana', true)).voiceId as string;
    await voices.recluster(recordingId, 1);
    await voices.recluster(recordingId, 2);
    const names = speakerNames(recordingId);
    const words = lib.transcripts.get(recordingId).words;
    expect(names[words[0]!.speaker!]).toBe('Sam');
    expect(names[words[4]!.speaker!]).toBe('Dana');
    expect([...new Set(people.search('budget', dana).map((h) => h.recordingId))]).toEqual([recordingId]);
    expect([...new Set(people.search('lunch', sam).map((h) => h.recordingId))]).toEqual([recordingId]);

    const other = meeting(['D', 'S', 'D'], 'Retro');
    await people.nameSpeaker(other.recordingId, 'B', 'Guest', false);
    await voices.recluster(other.recordingId, 3);
    await voices.recluster(other.recordingId, null);
    expect(speakerNames(other.recordingId)).toEqual({ A: null, B: 'Guest' });
  });
});

describe('re-cluster of kept rows from a restored backup', () => {
  it('turns past the words, backwards, overlapping or with prints that are not numbers are checked, not an internal error', async () => {
    const { recordingId, transcriptId } = meeting(['D', 'S', 'D', 'S']);
    const good = lib.voices.turns(transcriptId);
    const nan = Float32Array.from([NaN, 1, 0]);
    lib.voices.saveTurns(transcriptId, [
      good[0]!,
      { ...good[1]!, lastWord: 9_999 },
      { ...good[2]!, firstWord: 12, lastWord: 3 },
      { ...good[3]!, firstWord: 2 },
      { ...good[3]!, firstWord: 50_000, lastWord: 50_001 },
      { ...good[3]!, vector: nan },
      { ...good[3]!, vector: Float32Array.from([1, 0]) },
    ]);
    const note = await voices.recluster(recordingId, 2);
    expect(note).toMatchObject({ speakers: 2 });
    const words = lib.transcripts.get(recordingId).words;
    expect(words).toHaveLength(16);
    expect(words.slice(0, 4).every((w) => w.speaker === 'A')).toBe(true);
    expect(words.slice(4).every((w) => w.speaker === 'B')).toBe(true);
  });
});

describe('a recognised voice that matches fully', () => {
  it('is a recognition (named: false), not a speaker named here', async () => {
    const first = meeting(['D', 'S'], 'First');
    const voiceId = (await people.nameSpeaker(first.recordingId, 'A', 'Dana', true)).voiceId as string;
    // The same prints again in another recording: a 100% match.
    const second = meeting(['D', 'S'], 'Second');
    const found = await people.match(second.recordingId);
    expect(found).toEqual([{ speaker: 'A', voiceId, name: 'Dana', similarity: 1, named: false }]);
    expect(people.matches(first.recordingId)).toEqual([{ speaker: 'A', voiceId, name: 'Dana', similarity: 1, named: true }]);
  });
});

describe('a long meeting is grouped in slices', () => {
  it('1,000 turns: the event loop runs between slices while the grouping computes', async () => {
    const plan = Array.from({ length: 1000 }, (_, k) => (k % 3 === 1 ? 'S' : 'D') as 'D' | 'S');
    const { recordingId, transcriptId } = meeting(plan);
    // Real prints are long (192 values and more): spread the two voices over 192 dimensions.
    lib.voices.saveTurns(
      transcriptId,
      lib.voices.turns(transcriptId).map((t, k) => ({
        ...t,
        vector: Float32Array.from({ length: 192 }, (_, i) => (i % 2 === (plan[k] === 'D' ? 0 : 1) ? 1 : 0) + Math.sin(k * 7 + i) * 0.2),
      })),
    );
    let ticks = 0;
    let done = false;
    const tick = () => {
      ticks++;
      if (!done) setImmediate(tick);
    };
    setImmediate(tick);
    const note = await voices.recluster(recordingId, null);
    done = true;
    expect(note).toMatchObject({ speakers: 2 });
    expect(saidBy(recordingId).slice(0, 12)).toEqual([...'AAAA', ...'BBBB', ...'AAAA']);
    expect(ticks).toBeGreaterThanOrEqual(3);
  }, 300_000);
});
