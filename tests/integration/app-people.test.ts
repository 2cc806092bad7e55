/**
 * Remembered voices through the app's core against the real local engine with the tiny diarization models
 * (each flite voice carries a quiet mark the tiny embedding model hears as the voice): a name given in one
 * recording is applied to a second recording of the same voice, and not to the other voice, with its
 * confidence; the People list shows each voice's recordings; rename, merge, split and forget; a forgotten
 * voice's voiceprint bytes are gone from the database file and its write-ahead log.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCore, type Core } from '../../src/main/core';
import { createHostPlatform } from '../../src/main/platform/host';
import { unpackTranscript } from '../../src/shared/transcript-columns';
import { installTinySpeakerModels, MARKS, markedConversation, TWO_VOICES, wavBytes } from '../fixtures/models/speakers';
import { waitFinal } from '../support/jobs';
import { call } from '../support/router';

let root: string;
let wav: string;
let core: Core;

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'verbatim-people-'));
  const talk = markedConversation(join(root, 'talk'), TWO_VOICES);
  wav = join(root, 'monday.wav');
  writeFileSync(wav, wavBytes(talk.pcm));
  // Tuesday: the same two voices saying other things (so no voiceprint of one day equals one of the other).
  const other = markedConversation(join(root, 'talk2'), [
    { voice: 'A', text: 'Shall we look at the schedule for the spring launch now?' },
    { voice: 'B', text: 'Sure, the printers need our files by the end of April.' },
    { voice: 'A', text: 'Then we should send the drafts out next Monday morning.' },
    { voice: 'B', text: 'I will tell the design team about that this afternoon.' },
  ]);
  writeFileSync(join(root, 'tuesday.wav'), wavBytes(other.pcm));
  installTinySpeakerModels(join(root, 'data', 'models'), { segmentation: { hz: MARKS }, embedding: { hz: MARKS } });
  const platform = createHostPlatform({ dataDir: join(root, 'data'), version: 't', keyFile: join(root, 'k') });
  core = createCore(platform, () => true, { jobs: { retry: { attempts: 6, baseMs: 50, capMs: 500 } } });
});
afterAll(async () => {
  await core?.dispose();
  rmSync(root, { recursive: true, force: true });
});

async function transcribe(path: string): Promise<string> {
  const { jobs } = await call(core.router, 'jobs.addFiles', { files: [{ kind: 'path', path: path }], options: { speakerLabels: true } });
  const done = await waitFinal(core.jobs, jobs[0]!.id, 120_000);
  expect(done, JSON.stringify(done.error)).toMatchObject({ status: 'completed' });
  return done.recordingId;
}

const names = async (id: string) => unpackTranscript(await call(core.router, 'library.get', { id })).speakers.map((s) => [s.id, s.name]);

/** Every byte of the library's database files. */
function dbBytes(): Buffer {
  const file = join(root, 'data', 'library.sqlite');
  return Buffer.concat([file, `${file}-wal`].filter((f) => existsSync(f)).map((f) => readFileSync(f)));
}

describe('remembered voices', () => {
  it('a name given in one recording labels the same voice in the next, not the other voice; People lists both recordings', async () => {
    const monday = await transcribe(wav);
    await call(core.router, 'people.nameSpeaker', { id: monday, speaker: 'A', name: 'Dana', remember: true });
    expect(await names(monday)).toEqual([
      ['A', 'Dana'],
      ['B', null],
    ]);
    const tuesday = await transcribe(join(root, 'tuesday.wav'));
    // Recognised when the job completed (in the background): ask again to wait for it.
    const { matches } = await call(core.router, 'people.match', { id: tuesday });
    expect(matches.map((m) => [m.speaker, m.name])).toEqual([['A', 'Dana']]);
    expect(matches[0]!.similarity).toBeGreaterThan(0.9);
    expect(await names(tuesday)).toEqual([
      ['A', 'Dana'],
      ['B', null],
    ]);
    // Exports use the remembered name.
    for (const format of ['srt', 'vtt', 'txt'] as const) {
      const out = await call(core.router, 'library.export', { id: tuesday, format, ...(format === 'vtt' ? { voices: true } : {}) });
      expect(out.content, format).toMatch(format === 'vtt' ? /<v Dana>/ : /Dana: /);
    }
    const { voices } = await call(core.router, 'people.list', {});
    expect(voices.map((v) => v.name)).toEqual(['Dana']);
    // Search narrowed to Dana: a word only A says is found, one only B says is not.
    const mon = core.library.transcripts.get(monday);
    const said = (s: string) => new Set(mon.words.filter((w) => w.speaker === s).map((w) => w.text.toLowerCase().replace(/[^a-z]/g, '')));
    const [a, b] = [said('A'), said('B')];
    const onlyA = [...a].find((w) => w.length >= 5 && !b.has(w))!;
    const onlyB = [...b].find((w) => w.length >= 5 && !a.has(w))!;
    const hits = (await call(core.router, 'people.search', { voiceId: voices[0]!.id, query: onlyA })).hits;
    expect(hits.length, onlyA).toBeGreaterThan(0);
    expect(hits.every((h) => h.recordingId === monday || h.recordingId === tuesday)).toBe(true);
    expect((await call(core.router, 'search.query', { query: onlyB })).hits.length, onlyB).toBeGreaterThan(0);
    expect((await call(core.router, 'people.search', { voiceId: voices[0]!.id, query: onlyB })).hits, onlyB).toEqual([]);
    expect(voices[0]!.recordings.map((r) => r.id).sort()).toEqual([monday, tuesday].sort());

    // Rename: the voice and the speakers named after it.
    await call(core.router, 'people.rename', { voiceId: voices[0]!.id, name: 'Dana Ruiz' });
    expect((await names(tuesday))[0]).toEqual(['A', 'Dana Ruiz']);

    // Merge: Lee (B in Tuesday) joins Dana Ruiz; split: Tuesday's part of it becomes a voice of its own.
    const lee = await call(core.router, 'people.nameSpeaker', { id: tuesday, speaker: 'B', name: 'Lee', remember: true });
    await call(core.router, 'people.merge', { into: voices[0]!.id, from: lee.voiceId! });
    let list = (await call(core.router, 'people.list', {})).voices;
    expect(list.map((v) => v.name)).toEqual(['Dana Ruiz']);
    expect((await names(tuesday)).map((n) => n[1])).toEqual(['Dana Ruiz', 'Dana Ruiz']);
    const split = await call(core.router, 'people.split', { voiceId: voices[0]!.id, recordingId: tuesday, name: 'Lee' });
    list = (await call(core.router, 'people.list', {})).voices;
    expect(list.map((v) => v.name)).toEqual(['Dana Ruiz', 'Lee']);
    expect(list.find((v) => v.id === split.voiceId)!.recordings.map((r) => r.id)).toEqual([tuesday]);

    // Forget: every voiceprint of Dana Ruiz (and the kept turn prints of her recordings) is gone from the files.
    const t = core.library.voices.turns(core.library.voices.currentTranscript(monday));
    const print = t.find((x) => x.vector && core.library.transcripts.words(core.library.voices.currentTranscript(monday))[x.firstWord]?.speaker === 'A')!;
    const needle = Buffer.from(Float32Array.from(print.vector!).buffer);
    expect(dbBytes().includes(needle)).toBe(true);
    await call(core.router, 'people.forget', { voiceId: voices[0]!.id });
    expect((await call(core.router, 'people.list', {})).voices.map((v) => v.name)).toEqual(['Lee']);
    expect(dbBytes().includes(needle)).toBe(false);
    expect(core.library.voices.turns(core.library.voices.currentTranscript(monday))).toEqual([]);
  }, 300_000);
});
