/**
 * The speaker step of a job (speaker_labels): diarize the decoded audio in the
 * native worker, give each word the speaker at its midpoint, and build the
 * utterances. A diarization failure fails the job with the diarizer's
 * sentence (a model to download again), never the engine.
 */
import type { Sentence, Utterance, Word } from '../../shared/api/transcript';
import type { JobContext } from '../context';
import { DiarizationError } from '../recognizer/sherpa/diarize';
import type { TranscriptParams } from '../store';
import { assignSpeakers, buildUtterances, speakSentences } from '../text/speakers';
import { JobFailure } from './failure';

export interface SpeakerStepInput {
  raw: string;
  /** Samples in `raw` (16 kHz mono s16le). */
  samples: number;
  /** Where `raw` starts in the file (audio_start_from), in ms. */
  offsetMs: number;
  words: Word[];
  sentences: Sentence[];
  signal: AbortSignal;
}

export interface SpeakerStepOutput {
  words: Word[];
  sentences: Sentence[];
  utterances: Utterance[];
  warning: string | null;
}

export async function labelSpeakers(ctx: JobContext, p: TranscriptParams, input: SpeakerStepInput): Promise<SpeakerStepOutput> {
  const models = await ctx.speakers.models();
  if ('missing' in models) throw new JobFailure(models.missing);
  let turns;
  let warning: string | null;
  try {
    const r = await ctx.speakers.diarize({
      rawPath: input.raw,
      samples: input.samples,
      counts: {
        expected: p.speakers_expected ?? null,
        min: p.speaker_options?.min_speakers_expected ?? null,
        max: p.speaker_options?.max_speakers_expected ?? null,
      },
      models,
      signal: input.signal,
    });
    turns = r.turns.map((t) => ({ ...t, start: t.start + input.offsetMs, end: t.end + input.offsetMs }));
    warning = r.warning;
  } catch (err) {
    if (err instanceof DiarizationError) throw new JobFailure(err.message);
    throw err;
  }
  const words = assignSpeakers(input.words, turns);
  return { words, sentences: speakSentences(input.sentences, words), utterances: buildUtterances(words), warning };
}
