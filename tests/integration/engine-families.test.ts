// Model families beyond the first ones, each through the engine (POST /v2/transcript, speech_models) with a
// tiny model in its upstream exporter's format (tests/fixtures/models/speech.ts names each script):
// SenseVoice (sherpa-onnx's senseVoice config: one CTC model with language/ITN queries, LFR features),
// Moonshine v2 (encoder + merged decoder, base64 tokens with an id-only line) and Whisper large-v3-turbo
// (128 mel bins, int8 files only, turbo-* names), and Parakeet TDT v3 (128 mel bins, *.int8.onnx). Each reads
// the tones as "beep beep boop".
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEngine } from '../../src/engine/server';
import { engineSandbox } from '../support/engine';
import { wavBytes } from '../fixtures/models/speakers';
import { spokenToneSequence, writeTinyModel, type TinyModelKind } from '../fixtures/models/speech';
import { hasSpeechTools } from '../fixtures/speech';

const KEY = 'families-key';
const sandbox = engineSandbox('verbatim-families-');
let engine: RunningEngine;
let uploadUrl: string;
let starts: number[] = [];

interface Wire {
  id: string;
  status: string;
  error?: string;
  words: { text: string; start: number; end: number }[] | null;
}

async function api(path: string, init: RequestInit = {}): Promise<Response> {
  return fetch(`${engine.url}${path}`, { ...init, headers: { authorization: KEY, 'content-type': 'application/json', ...init.headers } });
}

async function transcribe(model: string): Promise<Wire> {
  const created = await api('/v2/transcript', { method: 'POST', body: JSON.stringify({ audio_url: uploadUrl, speech_models: [model] }) });
  expect(created.status, await created.clone().text()).toBe(200);
  const { id } = (await created.json()) as Wire;
  let t: Wire | undefined;
  await expect
    .poll(
      async () => {
        t = (await (await api(`/v2/transcript/${id}`)).json()) as Wire;
        return t.status;
      },
      { timeout: 60_000, interval: 100 },
    )
    .toMatch(/completed|error/);
  return t as Wire;
}

const KINDS: { kind: TinyModelKind; timed: boolean }[] = [
  { kind: 'sense-voice', timed: true },
  { kind: 'moonshine-v2', timed: false },
  { kind: 'whisper-turbo', timed: false },
  { kind: 'parakeet-tdt-v3', timed: true },
];

beforeAll(async () => {
  if (!hasSpeechTools()) return;
  const models = join(sandbox.dir, 'models');
  for (const k of KINDS) writeTinyModel(models, k.kind);
  engine = await sandbox.start(KEY, { modelsDir: models });
  const audio = spokenToneSequence(sandbox.dir);
  starts = audio.starts;
  const up = await fetch(`${engine.url}/v2/upload`, { method: 'POST', headers: { authorization: KEY }, body: new Uint8Array(wavBytes(audio.pcm)) });
  uploadUrl = ((await up.json()) as { upload_url: string }).upload_url;
});
afterAll(() => sandbox.cleanup());

describe.skipIf(!hasSpeechTools())('model families', () => {
  for (const { kind, timed } of KINDS) {
    it(`${kind} transcribes the tones`, async () => {
      const t = await transcribe(`tiny-${kind}`);
      expect(t.status, t.error).toBe('completed');
      const words = t.words ?? [];
      expect(words.map((w) => w.text.toLowerCase().replace(/[^a-z]/g, ''))).toEqual(['beep', 'beep', 'boop']);
      // SenseVoice gives each token's time (LFR frames of 60 ms); the others' are spread over the segment.
      if (timed) words.forEach((w, i) => expect(Math.abs(w.start - (starts[i] as number))).toBeLessThanOrEqual(100));
    });
  }
});
