/**
 * POST/GET/DELETE /v2/transcript and GET /v2/transcript (list), with full
 * parameter validation: a wrong type or unknown value is a 400 naming the
 * parameter, and what the local engine cannot honour is a 400 saying so.
 */
import { randomUUID } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { PII_POLICIES, SPEECH_MODELS, type PiiPolicy } from '../../shared/api/transcript';
import type { TranscriptParams } from '../model';
import type { EngineContext } from '../context';
import { uploadIdOf } from '../audio/source';
import type { TranscriptRow, TranscriptStatus } from '../store';
import { readJson } from './body';
import { sendJson } from './respond';
import { HttpError, type Router } from './router';
import { toWire } from './wire';
import { GatewayError } from '../gateway/gateway';

const ENGLISH = new Set(['en', 'en_us', 'en_uk', 'en_au']);
/** Documented features the local engine does not implement. */
const UNSUPPORTED_FEATURES = [
  'speaker_labels', 'speakers_expected', 'speaker_options', 'sentiment_analysis', 'entity_detection', 'auto_highlights', 'auto_chapters',
  'summarization', 'summary_model', 'summary_type', 'content_safety', 'content_safety_confidence', 'iab_categories', 'multichannel',
  'custom_spelling', 'prompt', 'temperature', 'language_confidence_threshold', 'dual_channel', 'word_boost', 'boost_param', 'custom_topics', 'topics',
  'speech_threshold', 'language_detection_options',
];
const KNOWN = new Set([
  'audio_url', 'speech_models', 'speech_model', 'language_code', 'language_detection', 'punctuate', 'format_text', 'disfluencies', 'filter_profanity',
  'keyterms_prompt', 'audio_start_from', 'audio_end_at', 'redact_pii', 'redact_pii_policies', 'redact_pii_sub', 'redact_pii_audio',
  'redact_pii_audio_quality', 'webhook_url', 'webhook_auth_header_name', 'webhook_auth_header_value', 'speech_understanding', ...UNSUPPORTED_FEATURES,
]);

function bad(msg: string): HttpError {
  return new HttpError(400, msg);
}

function optBool(b: Record<string, unknown>, k: string, dflt: boolean): boolean {
  const v = b[k];
  if (v === undefined || v === null) return dflt;
  if (typeof v !== 'boolean') throw bad(`${k} must be a boolean (true or false).`);
  return v;
}

function optInt(b: Record<string, unknown>, k: string): number | null {
  const v = b[k];
  if (v === undefined || v === null) return null;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 0) throw bad(`${k} must be a non-negative integer number of milliseconds.`);
  return v;
}

function optStr(b: Record<string, unknown>, k: string): string | null {
  const v = b[k];
  if (v === undefined || v === null) return null;
  if (typeof v !== 'string') throw bad(`${k} must be a string.`);
  return v;
}

function optStrArray(b: Record<string, unknown>, k: string): string[] | null {
  const v = b[k];
  if (v === undefined || v === null) return null;
  if (!Array.isArray(v) || !v.every((x) => typeof x === 'string')) throw bad(`${k} must be an array of strings.`);
  return v as string[];
}

export function validateCreate(body: unknown, ctx: { baseUrl: string; allowFileUrls: boolean }): { params: TranscriptParams; webhookAuthValue: string | null } {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw bad('The request body must be a JSON object.');
  const b = body as Record<string, unknown>;
  for (const k of Object.keys(b)) {
    if (!KNOWN.has(k)) throw bad(`Unknown parameter ${k}.`);
  }
  for (const k of UNSUPPORTED_FEATURES) {
    const v = b[k];
    if (v === undefined || v === null || v === false || (Array.isArray(v) && v.length === 0)) continue;
    if (k.startsWith('speaker')) throw bad('speaker_labels is not supported by the local engine (no speaker diarization); remove speaker_labels, speakers_expected and speaker_options, or use a cloud region.');
    throw bad(`${k} is not supported by the local engine; remove it or use a cloud region.`);
  }
  const audioUrl = b.audio_url;
  if (audioUrl === undefined || audioUrl === null || audioUrl === '') throw bad('audio_url is required: the URL of the audio, or the upload_url from POST /v2/upload.');
  if (typeof audioUrl !== 'string') throw bad('audio_url must be a string.');
  let u: URL;
  try {
    u = new URL(audioUrl);
  } catch {
    throw bad(`audio_url is not a valid URL: ${audioUrl}`);
  }
  if (u.protocol === 'file:' && !ctx.allowFileUrls) throw bad('audio_url: file:// URLs are disabled on this engine; start it with --allow-file-urls, or upload the file with POST /v2/upload.');
  if (!['http:', 'https:', 'file:'].includes(u.protocol)) throw bad(`audio_url must be an http(s) URL (or file:// when allowed); got ${u.protocol}`);

  let speechModels = optStrArray(b, 'speech_models');
  const single = optStr(b, 'speech_model');
  if (!speechModels && single) speechModels = [single];
  speechModels ??= ['universal-3-pro', 'universal-2'];
  if (!speechModels.length) throw bad('speech_models must list at least one model.');
  for (const m of speechModels) {
    if (!(SPEECH_MODELS as readonly string[]).includes(m)) throw bad(`speech_models: unknown model "${m}"; use ${SPEECH_MODELS.join(', ')}.`);
  }
  const language = (optStr(b, 'language_code') ?? 'en_us').toLowerCase();
  if (!ENGLISH.has(language)) throw bad(`language_code "${language}" is not supported by the local engine, which transcribes English only (en, en_us, en_uk, en_au).`);
  if (optBool(b, 'language_detection', false)) throw bad('language_detection is not supported by the local engine, which transcribes English only; set language_code instead.');

  const keyterms = optStrArray(b, 'keyterms_prompt');
  const start = optInt(b, 'audio_start_from');
  const end = optInt(b, 'audio_end_at');
  if (start !== null && end !== null && end <= start) throw bad('audio_end_at must be greater than audio_start_from.');

  const redact = optBool(b, 'redact_pii', false);
  const policiesRaw = optStrArray(b, 'redact_pii_policies');
  if (policiesRaw) {
    for (const p of policiesRaw) if (!(PII_POLICIES as readonly string[]).includes(p)) throw bad(`redact_pii_policies: unknown policy "${p}"; use ${PII_POLICIES.join(', ')}.`);
  }
  const sub = optStr(b, 'redact_pii_sub');
  if (sub !== null && sub !== 'hash' && sub !== 'entity_name') throw bad('redact_pii_sub must be "hash" or "entity_name".');
  const redactAudio = optBool(b, 'redact_pii_audio', false);
  if (redactAudio && !redact) throw bad('redact_pii_audio needs redact_pii: true.');
  const quality = optStr(b, 'redact_pii_audio_quality');
  if (quality !== null && quality !== 'mp3' && quality !== 'wav') throw bad('redact_pii_audio_quality must be "mp3" or "wav".');

  const webhookUrl = optStr(b, 'webhook_url');
  if (webhookUrl !== null) {
    try {
      const w = new URL(webhookUrl);
      if (w.protocol !== 'http:' && w.protocol !== 'https:') throw new Error();
    } catch {
      throw bad('webhook_url must be an http(s) URL.');
    }
  }
  const hName = optStr(b, 'webhook_auth_header_name');
  const hValue = optStr(b, 'webhook_auth_header_value');
  if ((hName === null) !== (hValue === null)) throw bad('webhook_auth_header_name and webhook_auth_header_value must be given together.');
  if (hName !== null && !/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(hName)) throw bad('webhook_auth_header_name is not a valid HTTP header name.');
  const su = b.speech_understanding;
  if (su !== undefined && su !== null && (typeof su !== 'object' || Array.isArray(su))) throw bad('speech_understanding must be an object.');

  return {
    params: {
      audio_url: audioUrl,
      speech_models: speechModels,
      language_code: language,
      punctuate: optBool(b, 'punctuate', true),
      format_text: optBool(b, 'format_text', true),
      disfluencies: optBool(b, 'disfluencies', false),
      filter_profanity: optBool(b, 'filter_profanity', false),
      keyterms_prompt: keyterms,
      audio_start_from: start,
      audio_end_at: end,
      redact_pii: redact,
      redact_pii_policies: policiesRaw as PiiPolicy[] | null,
      redact_pii_sub: sub,
      redact_pii_audio: redactAudio,
      redact_pii_audio_quality: quality,
      webhook_url: webhookUrl,
      webhook_auth_header_name: hName,
      speech_understanding: su ?? null,
    },
    webhookAuthValue: hValue,
  };
}

export function getTranscriptOr404(ctx: EngineContext, id: string): TranscriptRow {
  const t = ctx.store.getTranscript(id);
  if (!t) throw new HttpError(404, 'Transcript not found');
  return t;
}

const STATUSES = new Set(['queued', 'processing', 'completed', 'error']);

export function registerTranscripts(ctx: EngineContext, router: Router): void {
  router.post('/v2/transcript', async ({ req, res }) => {
    if (!ctx.jobs.accepting) throw new HttpError(503, 'The engine is shutting down and takes no new jobs; submit again once it is back.', { 'retry-after': '5' });
    const body = await readJson(req);
    const { params, webhookAuthValue } = validateCreate(body, { baseUrl: ctx.baseUrl(), allowFileUrls: ctx.opts.allowFileUrls });
    if (params.speech_understanding) {
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
    sendJson(res, 200, {
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
    });
  });
}
