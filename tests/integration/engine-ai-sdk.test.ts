/**
 * `@ai-sdk/assemblyai` (the Vercel AI SDK's AssemblyAI provider) against the
 * local engine: its transcription model uploads, submits and polls as it
 * does against the cloud. It has no base-URL setting, so its own `fetch`
 * option sends the cloud's URLs to the engine instead.
 */
import { readFileSync } from 'node:fs';
import { createAssemblyAI } from '@ai-sdk/assemblyai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEngine } from '../../src/engine/server';
import { wordErrorRate } from '../../src/engine/text/wer';
import { CLIPS, makeSpeech } from '../fixtures/speech';
import { engineSandbox, type EngineSandbox } from '../support/engine';

const KEY = 'ai-sdk-key';
let sandbox: EngineSandbox;
let engine: RunningEngine;
let audio: Uint8Array;

beforeAll(async () => {
  sandbox = engineSandbox('engine-ai-sdk-');
  audio = readFileSync(makeSpeech(sandbox.dir, 'phone', CLIPS.phone));
  engine = await sandbox.start(KEY, { workers: 1 });
});

afterAll(() => sandbox.cleanup());

const provider = (key = KEY) =>
  createAssemblyAI({
    apiKey: key,
    fetch: (url, init) => fetch(String(url).replace('https://api.assemblyai.com', engine.url), init),
  });

// The provider polls every 3 s, as it does against the cloud: a transcription takes a few polls.
describe('@ai-sdk/assemblyai against the engine', () => {
  it('transcribes: text, word segments, language, duration', async () => {
    const r = await provider().transcription('universal-2').doGenerate({ audio, mediaType: 'audio/wav' });
    expect(wordErrorRate(CLIPS.phone, r.text)).toBeLessThanOrEqual(0.3);
    expect(r.segments.length).toBeGreaterThan(5);
    expect(r.segments[0]!.startSecond).toBeLessThan(r.segments[0]!.endSecond);
    expect(r.language).toBe('en_us');
    expect(r.durationInSeconds).toBeGreaterThan(2);
  });

  it('passes its provider options: PII redaction with redact_pii_audio_options', async () => {
    const r = await provider()
      .transcription('universal-3-pro')
      .doGenerate({
        audio,
        mediaType: 'audio/wav',
        providerOptions: {
          assemblyai: {
            redactPii: true,
            redactPiiPolicies: ['phone_number', 'person_name'],
            redactPiiSub: 'entity_name',
            redactPiiAudio: true,
            redactPiiAudioOptions: { overrideAudioRedactionMethod: 'silence' },
          },
        },
      });
    expect(r.text).toContain('[PERSON_NAME]');
    expect(r.text.toLowerCase()).not.toContain('sarah');
    expect((r.response.body as { redact_pii_audio_options?: unknown }).redact_pii_audio_options).toEqual({ override_audio_redaction_method: 'silence' });
  });

  it('fails with the engine’s reason for a refused request and a wrong key', async () => {
    await expect(provider().transcription('whisper-big').doGenerate({ audio, mediaType: 'audio/wav' })).rejects.toMatchObject({ statusCode: 400 });
    await expect(provider('wrong').transcription('universal-2').doGenerate({ audio, mediaType: 'audio/wav' })).rejects.toMatchObject({ statusCode: 401 });
  });
});
