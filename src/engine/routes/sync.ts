/**
 * The Sync API (the SDK's `client.sync`: POST /v1/transcribe/live, also served at /v1/transcribe/stream, and
 * GET /v1/warm, the model in the X-AAI-Model header) and the Dictation API (`client.dictation`: the same
 * routes on its own host, no model header, `stt_prompt` and `llm_instruction`), answered from the local
 * recognizer: up to 120 s of WAV or PCM audio in, the finished transcript out in the one response. An
 * AssemblyAI model id runs the engine's best installed model for the language (PocketSphinx when none);
 * an installed model's id runs that model. Errors are problem details the SDK's error classes read
 * (routes/errors.ts). `warm` answers at once and readies the recognizer behind it.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolveServiceModel, SYNC_DEFAULT_MODEL } from '../../shared/api/service-models';
import { BUILTIN_SPEECH_MODEL, type ModelManifest } from '../../shared/models/catalog';
import { findSpeechSegments } from '../audio/segment';
import type { EngineContext } from '../context';
import { bestLocalModel } from '../models/best';
import { requestLanguage } from '../models/choose';
import { LocalModelError } from '../recognizer/engine-set';
import type { RecognizedWord } from '../recognizer/types';
import { formatWords, type StreamWord } from '../streaming/turns';
import { audioLayout, toMono16k } from '../sync/audio';
import { parseSyncConfig, type SyncConfig } from '../sync/config';
import { readSyncParts } from '../sync/multipart';
import { sendJson } from './respond';
import { HttpError, type Router } from './router';

/** The model a request runs (null: PocketSphinx), from its X-AAI-Model header. */
async function modelFor(ctx: EngineContext, header: string | undefined, language: string | null): Promise<ModelManifest | null> {
  const asked = (header ?? '').trim() || null;
  if (asked === BUILTIN_SPEECH_MODEL) return null;
  if (asked !== null && !resolveServiceModel('prerecorded', asked) && !resolveServiceModel('streaming', asked)) {
    const local = await ctx.recognizers.speechModels.find(asked);
    if (!local)
      throw new HttpError(
        400,
        `X-AAI-Model: the model ${JSON.stringify(asked.slice(0, 100))} is not installed on this engine, nor an AssemblyAI model; use ${SYNC_DEFAULT_MODEL}.`,
      );
    return local;
  }
  return bestLocalModel(await ctx.recognizers.speechModels.list(), 'files', language);
}

/** The language a request asks for: English when it names English or nothing, else its first code. */
function askedLanguage(c: SyncConfig): string | null {
  if (c.languageCodes.length === 0 || c.languageCodes.some((l) => /^en([_-]|$)/i.test(l))) return null;
  return c.languageCodes[0] as string;
}

async function recognize(ctx: EngineContext, model: ModelManifest | null, language: string, pcm: Int16Array, keyterms: string[]): Promise<RecognizedWord[]> {
  let rec;
  try {
    rec = await ctx.recognizers.forJob({ speech_models: [model?.id ?? BUILTIN_SPEECH_MODEL], language_code: language });
  } catch (err) {
    if (err instanceof LocalModelError) throw new HttpError(503, err.message, { 'retry-after': '5' });
    throw err;
  }
  const dir = await mkdtemp(join(tmpdir(), 'verbatim-sync-'));
  try {
    const raw = join(dir, 'audio.raw');
    await writeFile(raw, Buffer.from(pcm.buffer, pcm.byteOffset, pcm.byteLength));
    const segments = await findSpeechSegments(raw, pcm.length, { maxSegmentMs: 25_000 });
    const words: RecognizedWord[] = [];
    for (const s of segments) {
      const got = await rec.recognizer.recognize(pcm.subarray(s.start, s.end), keyterms.length ? { keyterms } : {});
      const at = s.start / 16;
      for (const w of got) words.push({ ...w, start: Math.round(w.start + at), end: Math.round(w.end + at) });
    }
    return words;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export function registerSync(ctx: EngineContext, router: Router): void {
  const transcribe = async ({ req, res }: { req: IncomingMessage; res: ServerResponse }) => {
    const began = Date.now();
    const parts = await readSyncParts(req);
    const config = parseSyncConfig(parts.config);
    const header = req.headers['x-aai-model'];
    const dictation = header === undefined;
    const layout = audioLayout(parts.audio.contentType, parts.audio.filename, parts.audio.bytes, {
      ...(config.sampleRate === undefined ? {} : { sample_rate: config.sampleRate }),
      ...(config.channels === undefined ? {} : { channels: config.channels }),
    });
    const asked = askedLanguage(config);
    const model = await modelFor(ctx, Array.isArray(header) ? header[0] : header, asked);
    let language: string;
    try {
      language = requestLanguage(model, asked, false);
    } catch (err) {
      throw new HttpError(400, (err instanceof Error ? err.message : String(err)).replace(/^language_code/, 'language_codes'));
    }
    const { pcm, durationMs } = await toMono16k(layout);
    const started = Date.now();
    const raw = await recognize(ctx, model, language, pcm, config.keyterms);
    const words = formatWords(raw.map((w): StreamWord => ({ ...w, word_is_final: true })));
    const confidence = words.length ? words.reduce((s, w) => s + w.confidence, 0) / words.length : 0;
    const text = words.map((w) => w.text).join(' ');
    sendJson(res, 200, {
      text,
      words: words.map((w) => ({ text: w.text, confidence: w.confidence, ...(config.timestamps ? { start: w.start, end: w.end } : {}) })),
      confidence,
      audio_duration_ms: durationMs,
      session_id: randomUUID(),
      request_time_ms: Date.now() - began,
      ...(dictation
        ? {
            llm_response: config.llmInstruction ? null : dictationCleanup(words),
            llm_error: config.llmInstruction ? 'The local engine does not run an LLM pass over dictations; the transcript is in text.' : null,
            sync_time_ms: Date.now() - started,
          }
        : {}),
    });
  };
  // The SDK posts to /v1/transcribe/live; the service also serves /v1/transcribe/stream, and /v1/transcribe (a
  // one-shot upload, the config part optional) with the unprefixed paths older SDKs and the docs' curl use.
  for (const path of ['/v1/transcribe/live', '/v1/transcribe/stream', '/v1/transcribe', '/transcribe']) router.post(path, transcribe);
  for (const path of ['/v1/warm', '/warm'])
    router.get(path, ({ res }) => {
      // Answers at once; PocketSphinx's decoders load behind it for the request that follows.
      void ctx.recognizers.batch.prewarm?.(1).catch(() => undefined);
      sendJson(res, 200, { status: 'ok' });
    });
}

const FILLERS = new Set(['um', 'uh', 'er', 'erm', 'ah', 'hmm', 'mm']);

/**
 * The Dictation API's default rewrite, by rules (no LLM runs locally): the words without fillers, the first
 * capitalized, a full stop at the end. An llm_instruction is not run; llm_error says so.
 */
export function dictationCleanup(words: readonly { text: string }[]): string | null {
  const kept = words.map((w) => w.text).filter((t) => !FILLERS.has(t.toLowerCase().replace(/[^a-z]/g, '')));
  if (kept.length === 0) return null;
  const text = kept.join(' ');
  const capital = text.charAt(0).toUpperCase() + text.slice(1);
  return /[.!?]$/.test(capital) ? capital : `${capital}.`;
}
