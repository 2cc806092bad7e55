/**
 * The submit step: create the transcript exactly once. When a create's answer
 * may have been lost (a restart after an attempt, a 5xx, a dropped
 * connection), the service's list is searched before creating again.
 */
import { SPEECH_MODELS, type TranscriptRequest } from '../../../shared/api/transcript';
import type { TranscriptionOptions } from '../../../shared/jobs';
import { withRetries } from '../client/http';
import type { RestClient } from '../client/rest';
import type { JobRow } from '../library/jobs';
import type { JobContext } from './context';
import { jobLocalModel, keytermsWithVocabulary } from './request-extras';

/** The engine's file id: the last path segment of an upload URL. */
export function uploadFileId(url: string): string | null {
  try {
    const seg = new URL(url).pathname.split('/').filter(Boolean).pop();
    return seg ? decodeURIComponent(seg) : null;
  } catch {
    return null;
  }
}

/**
 * A transcript this job already created, if any (newest 200). A local-engine
 * upload is matched by its file id, since the engine's port (and so the URL's
 * host) changes between launches; other URLs by the whole string. A failed
 * transcript is not adopted: a retry after a failure must make a new one.
 */
export async function findCreated(client: RestClient, row: JobRow, audioUrl: string, signal: AbortSignal, createdSinceMs?: number): Promise<string | null> {
  const page = await client.list({ limit: 200 });
  if (signal.aborted) return null;
  const byFileId = row.region === 'local' && row.source_kind !== 'url';
  const fileId = byFileId ? uploadFileId(audioUrl) : null;
  const same = (url: string) => (fileId !== null ? uploadFileId(url) === fileId : url === audioUrl);
  const recent = (created: string) =>
    createdSinceMs === undefined || Date.parse(/[zZ]|[+-]\d\d:?\d\d$/.test(created) ? created : `${created}Z`) >= createdSinceMs;
  return page.transcripts.find((t) => typeof t.audio_url === 'string' && same(t.audio_url) && t.status !== 'error' && recent(t.created))?.id ?? null;
}

/**
 * Create once for this audio URL. An upload URL is unique to this job; a
 * public URL may have been submitted by other jobs, so only a transcript
 * created since this job's last attempt counts.
 */
export async function createOnce(ctx: JobContext, row: JobRow, audioUrl: string, maybeCreated: boolean, signal: AbortSignal): Promise<string> {
  const since = row.source_kind === 'url' ? Date.parse(row.updated_at) - 5000 : undefined;
  const find = () => ctx.call(row, signal, (c) => findCreated(c, row, audioUrl, signal, since));
  if (maybeCreated) {
    const found = await find();
    if (found) return found;
  }
  const params = await createParams(ctx, row, audioUrl);
  return withRetries(
    async (_attempt, previous) => {
      // A 429 means "not created"; after a 5xx or a dropped connection it may have been.
      if (previous && previous.code !== 'rate_limited') {
        const found = await find().catch(() => null);
        if (found) return found;
      }
      const client = await ctx.client(row, signal);
      return (await client.create(params, signal)).id;
    },
    signal,
    { ...ctx.retry, onRetry: (err, attempt, delay) => ctx.log(`job ${row.id}: create answered ${err.code}, retry ${attempt} in ${Math.round(delay)} ms`) },
  );
}

const WIRE_NAMES: [keyof TranscriptionOptions, string][] = [
  ['speechModels', 'speech_models'],
  ['languageCode', 'language_code'],
  ['punctuate', 'punctuate'],
  ['formatText', 'format_text'],
  ['disfluencies', 'disfluencies'],
  ['filterProfanity', 'filter_profanity'],
  ['keytermsPrompt', 'keyterms_prompt'],
  ['speakerLabels', 'speaker_labels'],
  ['speakersExpected', 'speakers_expected'],
  ['redactPii', 'redact_pii'],
  ['redactPiiPolicies', 'redact_pii_policies'],
  ['redactPiiSub', 'redact_pii_sub'],
  ['redactPiiAudio', 'redact_pii_audio'],
  ['redactPiiAudioQuality', 'redact_pii_audio_quality'],
  ['audioStartFrom', 'audio_start_from'],
  ['audioEndAt', 'audio_end_at'],
];
const OFF_WHEN_FALSE = new Set<keyof TranscriptionOptions>(['speakerLabels', 'redactPii', 'redactPiiAudio', 'disfluencies', 'filterProfanity']);

/** The create request's body from the job's options (API.md §3), with the webhook that applies to its service. */
export async function createParams(ctx: JobContext, row: JobRow, audioUrl: string): Promise<TranscriptRequest> {
  const o = JSON.parse(row.options) as TranscriptionOptions;
  // Filled from the options table below; the service checks the values (the engine with the same schema).
  const p: TranscriptRequest & Record<string, unknown> = { audio_url: audioUrl };
  for (const [k, wire] of WIRE_NAMES) {
    const v = o[k];
    if (v === undefined || v === null) continue;
    if (Array.isArray(v) && v.length === 0) continue;
    if (OFF_WHEN_FALSE.has(k) && v === false) continue;
    p[wire] = v;
  }
  const keyterms = keytermsWithVocabulary(o, ctx.settings.get().vocabulary);
  if (keyterms.length) p.keyterms_prompt = keyterms;
  if (!o.redactPii) {
    delete p.redact_pii_policies;
    delete p.redact_pii_sub;
    delete p.redact_pii_audio;
    delete p.redact_pii_audio_quality;
  }
  const localDefault = row.region === 'local' ? (jobLocalModel(o) ?? ctx.settings.get().models.files) : '';
  if (localDefault) {
    // The default local model for files (Settings → Models), by its catalog name.
    (p as Record<string, unknown>).speech_models = [localDefault];
  } else if (row.region === 'local') {
    // The local engine runs PocketSphinx for cloud names, but refuses names it does not know (slam-1…).
    const known = o.speechModels?.filter((m): m is (typeof SPEECH_MODELS)[number] => (SPEECH_MODELS as readonly string[]).includes(m)) ?? [];
    if (known.length) p.speech_models = known;
    else delete p.speech_models;
  }
  if (row.region === 'local' && ctx.webhooks) {
    await ctx.webhooks.start();
    Object.assign(p, ctx.webhooks.params(row.id));
  } else {
    const s = ctx.settings.get();
    if (s.webhookUrl) {
      ctx.library.webhooks.begin(row.transcript_id, s.webhookUrl);
      p.webhook_url = s.webhookUrl;
      if (s.webhookAuthHeaderName) {
        p.webhook_auth_header_name = s.webhookAuthHeaderName;
        p.webhook_auth_header_value = ctx.settings.webhookAuthHeaderValue();
      }
    }
  }
  return p;
}
