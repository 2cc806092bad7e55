/**
 * The Sync and Dictation APIs on the engine through the official SDK, unmodified: `client.sync.transcribe`
 * (a WAV path, raw PCM bytes with sample_rate/channels), `transcribeLive` (a stream of chunks), `warm`, and
 * `client.dictation.transcribeLive`, answered from the local recognizer; errors (too long, not WAV/PCM, a
 * bad config, an unknown X-AAI-Model, a wrong key) reach the caller as the SDK's SyncTranscriptError /
 * DictationError with the engine's message and a code. Every other non-/v1/chat route the SDK calls
 * answers errors it can read (LlmGatewayError's message).
 */
import { readFileSync } from 'node:fs';
import { AssemblyAI, DictationError, SyncTranscriptError } from 'assemblyai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEngine } from '../../src/engine/server';
import { wordErrorRate } from '../../src/engine/text/wer';
import { hasSpeechTools, makeSpeech, makeTone } from '../fixtures/speech';
import { engineSandbox } from '../support/engine';

const KEY = 'sync-key';
const TEXT = 'The weather today is sunny with a light wind from the west.';
const sandbox = engineSandbox('verbatim-sync-');
let engine: RunningEngine;
let client: AssemblyAI;
let wav: string;
let pcm: Buffer;

/** The WAV's samples (flite writes 16 kHz mono s16le with a 44-byte header). */
function samplesOf(file: string): Buffer {
  const b = readFileSync(file);
  const data = b.indexOf('data');
  return b.subarray(data + 8);
}

beforeAll(async () => {
  if (!hasSpeechTools()) return;
  wav = makeSpeech(sandbox.dir, 'weather', TEXT);
  pcm = samplesOf(wav);
  engine = await sandbox.start(KEY);
  client = new AssemblyAI({ apiKey: KEY, baseUrl: engine.url, syncBaseUrl: engine.url, dictationBaseUrl: engine.url, llmGatewayBaseUrl: engine.url });
});
afterAll(() => sandbox.cleanup());

async function errorOf(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (err) {
    return err;
  }
  throw new Error('expected the call to fail');
}

describe.skipIf(!hasSpeechTools())('Sync and Dictation APIs', () => {
  it('client.sync.warm answers, and transcribe takes a WAV file and raw PCM, with and without timestamps', async () => {
    expect(await client.sync.warm()).toBe(true);
    expect(await client.sync.warm({ model: 'assemblyai-stt-3-7' })).toBe(true);
    const plain = await client.sync.transcribe(wav);
    expect(wordErrorRate(TEXT, plain.text)).toBeLessThanOrEqual(0.25);
    expect(plain.words.length).toBeGreaterThan(5);
    expect(plain.words.every((w) => w.start === undefined && w.end === undefined && w.confidence >= 0 && w.confidence <= 1)).toBe(true);
    expect(plain.audio_duration_ms).toBe(Math.round((pcm.length / 2 / 16000) * 1000));
    expect(plain.session_id).toMatch(/^[0-9a-f-]{36}$/);
    const timed = await client.sync.transcribe(new Uint8Array(pcm), { sample_rate: 16000, channels: 1, timestamps: true, model: 'universal-3-5-pro' });
    expect(wordErrorRate(TEXT, timed.text)).toBeLessThanOrEqual(0.25);
    for (const w of timed.words) expect((w.end as number) > (w.start as number)).toBe(true);
    expect((timed.words.at(-1)?.end as number) <= timed.audio_duration_ms).toBe(true);
  }, 120_000);

  it('transcribeLive takes the audio as a stream of chunks; keyterms_prompt, prompt and language_codes are taken', async () => {
    async function* chunks(): AsyncGenerator<Uint8Array> {
      for (let i = 0; i < pcm.length; i += 3200) yield new Uint8Array(pcm.subarray(i, i + 3200));
    }
    const r = await client.sync.transcribeLive(chunks(), {
      sample_rate: 16000,
      channels: 1,
      keyterms_prompt: ['weather'],
      prompt: 'A weather report.',
      language_codes: ['en'],
      conversation_context: ['Good morning.'],
    });
    expect(wordErrorRate(TEXT, r.text)).toBeLessThanOrEqual(0.25);
  }, 120_000);

  it('client.dictation transcribes a note (WAV path and raw PCM) and says why there is no LLM rewrite', async () => {
    expect(await client.dictation.warm()).toBe(true);
    const note = await client.dictation.transcribeLive(wav);
    expect(wordErrorRate(TEXT, note.text)).toBeLessThanOrEqual(0.25);
    // The default rewrite, by rules locally: the words as spoken, capitalized, with a full stop.
    expect(note.llm_response).toMatch(/^[A-Z].*\.$/);
    expect(note.final_text).toBe(note.llm_response);
    const pushed = await client.dictation.transcribeLive(new Uint8Array(pcm), { sample_rate: 16000, channels: 1, llm_instruction: 'Make it a list.' });
    expect(wordErrorRate(TEXT, pushed.text)).toBeLessThanOrEqual(0.25);
    expect(pushed.llm_error).toMatch(/does not run an LLM pass/);
    expect(pushed.final_text).toBe(pushed.text);
  }, 120_000);

  it('refuses audio over 120 s, audio that is not WAV or PCM, a bad config and an unknown model, as errors the SDK reads', async () => {
    const long = makeTone(sandbox.dir, 'long', 121);
    const tooLong = (await errorOf(client.sync.transcribe(long))) as SyncTranscriptError;
    expect(tooLong).toBeInstanceOf(SyncTranscriptError);
    expect(tooLong.status).toBe(413);
    expect(tooLong.errorCode).toBe('audio_too_large');
    expect(tooLong.message).toMatch(/121 s long; the sync API takes at most 120 s/);

    const mp3 = (await errorOf(
      client.dictation.transcribeLive(new File([Buffer.from('ID3 not really')], 'note.mp3', { type: 'audio/mpeg' })),
    )) as DictationError;
    expect(mp3).toBeInstanceOf(DictationError);
    expect(mp3.status).toBe(415);
    expect(mp3.errorCode).toBe('unsupported_media_type');
    expect(mp3.message).toMatch(/WAV or raw 16-bit PCM audio, not audio\/mpeg/);

    const notWav = (await errorOf(client.sync.transcribe(new Uint8Array(Buffer.from('this is not audio at all'))))) as SyncTranscriptError;
    expect(notWav.status).toBe(400);
    expect(notWav.errorCode).toBe('bad_audio');
    expect(notWav.message).toMatch(/not a WAV file/);

    const short = (await errorOf(client.sync.transcribe(new Uint8Array(1000), { sample_rate: 16000, channels: 1 }))) as SyncTranscriptError;
    expect([short.status, short.errorCode]).toEqual([400, 'audio_too_short']);
    const odd = (await errorOf(client.sync.transcribe(new Uint8Array(pcm), { sample_rate: 11025, channels: 1 }))) as SyncTranscriptError;
    expect([odd.status, odd.errorCode]).toEqual([415, 'unsupported_media_type']);
    expect(odd.message).toMatch(/11025 Hz/);

    const model = (await errorOf(client.sync.transcribe(wav, { model: 'no-such-model' }))) as SyncTranscriptError;
    expect(model.status).toBe(400);
    expect(model.message).toMatch(/X-AAI-Model: the model "no-such-model" is not installed/);

    const language = (await errorOf(client.sync.transcribe(wav, { language_codes: ['ja'] }))) as SyncTranscriptError;
    expect(language.message).toMatch(/language_codes "ja" is not supported by the local engine/);

    const bad = new AssemblyAI({ apiKey: 'wrong', syncBaseUrl: engine.url });
    const auth = (await errorOf(bad.sync.transcribe(wav))) as SyncTranscriptError;
    expect(auth.status).toBe(401);
    expect(auth.message.length).toBeGreaterThan(10);
  }, 120_000);

  it('answers a one-shot upload without a config part at /v1/transcribe and /transcribe, as the docs send it', async () => {
    for (const path of ['/v1/transcribe', '/transcribe']) {
      const form = new FormData();
      form.append('audio', new Blob([readFileSync(wav)], { type: 'audio/wav' }), 'weather.wav');
      const r = await fetch(`${engine.url}${path}`, { method: 'POST', headers: { authorization: KEY, 'X-AAI-Model': 'universal-3-5-pro' }, body: form });
      expect(r.status, path).toBe(200);
      expect(wordErrorRate(TEXT, ((await r.json()) as { text: string }).text)).toBeLessThanOrEqual(0.25);
    }
  }, 120_000);

  it('the LLM gateway routes other than chat answer errors the SDK reads, and validateUnderstanding is served', async () => {
    const request = { speech_understanding: { request: { custom_formatting: { date: 'mm/dd/yyyy' } } } };
    await expect(client.llmGateway.validateUnderstanding(request as never)).resolves.toBeUndefined();
    const invalid = (await errorOf(client.llmGateway.validateUnderstanding({ speech_understanding: { request: { no_such_feature: {} } } } as never))) as Error;
    expect(invalid.message).not.toMatch(/failed with status/);
    expect(invalid.message).toMatch(/no_such_feature/);
    const missing = (await errorOf(client.llmGateway.understanding({ transcript_id: 'nope', ...request } as never))) as Error;
    expect(missing.message).toBe('Transcript not found');
  });
});
