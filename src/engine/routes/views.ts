/** Views of a completed transcript: sentences, paragraphs, srt, vtt, word-search, redacted audio. */
import { createReadStream } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { stat } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import type { ParagraphsResponse, RedactedAudioResponse, SentencesResponse, WordSearchResponse } from '../../shared/api/transcript';
import { buildCues, toSrt, toVtt } from '../../shared/subtitles/index';
import type { EngineContext } from '../context';
import type { TranscriptResult, TranscriptRow } from '../store';
import { paragraphsFrom } from '../text/format';
import { wordSearch } from '../text/search';
import { sendJson } from './respond';
import { HttpError, type Router } from './router';
import { getTranscriptOr404 } from './transcripts';

function completed(ctx: EngineContext, id: string): { t: TranscriptRow; r: TranscriptResult } {
  const t = getTranscriptOr404(ctx, id);
  if (t.status !== 'completed' || !t.result || t.deleted) throw new HttpError(400, 'Transcript is not completed');
  return { t, r: t.result };
}

function charsPerCaption(url: URL): number | undefined {
  const v = url.searchParams.get('chars_per_caption');
  if (v === null) return undefined;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1) throw new HttpError(400, 'chars_per_caption must be a positive integer.');
  return n;
}

function sendText(res: ServerResponse, text: string, type: string): void {
  res.writeHead(200, { 'content-type': `${type}; charset=utf-8`, 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

export function registerViews(ctx: EngineContext, router: Router): void {
  router.get('/v2/transcript/:id/sentences', ({ res, params }) => {
    const { t, r } = completed(ctx, params.id ?? '');
    sendJson(res, 200, { id: t.id, confidence: r.confidence, audio_duration: r.audio_duration, sentences: r.sentences } satisfies SentencesResponse);
  });
  router.get('/v2/transcript/:id/paragraphs', ({ res, params }) => {
    const { t, r } = completed(ctx, params.id ?? '');
    sendJson(res, 200, {
      id: t.id,
      confidence: r.confidence,
      audio_duration: r.audio_duration,
      paragraphs: paragraphsFrom(r.sentences),
    } satisfies ParagraphsResponse);
  });
  router.get('/v2/transcript/:id/srt', ({ res, params, url }) => {
    const { r } = completed(ctx, params.id ?? '');
    sendText(res, toSrt(buildCues(r.words, { charsPerCaption: charsPerCaption(url) })), 'text/plain');
  });
  router.get('/v2/transcript/:id/vtt', ({ res, params, url }) => {
    const { r } = completed(ctx, params.id ?? '');
    sendText(res, toVtt(buildCues(r.words, { charsPerCaption: charsPerCaption(url) })), 'text/plain');
  });
  router.get('/v2/transcript/:id/word-search', ({ res, params, url }) => {
    const { t, r } = completed(ctx, params.id ?? '');
    const raw = url.searchParams.get('words');
    if (!raw?.trim()) throw new HttpError(400, 'words is required: a comma-separated list of words or phrases.');
    const items = raw
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    for (const it of items) if (it.split(/\s+/).length > 5) throw new HttpError(400, `words: "${it}" has more than 5 words.`);
    const matches = wordSearch(r.words, items);
    sendJson(res, 200, { id: t.id, total_count: matches.reduce((a, m) => a + m.count, 0), matches } satisfies WordSearchResponse);
  });
  router.get('/v2/transcript/:id/redacted-audio', ({ res, params }) => {
    const t = getTranscriptOr404(ctx, params.id ?? '');
    if (!t.params.redact_pii_audio)
      throw new HttpError(400, 'Redacted audio was not requested for this transcript (create it with redact_pii: true and redact_pii_audio: true).');
    if (t.status !== 'completed' || !t.redactedAudioPath)
      throw new HttpError(400, 'Redacted audio is not ready yet; try again when the transcript is completed.');
    sendJson(res, 200, {
      status: 'redacted_audio_ready',
      redacted_audio_url: `${ctx.baseUrl()}/v2/transcript/${t.id}/redacted-audio/file`,
    } satisfies RedactedAudioResponse);
  });
  router.get('/v2/transcript/:id/redacted-audio/file', async ({ res, params }) => {
    const t = getTranscriptOr404(ctx, params.id ?? '');
    const path = t.redactedAudioPath;
    const st = path ? await stat(path).catch(() => null) : null;
    if (!path || !st) throw new HttpError(404, 'Redacted audio not found');
    res.writeHead(200, { 'content-type': path.endsWith('.mp3') ? 'audio/mpeg' : 'audio/wav', 'content-length': st.size });
    await pipeline(createReadStream(path), res);
  });
}
