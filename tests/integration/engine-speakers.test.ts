/**
 * speaker_labels on the local engine over real HTTP, read by the official `assemblyai` SDK: two flite
 * voices talk in turns (A/B/A/B), each turn marked by a quiet tone that the tiny diarization models hear
 * as the voice (tests/fixtures/models/speakers.ts), while the engine's own recognizer reads the words. Also
 * the 400s (no models installed, bad counts) and a broken model that fails its job while the engine lives on.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { AssemblyAI } from 'assemblyai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEngine } from '../../src/engine/server';
import { TranscriptSchema } from '../../src/shared/api/transcript';
import {
  installModel,
  installTinySpeakerModels,
  MARKS,
  markedConversation,
  tinySegmentation,
  TWO_VOICES,
  voiceAt,
  wavBytes,
  type Turn,
} from '../fixtures/models/speakers';
import { engineSandbox, type EngineSandbox } from '../support/engine';

const KEY = 'test-key-speakers';
let sandbox: EngineSandbox;
let engine: RunningEngine;
let client: AssemblyAI;
let wav: string;
let turns: Turn[];

async function api(e: RunningEngine, path: string, body?: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${e.url}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { authorization: KEY, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

beforeAll(async () => {
  sandbox = engineSandbox('engine-speakers-');
  const models = join(sandbox.dir, 'models');
  installTinySpeakerModels(models, { segmentation: { hz: MARKS }, embedding: { hz: MARKS } });
  const talk = markedConversation(join(sandbox.dir, 'talk'), TWO_VOICES);
  turns = talk.turns;
  wav = join(sandbox.dir, 'two-voices.wav');
  writeFileSync(wav, wavBytes(talk.pcm));
  engine = await sandbox.start(KEY, { modelsDir: models, speakerAdaptation: false });
  client = new AssemblyAI({ apiKey: KEY, baseUrl: engine.url });
});

afterAll(() => sandbox.cleanup());

/** The voice whose turn holds each word's midpoint. */
const expectedVoices = (words: { start: number; end: number }[]) => words.map((w) => voiceAt(turns, (w.start + w.end) / 2));

describe('speaker labels on the local engine', () => {
  it('labels a two-voice file: the SDK reads words[].speaker and utterances that follow the turns', async () => {
    const t = await client.transcripts.transcribe({ audio: wav, speaker_labels: true }, { pollingInterval: 200 });
    expect(t.status).toBe('completed');
    expect(t.speaker_labels).toBe(true);
    const words = t.words ?? [];
    expect(words.length).toBeGreaterThan(20);
    expect(words.map((w) => w.speaker)).toEqual(expectedVoices(words));
    const utterances = t.utterances ?? [];
    expect(utterances.map((u) => u.speaker)).toEqual(['A', 'B', 'A', 'B']);
    utterances.forEach((u, i) => {
      const turn = turns[i] as Turn;
      expect(u.start).toBeGreaterThanOrEqual(turn.start - 300);
      expect(u.end).toBeLessThanOrEqual(turn.end + 300);
    });
    for (const u of t.utterances ?? []) expect(u.words.every((w) => w.speaker === u.speaker)).toBe(true);
    // The engine's own answer is the strict wire shape.
    const raw = await api(engine, `/v2/transcript/${t.id}`);
    expect(() => TranscriptSchema.parse(raw.body)).not.toThrow();
    // Sentences and paragraphs, like the cloud's, never span two speakers.
    const sentences = await client.transcripts.sentences(t.id);
    for (const s of sentences.sentences) expect(new Set(s.words.map((w) => w.speaker))).toEqual(new Set([s.speaker]));
    const paragraphs = await client.transcripts.paragraphs(t.id);
    expect(paragraphs.paragraphs.map((p) => p.words[0]?.speaker)).toEqual(['A', 'B', 'A', 'B']);
    for (const p of paragraphs.paragraphs) expect(new Set(p.words.map((w) => w.speaker)).size).toBe(1);
  });

  it('takes speakers_expected and speaker_options in the SDK shape and echoes them', async () => {
    const t = await client.transcripts.transcribe(
      { audio: wav, speaker_labels: true, speakers_expected: 2, speaker_options: { min_speakers_expected: 1, max_speakers_expected: 3 } },
      { pollingInterval: 200 },
    );
    expect(t.status).toBe('completed');
    expect(t.speakers_expected).toBe(2);
    expect(t.speaker_options).toEqual({ min_speakers_expected: 1, max_speakers_expected: 3 });
    expect((t.words ?? []).map((w) => w.speaker)).toEqual(expectedVoices(t.words ?? []));
    const one = await client.transcripts.transcribe({ audio: wav, speaker_labels: true, speakers_expected: 1 }, { pollingInterval: 200 });
    expect(new Set((one.words ?? []).map((w) => w.speaker))).toEqual(new Set(['A']));
  });

  it('without speaker_labels, words have no speaker and there are no utterances', async () => {
    const t = await client.transcripts.transcribe({ audio: wav }, { pollingInterval: 200 });
    expect(t.speaker_labels).toBe(false);
    expect(t.utterances ?? null).toBeNull();
    expect((t.words ?? []).every((w) => w.speaker === null)).toBe(true);
  });

  it('answers 400 for counts it cannot honour, naming the parameter', async () => {
    const cases: [unknown, RegExp][] = [
      [{ speakers_expected: 2 }, /speakers_expected and speaker_options need speaker_labels: true/],
      [{ speaker_labels: true, speakers_expected: 11 }, /speakers_expected must be an integer from 1 to 10/],
      [{ speaker_labels: true, speakers_expected: 1.5 }, /speakers_expected must be an integer/],
      [{ speaker_labels: true, speaker_options: { min_speakers_expected: 3, max_speakers_expected: 2 } }, /min_speakers_expected must not be greater/],
      [{ speaker_labels: true, speaker_options: { most: 2 } }, /speaker_options may hold only min_speakers_expected and max_speakers_expected/],
    ];
    for (const [extra, message] of cases) {
      const r = await api(engine, '/v2/transcript', { audio_url: `${engine.url}/v2/files/none`, ...(extra as object) });
      expect(r.status, JSON.stringify(extra)).toBe(400);
      expect(r.body.error).toMatch(message);
    }
  });
});

describe('speaker labels without working models', () => {
  it('answers 400 naming the models to download when none is installed', async () => {
    const bare = await sandbox.start(KEY, { data: 'bare', modelsDir: join(sandbox.dir, 'no-models') });
    const r = await api(bare, '/v2/transcript', { audio_url: 'https://example.com/a.mp3', speaker_labels: true });
    expect(r.status).toBe(400);
    expect(r.body.error).toMatch(/speaker_labels needs speaker diarization models .*pyannote segmentation 3\.0 .*Settings → Models/);
  });

  it('a segmentation model without num_classes (sherpa-onnx would exit in its constructor) fails its job before loading; the engine answers on', async () => {
    const models = join(sandbox.dir, 'no-classes-models');
    installTinySpeakerModels(models, { segmentation: { hz: MARKS, omit: ['num_classes'] }, embedding: { hz: MARKS } });
    const e = await sandbox.start(KEY, { data: 'no-classes', modelsDir: models, speakerAdaptation: false });
    const c = new AssemblyAI({ apiKey: KEY, baseUrl: e.url });
    const failed = await c.transcripts.transcribe({ audio: wav, speaker_labels: true }, { pollingInterval: 200 });
    expect(failed.status).toBe('error');
    expect(failed.error).toMatch(
      /The segmentation model .* lacks the metadata num_classes; it cannot be used for speaker labels\. Delete it and download it again/,
    );
    expect((await fetch(`${e.url}/health`)).status).toBe(200);
  });

  it('a model that crashes sherpa-onnx fails its job with a clear error; the engine answers on and transcribes the next file', async () => {
    const models = join(sandbox.dir, 'broken-models');
    installTinySpeakerModels(models, { embedding: { hz: MARKS } });
    installModel(models, 'tiny-segmentation', 'segmentation', tinySegmentation({ hz: MARKS, failsWhenRun: true }));
    const e = await sandbox.start(KEY, { data: 'broken', modelsDir: models, denoise: false, speakerAdaptation: false });
    const c = new AssemblyAI({ apiKey: KEY, baseUrl: e.url });
    const failed = await c.transcripts.transcribe({ audio: wav, speaker_labels: true }, { pollingInterval: 200 });
    expect(failed.status).toBe('error');
    expect(failed.error).toMatch(/Speaker diarization failed with the models tiny-segmentation and tiny-embedding .*delete and download them again/);
    expect((await fetch(`${e.url}/health`)).status).toBe(200);
    const plain = await c.transcripts.transcribe({ audio: wav }, { pollingInterval: 200 });
    expect(plain.status).toBe('completed');
    expect((plain.words ?? []).length).toBeGreaterThan(20);
  });
});
