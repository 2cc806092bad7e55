/** Subtitles translated into a second track with the same timings (services/chat/subtitle-translate.ts). */
import { z } from 'zod';
import { idInput, type Contracts } from './common';
import { lazySchemas } from '../lazy-schemas';

// Made on first use (lazy-schemas.ts): each schema below is a z.lazy of the one build() makes, by the same name.
const schemas = lazySchemas(build);

const track = z.lazy(() => schemas().track);
export type TranslationTrackWire = z.infer<typeof track>;

/** Progress of a subtitle translation: `done` of `total` cues of the source (`id`) are in the track `trackId`. */
export const subtitleTranslateProgressSchema = z.lazy(() => schemas().subtitleTranslateProgressSchema);

export const subtitleTranslateChannels = {
  /**
   * Translate the subtitles of `id` into `language` as a second track (a library item of its own, same cue timings),
   * cue by cue with the cues before each part as context, through the chat model `model` (else the default one).
   * A track already there for that language is continued: cues translated before (source unchanged) are not asked again.
   * Answers when the run ends (finished; `canceled` after Stop, the cues done kept).
   */
  'subtitles.translate': {
    input: z.lazy(() => z.object({ id: z.string().min(1), language: z.string().trim().min(1).max(60), model: z.string().min(1).max(300).optional() }).strict()),
    output: track,
  },
  /** Stop the translation running on `id` (what it finished is kept). */
  'subtitles.translateStop': { input: idInput, output: z.lazy(() => z.object({ stopped: z.boolean() })) },
  /** The translated tracks of `id`, and, when `id` is itself a translation, what it was translated from. */
  'subtitles.translations': {
    input: idInput,
    output: z.lazy(() =>
      z.object({
        tracks: z.array(track),
        of: z.object({ sourceId: z.string(), language: z.string() }).nullable(),
        running: subtitleTranslateProgressSchema.nullable(),
      }),
    ),
  },
} as const satisfies Contracts;

function build() {
  const track = z.object({
    id: z.string(),
    title: z.string(),
    language: z.string(),
    /** Cues of the source translated (their source text unchanged since), of `total`. */
    done: z.number().int().nonnegative(),
    total: z.number().int().nonnegative(),
  });

  const subtitleTranslateProgressSchema = z.object({
    id: z.string(),
    trackId: z.string(),
    language: z.string(),
    done: z.number().int().nonnegative(),
    total: z.number().int().nonnegative(),
    running: z.boolean(),
    /** Waiting out the model's rate limit until then (ISO time); null when not. */
    waitingUntil: z.string().nullable(),
  });
  return { track, subtitleTranslateProgressSchema };
}
