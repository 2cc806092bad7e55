/**
 * One transcription job: fetch/resolve the audio → ffmpeg decode to 16 kHz
 * mono → segment → recognize segment by segment → format → redact → result.
 * A `JobFailure` is the file's fault (its message goes to the client as is);
 * anything else is the engine's fault and says the file may be submitted again.
 */
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { BYTES_PER_SECOND, DecodeError, decodeToRaw, looksLikeHtml, NARROWBAND_BELOW_HZ, probeSampleRate } from '../audio/decode';
import { renderRedactedAudio } from '../audio/redact';
import { suppressNoise } from '../audio/denoise';
import { findSpeechSegments } from '../audio/segment';
import { isLoopbackListen } from '../audio/fetch-guard';
import { resolveSource, SourceError } from '../audio/source';
import { LocalModelError } from '../recognizer/engine-set';
import { keytermWarning, type RecognizedWord } from '../recognizer/index';
import type { JobContext } from '../context';
import type { TranscriptResult, TranscriptRow } from '../store';
import { formatTranscript, round3 } from '../text/format';
import { redactPii, SUPPORTED_PII_POLICIES } from '../text/pii';
import { JobFailure } from './failure';
import { recognizeSegments, SegmentFeed } from './recognize-segments';
import { startSpeakers } from './speakers';

export { JobFailure } from './failure';

export const MIN_AUDIO_MS = 160;

export interface JobOutput {
  result: TranscriptResult;
  redactedAudioPath: string | null;
}

export async function processJob(ctx: JobContext, job: TranscriptRow, signal: AbortSignal): Promise<JobOutput> {
  const p = job.params;
  const dir = ctx.store.transcriptDir(job.id);
  await mkdir(dir, { recursive: true });
  const raw = join(dir, 'audio.raw');
  let source;
  try {
    source = await resolveSource(p.audio_url, join(dir, 'download'), {
      store: ctx.store,
      baseUrl: ctx.baseUrl(),
      allowFileUrls: ctx.opts.allowFileUrls,
      allowPrivateUrls: ctx.opts.allowPrivateUrls ?? isLoopbackListen(ctx.opts.host),
      limits: ctx.opts.fetchLimits,
      maxFetchBytes: ctx.opts.maxFetchBytes,
      fetchTimeoutMs: ctx.opts.fetchTimeoutMs,
      signal,
    });
  } catch (err) {
    if (err instanceof SourceError) throw new JobFailure(err.message);
    throw err;
  }
  try {
    if (await looksLikeHtml(source.path)) {
      throw new JobFailure('The file is a web page (HTML), not audio or video. Use a direct link to the media file, not to a page that shows it.');
    }
    let samples: number;
    try {
      samples = await decodeToRaw(source.path, raw, { startMs: p.audio_start_from, endMs: p.audio_end_at, signal });
    } catch (err) {
      if (err instanceof DecodeError) throw new JobFailure(err.message);
      throw err;
    }
    const durationMs = (samples / BYTES_PER_SECOND) * 2 * 1000;
    if (durationMs < MIN_AUDIO_MS) throw new JobFailure('Audio duration is too short.');
    // The installed model speech_models names (checked and loaded in the native worker), else PocketSphinx.
    let chosen: Awaited<ReturnType<JobContext['recognizers']['forJob']>>;
    try {
      chosen = await ctx.recognizers.forJob(p);
    } catch (err) {
      if (err instanceof LocalModelError) throw new JobFailure(err.message);
      throw err;
    }
    const { recognizer, local, adapter } = chosen;

    const warnings: string[] = [];
    if (p.keyterms_prompt?.length) {
      // Readies a decoder with the terms (the segments below reuse it) and says what became of them.
      const w = keytermWarning(recognizer.prepareKeyterms ? await recognizer.prepareKeyterms(p.keyterms_prompt) : null);
      if (w) warnings.push(w);
    }
    // Diarization hears the audio before noise suppression, in its own worker beside recognition.
    const speakers = p.speaker_labels ? await startSpeakers(ctx, p, { raw, copyPath: join(dir, 'speakers.raw'), samples, signal }) : null;
    if (ctx.opts.denoise !== false) await suppressNoise(raw, samples, signal, (m) => ctx.logger.warn(`job ${job.id}: ${m}`));
    // Segments are decoded as the detector finds them; a failed decode stops the detector before the job ends.
    const feed = new SegmentFeed();
    const stopFinding = new AbortController();
    const finding = findSpeechSegments(raw, samples, { signal: AbortSignal.any([signal, stopFinding.signal]), onSegment: (s) => feed.push(s) }).then(
      () => feed.end(),
      (err: unknown) => feed.fail(err),
    );
    const rate = adapter ? await probeSampleRate(source.path, raw, signal) : null;
    const { bySegment } = await recognizeSegments({
      raw,
      segments: feed,
      recognizer,
      adapter,
      narrowband: rate !== null && rate < NARROWBAND_BELOW_HZ,
      keyterms: p.keyterms_prompt ?? undefined,
      workDir: join(dir, 'adapt'),
      signal,
      warn: (m) => ctx.logger.warn(`job ${job.id}: ${m}`),
    })
      .catch(async (err: unknown) => {
        stopFinding.abort();
        await finding;
        // A local model that fails or crashes its worker is the model's fault: say so, as the job's error.
        throw err instanceof LocalModelError ? new JobFailure(err.message) : err;
      })
      .finally(() => finding);
    const segments = feed.list;
    const rawWords: RecognizedWord[] = [];
    const offset = p.audio_start_from ?? 0;
    segments.forEach((seg, i) => {
      const segMs = Math.round((seg.start / 16000) * 1000);
      for (const w of bySegment[i] ?? []) rawWords.push({ ...w, start: w.start + segMs + offset, end: w.end + segMs + offset });
    });

    if (local && !local.timedWords) warnings.push(local.approximateNote());
    // A model that writes its own punctuation and capitals (Parakeet) keeps them; ours is for the others.
    const own = local?.punctuates === true;
    let { words, sentences, text } = formatTranscript(rawWords, { punctuate: p.punctuate && !own, formatText: p.format_text && !own });
    let redactedAudioPath: string | null = null;
    if (p.redact_pii) {
      const policies = p.redact_pii_policies?.length ? p.redact_pii_policies : SUPPORTED_PII_POLICIES;
      const r = redactPii(words, sentences, policies, p.redact_pii_sub ?? 'hash');
      ({ words, sentences, text } = r);
      if (p.redact_pii_audio) {
        const quality = p.redact_pii_audio_quality ?? 'mp3';
        redactedAudioPath = join(dir, `redacted.${quality}`);
        await renderRedactedAudio(
          raw,
          r.spans.map((s) => ({ start: s.start - offset, end: s.end - offset })),
          redactedAudioPath,
          quality,
          p.redact_pii_audio_options?.override_audio_redaction_method === 'silence' ? 'silence' : 'beep',
        );
      }
    }
    let utterances: TranscriptResult['utterances'];
    if (speakers) {
      const labelled = await speakers.apply(words, sentences, offset);
      ({ words, sentences, utterances } = labelled);
      if (labelled.warning) warnings.push(labelled.warning);
    }
    const confidence = words.length ? round3(words.reduce((a, w) => a + w.confidence, 0) / words.length) : null;
    let understanding: Pick<TranscriptResult, 'speech_understanding' | 'translated_texts'> = {};
    if (p.speech_understanding) {
      // A failed understanding step must not lose the transcript: say why in warnings.
      try {
        understanding = await ctx.gateway.understand({ text, utterances: utterances ?? null }, p.speech_understanding, signal);
      } catch (err) {
        const why = `${err instanceof Error ? err.message : String(err)}; run it again with POST /v1/understanding.`;
        warnings.push(`speech_understanding failed: ${why}`);
        // The transcript says so itself: each feature asked for answers status "error" with the reason.
        const request = ((p.speech_understanding as { request?: Record<string, unknown> }).request ?? {}) as Record<string, unknown>;
        const response = Object.fromEntries(Object.keys(request).map((k) => [k, { status: 'error', error: why }]));
        understanding = { speech_understanding: { request, response } };
      }
    }
    // Warnings have no field in the spec's closed Transcript: they go to the engine's log.
    for (const w of warnings) ctx.logger.warn(`job ${job.id}: ${w}`);
    return {
      result: {
        text,
        words,
        sentences,
        confidence,
        audio_duration: Math.round(durationMs / 1000),
        speech_model_used: local ? local.name : 'pocketsphinx',
        warnings,
        ...(utterances ? { utterances } : {}),
        ...understanding,
      },
      redactedAudioPath,
    };
  } finally {
    await rm(raw, { force: true });
    await rm(join(dir, 'adapt'), { recursive: true, force: true });
    if (source.temporary) await rm(source.path, { force: true });
  }
}
