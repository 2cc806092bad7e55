/**
 * Every AssemblyAI pre-recorded model id of src/shared/api/service-models.ts, through the official SDK
 * against the engine: a job with each id (its aliases and retired ids too) completes on the engine's best
 * installed model, PocketSphinx when none is installed, and speech_model_used names the one that ran.
 * `["assemblyai-stt-3-7"]` and `["assemblyai-stt-3-7", "universal-2"]` (the migration guide's lists) work;
 * an id that is neither AssemblyAI's nor installed is a 400 saying so. keyterms_prompt on a job is bounded
 * as AssemblyAI bounds it (a 60,000-character keyterm is a 400, not a frozen engine).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { AssemblyAI } from 'assemblyai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEngine } from '../../src/engine/server';
import { PRERECORDED_MODELS, serviceModelNames } from '../../src/shared/api/service-models';
import { wavBytes } from '../fixtures/models/speakers';
import { spokenToneSequence, writeTinyModel } from '../fixtures/models/speech';
import { hasSpeechTools, makeSpeech } from '../fixtures/speech';
import { engineSandbox } from '../support/engine';

const KEY = 'service-models-key';
const sandbox = engineSandbox('verbatim-service-models-');
let bare: RunningEngine;
let withModel: RunningEngine;
let clip: string;
let tones: string;

async function post(engine: RunningEngine, body: Record<string, unknown>): Promise<{ status: number; body: { error?: string } }> {
  const r = await fetch(`${engine.url}/v2/transcript`, {
    method: 'POST',
    headers: { authorization: KEY, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: r.status, body: (await r.json()) as { error?: string } };
}

beforeAll(async () => {
  if (!hasSpeechTools()) return;
  clip = makeSpeech(sandbox.dir, 'weather', 'The weather today is sunny with a light wind from the west.');
  bare = await sandbox.start(KEY, { data: 'bare', modelsDir: join(sandbox.dir, 'no-models') });
  const models = join(sandbox.dir, 'models');
  writeTinyModel(models, 'nemo-tdt');
  withModel = await sandbox.start(KEY, { data: 'with-model', modelsDir: models });
  const audio = spokenToneSequence(sandbox.dir);
  tones = join(sandbox.dir, 'tones.wav');
  writeFileSync(tones, wavBytes(audio.pcm));
});
afterAll(() => sandbox.cleanup());

describe.skipIf(!hasSpeechTools())('AssemblyAI model ids on the engine', () => {
  it('runs a job with every pre-recorded id, alias and retired id on PocketSphinx when no model is installed', async () => {
    const client = new AssemblyAI({ apiKey: KEY, baseUrl: bare.url });
    const audio_url = await client.files.upload(clip);
    const lists = [...serviceModelNames('prerecorded').map((id) => [id]), ['assemblyai-stt-3-7'], ['assemblyai-stt-3-7', 'universal-2']];
    expect(lists.length).toBeGreaterThanOrEqual(PRERECORDED_MODELS.length + 2);
    const done = await Promise.all(lists.map((speech_models) => client.transcripts.transcribe({ audio_url, speech_models }, { pollingInterval: 200 })));
    done.forEach((t, i) => {
      expect(t.status, `${JSON.stringify(lists[i])}: ${t.error}`).toBe('completed');
      expect(t.speech_models).toEqual(lists[i]);
      expect(t.speech_model_used).toBe('pocketsphinx');
      expect(String(t.text).toLowerCase()).toMatch(/weather/);
    });
  }, 180_000);

  it('runs an AssemblyAI id on the best installed model, and speech_model_used names it', async () => {
    const client = new AssemblyAI({ apiKey: KEY, baseUrl: withModel.url });
    const audio_url = await client.files.upload(tones);
    for (const speech_models of [['assemblyai-stt-3-7'], ['assemblyai-stt-3-7', 'universal-2']]) {
      const t = await client.transcripts.transcribe({ audio_url, speech_models }, { pollingInterval: 200 });
      expect(t.status, t.error ?? '').toBe('completed');
      expect(t.speech_model_used).toBe('tiny-nemo-tdt');
      expect((t.words ?? []).map((w) => w.text.toLowerCase().replace(/[^a-z]/g, ''))).toEqual(['beep', 'beep', 'boop']);
    }
  }, 120_000);

  it('answers 400 for an id that is neither AssemblyAI’s nor installed, and for keyterms over the bounds', async () => {
    const unknown = await post(bare, { audio_url: 'http://x/a.wav', speech_models: ['universal-9-ultra'] });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error).toMatch(/"universal-9-ultra" is not installed on this engine, nor an AssemblyAI model/);
    const long = await post(bare, { audio_url: 'http://x/a.wav', keyterms_prompt: ['x'.repeat(60_000)] });
    expect(long.status).toBe(400);
    expect(long.body.error).toMatch(/keyterms_prompt\[0\] has 60000 characters; .*at most 100 characters/);
    const many = await post(bare, { audio_url: 'http://x/a.wav', keyterms_prompt: Array.from({ length: 1001 }, (_, i) => `term${i}`) });
    expect(many.status).toBe(400);
    expect(many.body.error).toMatch(/keyterms_prompt has 1001 terms; at most 1000/);
  });
});
