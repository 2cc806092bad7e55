/**
 * The poll step: read the transcript until it is final (fast at first, then
 * backing off; a local-engine webhook may end the wait early), then store the
 * finished transcript in the library with its audio.
 */
import { mkdirSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { AppError } from '../../../shared/errors';
import type { JobError, TranscriptionOptions } from '../../../shared/jobs';
import type { Word } from '../../../shared/library';
import { labelByWords } from '../../../shared/speaker-turns';
import type { WireTranscript } from '../client/rest';
import type { JobRow } from '../library/jobs';
import { spansFromView } from '../library/text';
import type { JobContext } from './context';

export async function poll(ctx: JobContext, row: JobRow, signal: AbortSignal): Promise<void> {
  const remoteId = row.remote_id!;
  let delay = ctx.pollStartMs;
  const hook = row.region === 'local' ? ctx.webhooks : null;
  for (;;) {
    // Subscribe before reading, so a delivery between the GET and the wait is not missed.
    const waiter = hook?.wait(remoteId, signal);
    let t: WireTranscript;
    try {
      t = await ctx.call(row, signal, (c) => c.get(remoteId, signal));
    } catch (e) {
      waiter?.cancel();
      throw e;
    }
    if (t.status === 'completed') {
      waiter?.cancel();
      await finish(ctx, row, t, signal);
      return;
    }
    if (t.status === 'error') {
      waiter?.cancel();
      ctx.transition(row.id, 'error', { error: classifyTranscriptError(t.error ?? 'The service could not transcribe this file.') });
      return;
    }
    if (t.status === 'processing' && ctx.store.must(row.id).status !== 'processing') ctx.transition(row.id, 'processing');
    const jittered = delay * (0.8 + ctx.clock.random() * 0.4);
    await Promise.race([ctx.clock.sleep(jittered, signal), waiter?.promise ?? new Promise(() => undefined)]);
    waiter?.cancel();
    delay = Math.min(ctx.pollCapMs, delay * 2);
  }
}

async function finish(ctx: JobContext, row: JobRow, t: WireTranscript, signal: AbortSignal): Promise<void> {
  let words: Word[] = (t.words ?? []).map((w) => ({ text: w.text, start: w.start, end: w.end, confidence: w.confidence, speaker: w.speaker ?? null }));
  // A two-source live session knows its speakers (You / Others): the improved version keeps them.
  const known = row.source_kind === 'live' ? liveSourceWords(ctx, row.recording_id) : null;
  if (known) words = labelByWords(words, known);
  // Service views are best effort: the library builds its own spans when they fail.
  const [sv, pv] = await Promise.all([
    ctx.call(row, signal, (c) => c.sentences(t.id, signal)).catch(() => null),
    ctx.call(row, signal, (c) => c.paragraphs(t.id, signal)).catch(() => null),
  ]);
  const sentences = t.utterances?.length && !known ? spansFromView(words, t.utterances) : sv?.sentences ? spansFromView(words, sv.sentences) : null;
  const paragraphs = pv?.paragraphs ? spansFromView(words, pv.paragraphs) : null;
  ctx.library.transcripts.complete(row.transcript_id, {
    remoteId: t.id,
    text: t.text ?? '',
    words,
    sentences,
    paragraphs,
    confidence: t.confidence ?? null,
    language: t.language_code ?? null,
    model: t.speech_model_used ?? null,
    durationMs: typeof t.audio_duration === 'number' ? Math.round(t.audio_duration * 1000) : null,
  });
  await keepAudio(ctx, row).catch((e: unknown) => ctx.log(`job ${row.id}: could not keep the audio copy: ${String(e)}`));
  if (t.redact_pii_audio) await fetchRedacted(ctx, row, t.id, signal).catch((e: unknown) => ctx.log(`job ${row.id}: redacted audio: ${String(e)}`));
  ctx.transition(row.id, 'completed', { error: null });
  // After the transcript is stored and shown: the Subtitles view then opens on a waveform made ahead.
  void ctx.library.subtitles
    .precomputePeaks(row.recording_id)
    .catch((e: unknown) => ctx.log(`job ${row.id}: waveform peaks not made ahead (the Subtitles view makes them when opened): ${String(e)}`));
}

/** The words of a live session that captioned both sources (each labelled You or Others), from its live transcript; null otherwise. */
function liveSourceWords(ctx: JobContext, recordingId: string): Word[] | null {
  const session = ctx.library.sessions.session(recordingId);
  if (!session || session.sources.length < 2) return null;
  const words = ctx.library.transcripts.words(session.liveTranscriptId);
  return words.some((w) => w.speaker) ? words : null;
}

/** The library keeps a copy when Settings say so: a staged upload moves in, a file is copied (through the check). */
async function keepAudio(ctx: JobContext, row: JobRow): Promise<void> {
  // A live session's recording is already the library's copy.
  if (row.source_kind === 'url' || row.source_kind === 'live') return;
  const keep = ctx.settings.get().keepAudioCopy;
  if (row.source_kind === 'upload') {
    // A staged upload is named by its id: the copy takes the dropped file's extension.
    if (keep) ctx.library.audio.attach(row.recording_id, row.source, 'original', { move: true, name: row.name });
    else await rm(row.source, { force: true });
    return;
  }
  if (!keep) return;
  // The user's file goes through the check again (a link swapped in since the upload reads nothing outside) and is
  // copied from the opened descriptor into the staging folder, off the event loop, then moved into the library.
  const file = await ctx.files.openPath(row.source, { name: row.name });
  try {
    const staged = await ctx.files.stagedCopy(file);
    ctx.library.audio.attach(row.recording_id, staged, 'original', { move: true, name: row.source });
  } finally {
    await file.close();
  }
}

async function fetchRedacted(ctx: JobContext, row: JobRow, remoteId: string, signal: AbortSignal): Promise<void> {
  for (let i = 0; i < 30; i++) {
    try {
      const r = await ctx.call(row, signal, (c) => c.redactedAudio(remoteId));
      const quality = (JSON.parse(row.options) as TranscriptionOptions).redactPiiAudioQuality ?? 'mp3';
      // Downloaded beside the staged uploads, then attached: only the library writes into its audio folder.
      const staging = join(ctx.library.dataDir, 'uploads');
      mkdirSync(staging, { recursive: true });
      const tmp = join(staging, `${row.recording_id}.redacted.${quality}`);
      await ctx.call(row, signal, (c) => c.download(r.redacted_audio_url, tmp, signal));
      ctx.library.audio.attach(row.recording_id, tmp, 'redacted', { move: true });
      return;
    } catch (e) {
      if (!(e instanceof AppError) || e.code !== 'bad_request') throw e;
      await ctx.clock.sleep(1000, signal);
    }
  }
}

/** A transcript's `error` text to a typed error (API.md §4). */
export function classifyTranscriptError(message: string): JobError {
  const m = message.toLowerCase();
  if (m.includes('too short'))
    return { code: 'audio_too_short', message: `The recording is too short to transcribe (under 160 ms). ${message}`, retryable: false };
  if (m.includes('download error')) return { code: 'file_unreadable', message: `The service could not download the audio. ${message}`, retryable: true };
  if (/unsupported|corrupt|does not appear to contain audio|no audio|not an audio|html/.test(m))
    return { code: 'unsupported_media', message: `This file is not audio or video the service can read. ${message}`, retryable: false };
  if (/submit(ted)? again|try again|internal/.test(m)) return { code: 'server_error_retryable', message, retryable: true };
  return { code: 'server_error', message, retryable: true };
}
