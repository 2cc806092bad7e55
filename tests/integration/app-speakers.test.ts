/**
 * Speakers through the app's core against the real local engine (started by
 * the app with --models <data>/models, where the tiny diarization models are
 * installed): a finished two-voice transcript gets speakers with jobs.addSpeakers,
 * without the file being chosen again; they are renamed and named in TXT, SRT
 * and DOCX exports; asking again is a conflict; with no models installed the
 * job fails saying which model to download.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createCore, type Core } from '../../src/main/core';
import { createHostPlatform } from '../../src/main/platform/host';
import { installTinySpeakerModels, MARKS, markedConversation, TWO_VOICES, voiceAt, wavBytes, type Turn } from '../fixtures/models/speakers';
import { waitFinal } from '../support/jobs';
import { call } from '../support/router';
import { unpackTranscript } from '../../src/shared/transcript-columns';

let root: string;
let wav: string;
let turns: Turn[];
let core: Core | undefined;

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'verbatim-app-speakers-'));
  const talk = markedConversation(join(root, 'talk'), TWO_VOICES);
  turns = talk.turns;
  wav = join(root, 'two-voices.wav');
  writeFileSync(wav, wavBytes(talk.pcm));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));
afterEach(async () => {
  await core?.dispose();
  core = undefined;
});

function makeCore(withModels: boolean): Core {
  const dir = mkdtempSync(join(root, 'case-'));
  if (withModels) installTinySpeakerModels(join(dir, 'data', 'models'), { segmentation: { hz: MARKS }, embedding: { hz: MARKS } });
  const platform = createHostPlatform({ dataDir: join(dir, 'data'), version: 't', keyFile: join(dir, 'k') });
  return createCore(platform, () => true, { jobs: { retry: { attempts: 6, baseMs: 50, capMs: 500 } } });
}

describe('speakers in the app with the local engine', () => {
  it('adds speakers to a finished transcript without the file, renames them, and names them in the exports', async () => {
    core = makeCore(true);
    const { jobs } = await call(core.router, 'jobs.addFiles', { files: [{ kind: 'path', path: wav }] });
    const first = await waitFinal(core.jobs, jobs[0]!.id, 120_000);
    expect(first, JSON.stringify(first.error)).toMatchObject({ status: 'completed', region: 'local' });
    const before = await call(core.router, 'library.get', { id: first.recordingId });
    expect(before.speakers).toEqual([]);

    const job = await call(core.router, 'jobs.addSpeakers', { id: first.recordingId });
    expect(job.recordingId).toBe(first.recordingId);
    const done = await waitFinal(core.jobs, job.id, 120_000);
    expect(done, JSON.stringify(done.error)).toMatchObject({ status: 'completed' });
    const t = unpackTranscript(await call(core.router, 'library.get', { id: first.recordingId }));
    expect(t.speakers.map((s) => s.id)).toEqual(['A', 'B']);
    expect(t.words.map((w) => w.speaker)).toEqual(t.words.map((w) => voiceAt(turns, (w.start + w.end) / 2)));
    expect(t.paragraphs.map((p) => p.speaker)).toEqual(['A', 'B', 'A', 'B']);

    await call(core.router, 'library.renameSpeaker', { id: first.recordingId, speaker: 'A', name: 'Dana' });
    await call(core.router, 'library.renameSpeaker', { id: first.recordingId, speaker: 'B', name: 'Lee' });
    const srt = await call(core.router, 'library.export', { id: first.recordingId, format: 'srt' });
    expect([...srt.content.matchAll(/^(Dana|Lee): /gm)].map((m) => m[1])).toEqual(['Dana', 'Lee', 'Dana', 'Lee']);
    const txt = await call(core.router, 'library.export', { id: first.recordingId, format: 'txt' });
    expect([...txt.content.matchAll(/^(Dana|Lee): /gm)].map((m) => m[1])).toEqual(['Dana', 'Lee', 'Dana', 'Lee']);
    const vtt = await call(core.router, 'library.export', { id: first.recordingId, format: 'vtt' });
    expect(vtt.content).toMatch(/^WEBVTT/);
    const docx = await call(core.router, 'library.export', { id: first.recordingId, format: 'docx' });
    expect(docx.encoding).toBe('base64');

    await expect(call(core.router, 'jobs.addSpeakers', { id: first.recordingId })).rejects.toThrow(/has speakers already/);
  });

  /** A finished live session whose recording is the two-voice file; its live words are labelled You/Others by turn when both sources ran. */
  function liveSession(c: Core, sources: ('mic' | 'system')[]): string {
    const s = c.library.sessions.create({ title: 'Call', sources, recordOnly: false, recordingMime: 'audio/wav', region: 'local', baseUrl: null, options: {} });
    c.library.sessions.appendAudio(s.recordingId, readFileSync(wav));
    c.library.sessions.finish(s.recordingId, { durationMs: turns[turns.length - 1]!.end + 800, lostMs: 0, reconnects: 0 });
    // What live captions heard: one word per turn, labelled by source when there were two (A spoke into the mic).
    const words = turns.map((t) => ({
      text: t.text.split(' ')[0]!,
      start: t.start,
      end: t.end,
      confidence: 0.9,
      speaker: sources.length > 1 ? (t.voice === 'A' ? 'You' : 'Others') : null,
    }));
    c.library.transcripts.complete(s.transcriptId, {
      remoteId: null,
      text: words.map((w) => w.text).join(' '),
      words,
      sentences: null,
      paragraphs: null,
      confidence: 0.9,
      language: 'en_us',
      model: 'live',
      durationMs: null,
    });
    return s.recordingId;
  }

  it('Improve accuracy of a two-source live session keeps its You/Others as the speakers', async () => {
    core = makeCore(false);
    const id = liveSession(core, ['mic', 'system']);
    const { jobId } = await call(core.router, 'captions.improve', { id });
    const done = await waitFinal(core.jobs, jobId, 120_000);
    expect(done, JSON.stringify(done.error)).toMatchObject({ status: 'completed' });
    const t = unpackTranscript(await call(core.router, 'library.get', { id }));
    expect(t.words.length).toBeGreaterThan(20);
    expect(t.words.map((w) => w.speaker)).toEqual(t.words.map((w) => (voiceAt(turns, (w.start + w.end) / 2) === 'A' ? 'You' : 'Others')));
    expect(t.speakers.map((s) => s.id).sort()).toEqual(['Others', 'You']);
    await expect(call(core.router, 'jobs.addSpeakers', { id })).rejects.toThrow(/has speakers already/);
  });

  it('a one-source live session gets speakers from Add speakers, as a new improved version', async () => {
    core = makeCore(true);
    const id = liveSession(core, ['mic']);
    const job = await call(core.router, 'jobs.addSpeakers', { id });
    const done = await waitFinal(core.jobs, job.id, 120_000);
    expect(done, JSON.stringify(done.error)).toMatchObject({ status: 'completed' });
    const t = unpackTranscript(await call(core.router, 'library.get', { id }));
    expect(t.speakers.map((s) => s.id)).toEqual(['A', 'B']);
    expect(t.words.map((w) => w.speaker)).toEqual(t.words.map((w) => voiceAt(turns, (w.start + w.end) / 2)));
    const { versions } = await call(core.router, 'captions.versions', { id });
    expect(versions.map((v) => v.kind)).toEqual(['improved', 'live']);
  });

  it('with no speaker models installed, the job fails saying which models to download', async () => {
    core = makeCore(false);
    const { jobs } = await call(core.router, 'jobs.addFiles', { files: [{ kind: 'path', path: wav }] });
    const first = await waitFinal(core.jobs, jobs[0]!.id, 120_000);
    expect(first.status).toBe('completed');
    const job = await call(core.router, 'jobs.addSpeakers', { id: first.recordingId });
    const failed = await waitFinal(core.jobs, job.id, 120_000);
    expect(failed.status).toBe('error');
    expect(failed.error?.message).toMatch(/pyannote segmentation 3\.0.*Settings → Models/);
  });
});
