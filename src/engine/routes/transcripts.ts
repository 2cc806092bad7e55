/**
 * POST/GET/DELETE /v2/transcript and GET /v2/transcript (list). Requests are
 * checked with the wire schema (src/shared/api/transcript.ts): a wrong type or
 * unknown value is a 400 naming the parameter, and what the local engine
 * cannot honour is a 400 saying so.
 */
import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import { rm } from 'node:fs/promises';
import {
  firstIssue,
  OPTIONAL_FEATURE_PARAMS,
  SpeakerOptionsSchema,
  TranscriptRequestSchema,
  type SpeakerOptions,
  type TranscriptList,
} from '../../shared/api/transcript';
import { MAX_SPEAKERS } from '../recognizer/speakers';
import { DEFAULT_SPEECH_MODELS } from '../../shared/defaults';
import type { ModelManifest } from '../../shared/models/catalog';
import { ModelFileError } from '../models/folder';
import { isCloudModel, namedLocalModels, requestLanguage, resolveSpeechModels } from '../models/choose';
import { bestLocalModel } from '../models/best';
import type { EngineContext } from '../context';
import { uploadIdOf } from '../audio/source';
import type { TranscriptParams, TranscriptRow, TranscriptStatus } from '../store';
import { readJson } from './body';
import { sendJson } from './respond';
import { HttpError, type Router } from './router';
import { toWire } from './wire';
import { GatewayError } from '../gateway/gateway';

type TranscriptRequestParsed = z.infer<typeof TranscriptRequestSchema>;

function bad(msg: string): HttpError {
  return new HttpError(400, msg);
}

/** keyterms_prompt on a job: AssemblyAI's pre-recorded cap of 1,000 terms, each a word or short phrase (as live sessions, bounded in length). */
export const REST_KEYTERMS_MAX = 1000;
export const REST_KEYTERM_MAX_CHARS = 100;

function checkKeyterms(terms: readonly string[] | null | undefined): void {
  if (!terms) return;
  if (terms.length > REST_KEYTERMS_MAX)
    throw bad(`keyterms_prompt has ${terms.length} terms; at most ${REST_KEYTERMS_MAX} are allowed. Send the most important ones.`);
  const long = terms.findIndex((t) => t.length > REST_KEYTERM_MAX_CHARS);
  if (long >= 0)
    throw bad(
      `keyterms_prompt[${long}] has ${terms[long]?.length} characters; a keyterm is a word or short phrase of at most ${REST_KEYTERM_MAX_CHARS} characters.`,
    );
}

/** Whether a documented parameter asks for something (null, false and [] ask for nothing). */
function asksFor(v: unknown): boolean {
  return v !== undefined && v !== null && v !== false && !(Array.isArray(v) && v.length === 0);
}

/**
 * A create body checked against the wire schema (strict: unknown parameters
 * are a 400 naming them), then against what the local engine can do.
 */
export function validateCreate(
  body: unknown,
  ctx: { baseUrl: string; allowFileUrls: boolean; installed?: ReadonlyMap<string, ModelManifest>; available?: readonly ModelManifest[] },
): { params: TranscriptParams; webhookAuthValue: string | null } {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw bad('The request body must be a JSON object.');
  // speech_models may name installed local models and pocketsphinx beside the cloud's names.
  let local: ReturnType<typeof resolveSpeechModels>;
  try {
    local = resolveSpeechModels((body as { speech_models?: unknown }).speech_models, ctx.installed ?? new Map());
  } catch (err) {
    throw bad(err instanceof Error ? err.message : String(err));
  }
  const parsed = TranscriptRequestSchema.safeParse(local.names ? { ...body, speech_models: local.forSchema } : body);
  if (!parsed.success) throw bad(firstIssue(parsed.error));
  const b = parsed.data;
  checkKeyterms(b.keyterms_prompt);
  for (const k of OPTIONAL_FEATURE_PARAMS) {
    if (!asksFor(b[k]) || k.startsWith('speaker')) continue;
    throw bad(`${k} is not supported by the local engine; remove it or use a cloud region.`);
  }
  const speakers = speakerParams(b);
  let u: URL;
  try {
    u = new URL(b.audio_url);
  } catch {
    throw bad(`audio_url is not a valid URL: ${b.audio_url.slice(0, 200)}`);
  }
  if (u.protocol === 'file:' && !ctx.allowFileUrls)
    throw bad('audio_url: file:// URLs are disabled on this engine; start it with --allow-file-urls, or upload the file with POST /v2/upload.');
  if (!['http:', 'https:', 'file:'].includes(u.protocol))
    throw bad(`audio_url must be an http(s) URL (or file:// when allowed); got ${u.protocol.slice(0, 20)}`);
  // An AssemblyAI id first runs the best installed model for the language (PocketSphinx when none fits).
  const first = local.names?.[0];
  const asked = b.language_detection ? 'auto' : (b.language_code ?? null);
  const chosen = local.chosen ?? (first !== undefined && isCloudModel(first) ? bestLocalModel(ctx.available ?? [], 'files', asked) : null);
  // A multilingual local model (Whisper) takes the languages it knows, and detects the language when asked.
  let language: string;
  try {
    language = requestLanguage(chosen, b.language_code, b.language_detection);
  } catch (err) {
    throw bad(err instanceof Error ? err.message : String(err));
  }
  // The older single speech_model is honoured as the cloud does, when speech_models is not given.
  const legacy = !b.speech_models && b.speech_model ? b.speech_model : null;
  return {
    params: {
      audio_url: b.audio_url,
      speech_models: legacy ? null : (local.names ?? b.speech_models ?? [...DEFAULT_SPEECH_MODELS]),
      speech_model: legacy,
      language_code: language,
      punctuate: b.punctuate ?? true,
      format_text: b.format_text ?? true,
      disfluencies: b.disfluencies ?? false,
      filter_profanity: b.filter_profanity ?? false,
      keyterms_prompt: b.keyterms_prompt ?? null,
      audio_start_from: b.audio_start_from ?? null,
      audio_end_at: b.audio_end_at ?? null,
      redact_pii: b.redact_pii ?? false,
      redact_pii_policies: b.redact_pii_policies ?? null,
      redact_pii_sub: b.redact_pii_sub ?? null,
      redact_pii_audio: b.redact_pii_audio ?? false,
      redact_pii_audio_quality: b.redact_pii_audio_quality ?? null,
      redact_pii_audio_options: b.redact_pii_audio_options ?? null,
      webhook_url: b.webhook_url ?? null,
      webhook_auth_header_name: b.webhook_auth_header_name ?? null,
      speech_understanding: b.speech_understanding ?? null,
      ...speakers,
    },
    webhookAuthValue: b.webhook_auth_header_value ?? null,
  };
}

/** A speaker count: an integer from 1 to MAX_SPEAKERS; 0 and null mean "not given". */
function speakerCount(v: unknown, name: string): number | null {
  if (v === undefined || v === null || v === 0) return null;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 1 || v > MAX_SPEAKERS) throw bad(`${name} must be an integer from 1 to ${MAX_SPEAKERS}.`);
  return v;
}

/** speaker_labels, speakers_expected and speaker_options, checked and normalized (zero means not given). */
function speakerParams(b: TranscriptRequestParsed): Pick<TranscriptParams, 'speaker_labels' | 'speakers_expected' | 'speaker_options'> {
  const expected = speakerCount(b.speakers_expected, 'speakers_expected');
  let options: SpeakerOptions | null = null;
  if (b.speaker_options) {
    const o = SpeakerOptionsSchema.safeParse(b.speaker_options);
    if (!o.success) throw bad('speaker_options may hold only min_speakers_expected and max_speakers_expected, each an integer.');
    const min = speakerCount(o.data.min_speakers_expected, 'speaker_options.min_speakers_expected');
    const max = speakerCount(o.data.max_speakers_expected, 'speaker_options.max_speakers_expected');
    if (min !== null && max !== null && min > max) throw bad('speaker_options.min_speakers_expected must not be greater than max_speakers_expected.');
    if (min !== null || max !== null) options = { min_speakers_expected: min, max_speakers_expected: max };
  }
  if (!b.speaker_labels && (expected !== null || options)) throw bad('speakers_expected and speaker_options need speaker_labels: true.');
  return { speaker_labels: b.speaker_labels === true, speakers_expected: expected, speaker_options: options };
}

export function getTranscriptOr404(ctx: EngineContext, id: string): TranscriptRow {
  const t = ctx.store.getTranscript(id);
  if (!t) throw new HttpError(404, 'Transcript not found');
  return t;
}

const STATUSES = new Set(['queued', 'processing', 'completed', 'error']);

export function registerTranscripts(ctx: EngineContext, router: Router): void {
  router.post('/v2/transcript', async ({ req, res }) => {
    if (!ctx.jobs.accepting)
      throw new HttpError(503, 'The engine is shutting down and takes no new jobs; submit again once it is back.', { 'retry-after': '5' });
    const body = await readJson(req);
    let installed: Awaited<ReturnType<typeof namedLocalModels>>;
    let available: ModelManifest[];
    try {
      installed = await namedLocalModels(ctx.recognizers.speechModels, body);
      available = await ctx.recognizers.speechModels.list();
    } catch (err) {
      // A named model whose manifest is broken: its fault, named, never the engine's.
      if (err instanceof ModelFileError) throw bad(`speech_models: ${err.message}`);
      throw err;
    }
    const { params, webhookAuthValue } = validateCreate(body, { baseUrl: ctx.baseUrl(), allowFileUrls: ctx.opts.allowFileUrls, installed, available });
    if (params.speaker_labels) {
      const models = await ctx.speakers.models();
      if ('missing' in models) throw bad(models.missing);
    }
    if (params.speech_understanding) {
      await ctx.gateway.refresh();
      try {
        ctx.gateway.checkUnderstanding(params.speech_understanding);
      } catch (err) {
        if (err instanceof GatewayError) throw new HttpError(err.status, err.message);
        throw err;
      }
    }
    const row = ctx.store.insertTranscript(randomUUID(), params, webhookAuthValue);
    ctx.jobs.notify();
    sendJson(res, 200, toWire(row));
  });

  router.get('/v2/transcript/:id', ({ res, params }) => {
    sendJson(res, 200, toWire(getTranscriptOr404(ctx, params.id ?? '')));
  });

  router.delete('/v2/transcript/:id', async ({ res, params }) => {
    const t = getTranscriptOr404(ctx, params.id ?? '');
    ctx.jobs.cancel(t.id);
    const scrubbed = ctx.store.markDeleted(t.id) as TranscriptRow;
    await rm(ctx.store.transcriptDir(t.id), { recursive: true, force: true });
    const up = uploadIdOf(t.params.audio_url, ctx.baseUrl());
    if (up) ctx.store.deleteUpload(up);
    sendJson(res, 200, toWire(scrubbed));
  });

  router.get('/v2/transcript', ({ res, url }) => {
    const q = url.searchParams;
    const limitRaw = q.get('limit');
    const limit = limitRaw === null ? 10 : Number(limitRaw);
    if (!Number.isInteger(limit) || limit < 1 || limit > 200) throw new HttpError(400, 'limit must be an integer from 1 to 200.');
    const status = q.get('status');
    if (status !== null && !STATUSES.has(status)) throw new HttpError(400, 'status must be one of queued, processing, completed, error.');
    const createdOn = q.get('created_on');
    if (createdOn !== null && !/^\d{4}-\d{2}-\d{2}$/.test(createdOn)) throw new HttpError(400, 'created_on must be a date like 2026-03-02.');
    const seqOf = (name: string): number | undefined => {
      const v = q.get(name);
      if (v === null || v === '') return undefined;
      const t = ctx.store.getTranscript(v);
      if (!t) throw new HttpError(400, `${name}: no transcript with id ${v}.`);
      return t.seq;
    };
    const beforeSeq = seqOf('before_id');
    const afterSeq = seqOf('after_id');
    const filters = { status: (status ?? undefined) as TranscriptStatus | undefined, createdOn: createdOn ?? undefined };
    const rows = ctx.store.list({ limit, ...filters, beforeSeq, afterSeq });
    const base = `${ctx.baseUrl()}/v2/transcript`;
    const link = (extra: Record<string, string>): string => {
      const p = new URLSearchParams({ limit: String(limit) });
      if (status) p.set('status', status);
      if (createdOn) p.set('created_on', createdOn);
      for (const [k, v] of Object.entries(extra)) p.set(k, v);
      return `${base}?${p.toString()}`;
    };
    const first = rows[0];
    const last = rows[rows.length - 1];
    const page: TranscriptList = {
      page_details: {
        limit,
        result_count: rows.length,
        current_url: `${base}${url.search}`,
        prev_url: last && ctx.store.hasBeyond(last.seq, 'older', filters) ? link({ before_id: last.id }) : null,
        next_url: first && ctx.store.hasBeyond(first.seq, 'newer', filters) ? link({ after_id: first.id }) : null,
      },
      transcripts: rows.map((t) => ({
        id: t.id,
        resource_url: `${base}/${t.id}`,
        status: t.status,
        created: t.created,
        completed: t.completed,
        audio_url: t.params.audio_url,
        error: t.error,
      })),
    };
    sendJson(res, 200, page);
  });
}
