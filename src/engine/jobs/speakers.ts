/**
 * The speaker step of a job (speaker_labels): diarize the decoded audio in the
 * native worker, beside recognition, then give each word the speaker at its
 * midpoint and build the utterances. Diarization reads a copy of the audio
 * made before noise suppression (which would take the voices' detail). A
 * diarization failure fails the job with the diarizer's sentence (a model to
 * download again), never the engine.
 */
import { copyFile, rm } from 'node:fs/promises';
import type { Sentence, Utterance, Word } from '../../shared/api/transcript';
import type { JobContext } from '../context';
import { DiarizationError, type DiarizeResult } from '../recognizer/speakers';
import type { TranscriptParams } from '../store';
import { assignSpeakers, buildUtterances, speakSentences } from '../text/speakers';
import { JobFailure } from './failure';

export interface SpeakerStepOutput {
  words: Word[];
  sentences: Sentence[];
  utterances: Utterance[];
  warning: string | null;
}

export interface SpeakerStep {
  /** Waits for diarization and labels the words; `offsetMs`: where the audio starts in the file (audio_start_from). */
  apply(words: Word[], sentences: Sentence[], offsetMs: number): Promise<SpeakerStepOutput>;
}

/**
 * Starts diarizing `raw` (16 kHz s16le, `samples` long) from a copy at `copyPath`, so the job may go on
 * to denoise and recognize the original meanwhile. Fails at once when no models are installed.
 */
export async function startSpeakers(
  ctx: JobContext,
  p: TranscriptParams,
  o: { raw: string; copyPath: string; samples: number; signal: AbortSignal },
): Promise<SpeakerStep> {
  const models = await ctx.speakers.models();
  if ('missing' in models) throw new JobFailure(models.missing);
  await copyFile(o.raw, o.copyPath);
  const running: Promise<DiarizeResult> = ctx.speakers
    .diarize({
      rawPath: o.copyPath,
      samples: o.samples,
      counts: {
        expected: p.speakers_expected ?? null,
        min: p.speaker_options?.min_speakers_expected ?? null,
        max: p.speaker_options?.max_speakers_expected ?? null,
      },
      models,
      signal: o.signal,
    })
    .finally(() => rm(o.copyPath, { force: true }));
  // Awaited in apply(); until then a failure must not count as unhandled.
  running.catch(() => undefined);
  return {
    async apply(words, sentences, offsetMs) {
      let r: DiarizeResult;
      try {
        r = await running;
      } catch (err) {
        if (err instanceof DiarizationError) throw new JobFailure(err.message);
        throw err;
      }
      const turns = r.turns.map((t) => ({ ...t, start: t.start + offsetMs, end: t.end + offsetMs }));
      const labelled = assignSpeakers(words, turns);
      return { words: labelled, sentences: speakSentences(sentences, labelled), utterances: buildUtterances(labelled), warning: r.warning };
    },
  };
}
