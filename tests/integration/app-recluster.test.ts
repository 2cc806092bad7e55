/**
 * Re-clustering a recording's speakers from kept voiceprints, through the app's core against the real local
 * engine with the tiny diarization models (tests/fixtures/models/speakers.ts): a two-voice file with speakers
 * is re-clustered as 3, then as 2 and as Auto, with no new recognition (the engine's transcripts are counted:
 * every recognition is one); the voiceprints are taken once and kept in the library; 2 and Auto give the two
 * voices' labels.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCore, type Core } from '../../src/main/core';
import { createHostPlatform } from '../../src/main/platform/host';
import { VoicesService } from '../../src/main/services/voices/service';
import { unpackTranscript } from '../../src/shared/transcript-columns';
import { installTinySpeakerModels, MARKS, markedConversation, TWO_VOICES, voiceAt, wavBytes, type Turn } from '../fixtures/models/speakers';
import { waitFinal } from '../support/jobs';
import { call } from '../support/router';

let root: string;
let wav: string;
let turns: Turn[];
let core: Core;

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'verbatim-recluster-'));
  const talk = markedConversation(join(root, 'talk'), TWO_VOICES);
  turns = talk.turns;
  wav = join(root, 'two-voices.wav');
  writeFileSync(wav, wavBytes(talk.pcm));
  installTinySpeakerModels(join(root, 'data', 'models'), { segmentation: { hz: MARKS }, embedding: { hz: MARKS } });
  const platform = createHostPlatform({ dataDir: join(root, 'data'), version: 't', keyFile: join(root, 'k') });
  core = createCore(platform, () => true, { jobs: { retry: { attempts: 6, baseMs: 50, capMs: 500 } } });
});
afterAll(async () => {
  await core?.dispose();
  rmSync(root, { recursive: true, force: true });
});

/** How many transcripts the engine ran: each one is a recognition. */
async function recognitions(): Promise<number> {
  const h = core.engine.current();
  if (!h) throw new Error('the engine is not running');
  const r = await fetch(`${h.url}/v2/transcript?limit=200`, { headers: { authorization: h.key } });
  return ((await r.json()) as { transcripts: unknown[] }).transcripts.length;
}

describe('re-cluster speakers without recognition', () => {
  it('3 speakers → 2 and Auto from kept voiceprints, with zero new recognitions', async () => {
    const { jobs } = await call(core.router, 'jobs.addFiles', { files: [{ kind: 'path', path: wav }], options: { speakerLabels: true } });
    const first = await waitFinal(core.jobs, jobs[0]!.id, 120_000);
    expect(first, JSON.stringify(first.error)).toMatchObject({ status: 'completed', region: 'local' });
    const id = first.recordingId;
    const before = await recognitions();
    expect(before).toBe(1);
    expect(await call(core.router, 'people.speakerNote', { id })).toBeNull();
    // Three speakers (one voice split in two), from the voiceprints the engine takes now and the library keeps.
    expect(await call(core.router, 'people.recluster', { id, speakers: 3 })).toEqual({ speakers: 3, merged: 0, asked: '3' });
    const three = unpackTranscript(await call(core.router, 'library.get', { id }));
    expect(three.speakers.map((s) => s.id)).toEqual(['A', 'B', 'C']);

    const two = await call(core.router, 'people.recluster', { id, speakers: 2 });
    expect(two).toEqual({ speakers: 2, merged: 0, asked: '2' });
    const t2 = unpackTranscript(await call(core.router, 'library.get', { id }));
    expect(t2.speakers.map((s) => s.id)).toEqual(['A', 'B']);
    expect(t2.words.map((w) => w.speaker)).toEqual(t2.words.map((w) => voiceAt(turns, (w.start + w.end) / 2)));
    expect(t2.transcriptId).toBe(three.transcriptId);
    const kept = core.library.voices.turns(three.transcriptId);
    expect(kept.length).toBeGreaterThanOrEqual(4);
    expect(kept.every((k) => k.model === 'tiny-embedding')).toBe(true);

    // Auto: the kept prints again (no new voiceprint request either: the kept rows are the same objects' values).
    const auto = await call(core.router, 'people.recluster', { id, speakers: null });
    expect(auto).toMatchObject({ speakers: 2, asked: 'auto' });
    expect(await call(core.router, 'people.speakerNote', { id })).toEqual(auto);
    const tAuto = unpackTranscript(await call(core.router, 'library.get', { id }));
    expect(tAuto.words.map((w) => w.speaker)).toEqual(t2.words.map((w) => w.speaker));
    expect(core.library.voices.turns(three.transcriptId)).toEqual(kept);
    expect(await recognitions()).toBe(before);
    // Sentences and paragraphs never span two speakers after relabelling.
    for (const p of tAuto.paragraphs) expect(new Set(tAuto.words.slice(p.firstWord, p.lastWord + 1).map((w) => w.speaker)).size).toBe(1);
  });

  it('Auto folds a phantom speaker (under 1.5 s of speech) into its nearest voice and says so', async () => {
    const lib = core.library;
    const s = lib.sessions.create({
      title: 'Phantom',
      sources: ['mic'],
      recordOnly: false,
      recordingMime: 'audio/wav',
      region: 'local',
      baseUrl: null,
      options: {},
    });
    // Five turns: A, B, a 0.8 s cough-like voice of its own, A, B (each turn four words over 2 s).
    const plan = [
      { voice: 'A', vector: [1, 0, 0], ms: 2000 },
      { voice: 'B', vector: [0, 1, 0], ms: 2000 },
      { voice: 'C', vector: [0.35, 0, 0.94], ms: 800 },
      { voice: 'A', vector: [0.98, 0.1, 0.05], ms: 2000 },
      { voice: 'B', vector: [0.05, 0.99, 0], ms: 2000 },
    ];
    const words: { text: string; start: number; end: number; confidence: number; speaker: string | null }[] = [];
    const kept: { firstWord: number; lastWord: number; start: number; end: number; model: string; vector: Float32Array }[] = [];
    let t = 0;
    for (const p of plan) {
      const first = words.length;
      const n = p.ms >= 2000 ? 4 : 1;
      for (let k = 0; k < n; k++)
        words.push({ text: `w${words.length}.`, start: t + (k * p.ms) / n, end: t + ((k + 1) * p.ms) / n - 50, confidence: 0.9, speaker: p.voice });
      kept.push({ firstWord: first, lastWord: words.length - 1, start: t, end: t + p.ms, model: 'tiny-embedding', vector: Float32Array.from(p.vector) });
      t += p.ms + 1500;
    }
    lib.transcripts.complete(s.transcriptId, {
      remoteId: null,
      text: words.map((w) => w.text).join(' '),
      words,
      sentences: null,
      paragraphs: null,
      confidence: 0.9,
      language: 'en_us',
      model: 'live',
      durationMs: t,
    });
    lib.voices.saveTurns(s.transcriptId, kept);
    // What a finished transcript gets once: its own speakers kept, the phantom folded into its nearest voice.
    const folded = await new VoicesService(lib, lib.voices, core.engine).foldPhantoms(s.recordingId);
    expect(folded).toEqual({ speakers: 2, merged: 1, asked: 'auto' });
    expect(lib.transcripts.get(s.recordingId).words.map((w) => w.speaker)).toEqual([...'AAAA', ...'BBBB', 'A', ...'AAAA', ...'BBBB']);
    expect(await call(core.router, 'people.speakerNote', { id: s.recordingId })).toEqual(folded);
    const note = await call(core.router, 'people.recluster', { id: s.recordingId, speakers: null });
    expect(note).toEqual({ speakers: 2, merged: 1, asked: 'auto' });
    const after = unpackTranscript(await call(core.router, 'library.get', { id: s.recordingId }));
    expect(after.speakers.map((x) => x.id)).toEqual(['A', 'B']);
    // The phantom's word went to A, its nearest voice.
    expect(after.words.map((w) => w.speaker)).toEqual([...'AAAA', ...'BBBB', 'A', ...'AAAA', ...'BBBB']);
    // Asked for three, the short voice stays its own.
    expect(await call(core.router, 'people.recluster', { id: s.recordingId, speakers: 3 })).toEqual({ speakers: 3, merged: 0, asked: '3' });
  });
});
