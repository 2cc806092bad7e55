/**
 * A live session is linked to the people the local engine named in it: saved as the captions service saves
 * it (words labelled with the name, the speaker named after itself), it is listed under Dana in People
 * ("recognised in live captions") and "Said by Dana" finds what she said, not what the unknown voice said.
 * Real library (SQLite); the engine's naming itself is covered by the captions e2e.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Library } from '../../../../src/main/services/library/library';
import type { EngineManager } from '../../../../src/main/services/local-engine';
import { SettingsService } from '../../../../src/main/services/settings';
import { PeopleService } from '../../../../src/main/services/voices/people';
import { VoicesService } from '../../../../src/main/services/voices/service';
import { RECOGNISED_LIVE } from '../../../../src/shared/ipc/people';
import type { Word } from '../../../../src/shared/library';
import { addCompleted, completeWith } from '../../../support/library';

let dir: string;
let lib: Library;
let people: PeopleService;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'verbatim-live-people-'));
  lib = new Library(join(dir, 'lib'));
  const settings = new SettingsService({ read: () => null, write: () => undefined });
  const engine = { ensure: () => Promise.reject(new Error('no engine here')) } as unknown as EngineManager;
  people = new PeopleService(lib, new VoicesService(lib, lib.voices, engine), settings);
});
afterEach(() => {
  lib.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A live session as the captions service saves it (its transcript still to complete). */
const newSession = () =>
  lib.sessions.create({
    title: 'Live session',
    sources: ['system'],
    recordOnly: false,
    recordingMime: 'audio/wav',
    region: 'local',
    baseUrl: null,
    options: {},
  });

/** Completes a transcript with `words`. */
const complete = (transcriptId: string, words: Word[], model: string, durationMs: number) =>
  completeWith(lib, transcriptId, words, { language: 'en', model, durationMs });

/** `text`'s words, one every 400 ms from `at`, said by `speaker`. */
const say = (text: string, speaker: string, at: number): Word[] =>
  text.split(' ').map((t, i) => ({ text: t, start: at + i * 400, end: at + i * 400 + 350, confidence: 0.9, speaker }));

describe('live sessions and the people named in them', () => {
  it('a session where the engine named Dana is under Dana in People, and "Said by Dana" finds it', () => {
    const earlier = addCompleted(lib, 'Earlier meeting', [{ text: 'Morning.', start: 0, end: 1200, confidence: 0.9, speaker: 'A' }]);
    const dana = lib.voices.people.remember(earlier.recordingId, 'Dana', 'tiny-embedding', [{ vector: Float32Array.from([1, 0]), ms: 1200 }], 'A');

    // As the captions service saves a session: Dana's words carry her name as their speaker, the other voice a letter.
    const s = newSession();
    const words = [...say('Let us start with the budget.', 'Dana', 0), ...say('Lunch is at noon.', 'A', 4000)];
    complete(s.transcriptId, words, 'live', 6000);
    lib.edits.renameSpeaker(s.recordingId, 'Dana', 'Dana');

    const voice = people.list().find((v) => v.id === dana);
    expect(voice?.recordings).toContainEqual({ id: s.recordingId, title: 'Live session', similarity: RECOGNISED_LIVE });
    expect(people.matches(s.recordingId)).toEqual([{ speaker: 'Dana', voiceId: dana, name: 'Dana', similarity: RECOGNISED_LIVE, named: false }]);
    expect([...new Set(people.search('budget', dana).map((h) => h.recordingId))]).toEqual([s.recordingId]);
    expect(people.search('lunch', dana)).toEqual([]);
    // A speaker named after itself that is no remembered voice links nothing.
    lib.edits.renameSpeaker(s.recordingId, 'A', 'A');
    expect(people.matches(s.recordingId)).toHaveLength(1);
  });

  it('a change naming thousands of recordings (a restore) is linked in later turns, not in the one that told it, preparing no statement per recording', async () => {
    const earlier = addCompleted(lib, 'Earlier meeting', [{ text: 'Morning.', start: 0, end: 1200, confidence: 0.9, speaker: 'A' }]);
    const dana = lib.voices.people.remember(earlier.recordingId, 'Dana', 'tiny-embedding', [{ vector: Float32Array.from([1, 0]), ms: 1200 }], 'A');
    const s = newSession();
    complete(s.transcriptId, say('Let us start with the budget.', 'Dana', 0), 'live', 3000);
    lib.edits.renameSpeaker(s.recordingId, 'Dana', 'Dana');
    const lookups = vi.spyOn(lib.sessions, 'session');
    // SQL statements prepared while linking: each preparation costs main ~15 µs and native memory until collected
    // (a 50,000-recording restore made 50,000 of them: ~0.7 s of CPU, ~190 MiB more resident).
    const prepares = vi.spyOn((lib as unknown as { db: { prepare(sql: string): unknown } }).db, 'prepare');
    // As a restore tells it: one change naming every recording it added (here the session among 4,999 others).
    const ids = [...Array.from({ length: 4_999 }, (_, i) => `restored-${i}`), s.recordingId];
    const feed = (lib as unknown as { feed: { emit(ids: string[], reason: 'imported'): void } }).feed;
    feed.emit(ids, 'imported');
    // Each recording is one lookup: in the turn that told the change there were none (the old code made all 5,000 there).
    expect(lookups).toHaveBeenCalledTimes(0);
    while (lookups.mock.calls.length < ids.length) await new Promise((r) => setImmediate(r));
    expect(lookups.mock.calls.map((c) => c[0])).toEqual(ids);
    expect(prepares.mock.calls.length).toBeLessThan(100);
    expect(people.list().find((v) => v.id === dana)?.recordings).toContainEqual({ id: s.recordingId, title: 'Live session', similarity: RECOGNISED_LIVE });
  });

  it('an unknown voice is Speaker A in the transcribed recording as in the live captions, where Dana spoke first', async () => {
    const earlier = addCompleted(lib, 'Earlier meeting', [{ text: 'Morning.', start: 0, end: 1200, confidence: 0.9, speaker: 'A' }]);
    const dana = lib.voices.people.remember(earlier.recordingId, 'Dana', 'tiny-embedding', [{ vector: Float32Array.from([1, 0]), ms: 1200 }], 'A');
    const s = newSession();
    // Live: Dana (named by the engine), then the unknown voice, lettered A.
    const live = [...say('Let us start with the budget.', 'Dana', 0), ...say('Lunch is at noon.', 'A', 4000)];
    const done = (transcriptId: string, words: Word[], model: string) => complete(transcriptId, words, model, 6000);
    done(s.transcriptId, live, 'live');
    lib.edits.renameSpeaker(s.recordingId, 'Dana', 'Dana');
    // Improve accuracy: the recording transcribed with speakers, lettered by first appearance (Dana A, the other B).
    const improved = lib.sessions.addVersion(s.recordingId, { region: 'local', baseUrl: null, options: { speakerLabels: true } });
    done(improved, [...say('Let us start with the budget.', 'A', 0), ...say('Lunch is at noon.', 'B', 4000)], 'local');
    lib.voices.saveTurns(improved, [
      { firstWord: 0, lastWord: 5, start: 0, end: 2400, model: 'tiny-embedding', vector: Float32Array.from([1, 0.02]) },
      { firstWord: 6, lastWord: 9, start: 4000, end: 5600, model: 'tiny-embedding', vector: Float32Array.from([0.03, 1]) },
    ]);
    await people.afterJobDone(s.recordingId);
    const t = lib.transcripts.get(s.recordingId);
    expect(t.transcriptId).toBe(improved);
    expect(t.words.map((w) => w.speaker)).toEqual([...'BBBBBB', ...'AAAA']);
    expect(Object.fromEntries(t.speakers.map((x) => [x.id, x.name]))).toEqual({ A: null, B: 'Dana' });
    expect(people.matches(s.recordingId)).toMatchObject([{ speaker: 'B', voiceId: dana, name: 'Dana', named: false }]);
    expect([...new Set(people.search('budget', dana).map((h) => h.recordingId))]).toEqual([s.recordingId]);
  });

  it('Forget with "also replace the name" leaves no transcript showing it; without, transcripts keep it', async () => {
    const meeting = addCompleted(lib, 'Meeting', [...say('Morning all.', 'A', 0), ...say('Hello there.', 'B', 2000)]);
    lib.voices.saveTurns(meeting.transcriptId, [
      { firstWord: 0, lastWord: 1, start: 0, end: 750, model: 'tiny-embedding', vector: Float32Array.from([1, 0]) },
      { firstWord: 2, lastWord: 3, start: 2000, end: 2750, model: 'tiny-embedding', vector: Float32Array.from([0, 1]) },
    ]);
    const dana = (await people.nameSpeaker(meeting.recordingId, 'A', 'Dana', true)).voiceId as string;
    const lee = (await people.nameSpeaker(meeting.recordingId, 'B', 'Lee', true)).voiceId as string;
    // A live session where the engine named Dana (her label is her name) beside an unknown voice A.
    const s = newSession();
    const live = [...say('Let us start with the budget.', 'Dana', 0), ...say('Lunch is at noon.', 'A', 4000)];
    lib.transcripts.complete(s.transcriptId, {
      remoteId: null,
      text: '',
      words: live,
      sentences: null,
      paragraphs: null,
      confidence: 0.9,
      language: 'en',
      model: 'live',
      durationMs: 6000,
    });
    lib.edits.renameSpeaker(s.recordingId, 'Dana', 'Dana');
    expect(people.matches(s.recordingId)).toHaveLength(1);

    people.forget(lee);
    expect(Object.fromEntries(lib.transcripts.get(meeting.recordingId).speakers.map((x) => [x.id, x.name]))).toEqual({ A: 'Dana', B: 'Lee' });

    people.forget(dana, true);
    expect(people.list()).toEqual([]);
    expect(Object.fromEntries(lib.transcripts.get(meeting.recordingId).speakers.map((x) => [x.id, x.name]))).toEqual({ A: null, B: 'Lee' });
    const after = lib.transcripts.get(s.recordingId);
    expect(after.words.map((w) => w.speaker)).toEqual([...'BBBBBB', ...'AAAA']);
    expect(after.speakers.map((x) => [x.id, x.name])).toEqual([
      ['A', null],
      ['B', null],
    ]);
    expect(JSON.stringify(after)).not.toContain('Dana');
  });
});
