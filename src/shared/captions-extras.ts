/**
 * Live captions' additions over the run: translated lines of final turns
 * (target language, the queue that may drop them) and "What did I miss?"
 * summaries of a stretch of the session with their citations.
 */
import { z } from 'zod';
import { lazySchemas } from './lazy-schemas';

// Made on first use (lazy-schemas.ts): each schema below is a z.lazy of the one build() makes, by the same name.
const schemas = lazySchemas(build);

/** A target language: a BCP 47 tag of the common form (`fr`, `pt-BR`, `zh-Hans`). */
export const captionLanguageSchema = z.lazy(() => schemas().captionLanguageSchema);

/** Languages offered in the picker (the model may do others; the code travels as it is). */
export const CAPTION_LANGUAGES: ReadonlyArray<{ code: string; name: string }> = [
  { code: 'ar', name: 'Arabic' },
  { code: 'zh', name: 'Chinese' },
  { code: 'nl', name: 'Dutch' },
  { code: 'en', name: 'English' },
  { code: 'fr', name: 'French' },
  { code: 'de', name: 'German' },
  { code: 'hi', name: 'Hindi' },
  { code: 'it', name: 'Italian' },
  { code: 'ja', name: 'Japanese' },
  { code: 'ko', name: 'Korean' },
  { code: 'pl', name: 'Polish' },
  { code: 'pt', name: 'Portuguese' },
  { code: 'ru', name: 'Russian' },
  { code: 'es', name: 'Spanish' },
  { code: 'sv', name: 'Swedish' },
  { code: 'tr', name: 'Turkish' },
  { code: 'uk', name: 'Ukrainian' },
];

export function languageName(code: string): string {
  return CAPTION_LANGUAGES.find((l) => l.code === code)?.name ?? code;
}

/** One final turn's translation. */
export const liveTranslationSchema = z.lazy(() => schemas().liveTranslationSchema);
export type LiveTranslation = z.infer<typeof liveTranslationSchema>;

/** What translation is doing for the run: off, on (with the model), or unavailable with the reason; and how many lines were dropped. */
export const translationStatusSchema = z.lazy(() => schemas().translationStatusSchema);
export type TranslationStatus = z.infer<typeof translationStatusSchema>;

export const captionsTranslateInputSchema = z.lazy(() => schemas().captionsTranslateInputSchema);

/** "What did I miss?": the last N minutes, or since a moment of the run (ms from its start). */
export const missedInputSchema = z.lazy(() => schemas().missedInputSchema);

export const missedCitationSchema = z.lazy(() => schemas().missedCitationSchema);

export const missedSummarySchema = z.lazy(() => schemas().missedSummarySchema);
export type MissedSummary = z.infer<typeof missedSummarySchema>;

/** A final turn's translation as the saved session keeps it (times in ms from the run's start, as the turn's). */
export const savedTranslationSchema = z.lazy(() => schemas().savedTranslationSchema);
export type SavedTranslation = z.infer<typeof savedTranslationSchema>;

function build() {
  const captionLanguageSchema = z
    .string()
    .trim()
    .regex(/^[a-z]{2,3}(-[A-Za-z0-9]{2,8})?$/, 'a language code such as fr or pt-BR');

  const liveTranslationSchema = z.object({
    run: z.number().int(),
    key: z.string(),
    language: z.string(),
    text: z.string(),
  });

  const translationStatusSchema = z.object({
    run: z.number().int().nullable(),
    language: z.string().nullable(),
    state: z.enum(['off', 'on', 'unavailable']),
    /** The model that translates (null when none), and where the text goes: 'local' (nothing leaves) or the cloud's region. */
    model: z.string().nullable(),
    region: z.string().nullable(),
    /** Final turns left untranslated because translation fell behind, since the run started. */
    dropped: z.number().int().nonnegative(),
    /** The most final turns that waited for translation at once (the queue holds a few at most). */
    maxDepth: z.number().int().nonnegative().default(0),
    /** A sentence for the user (why unavailable, lines dropped), or null. */
    message: z.string().nullable(),
  });

  const captionsTranslateInputSchema = z.object({ language: captionLanguageSchema.nullable() }).strict();

  const missedInputSchema = z
    .object({ minutes: z.union([z.literal(2), z.literal(5), z.literal(10)]).optional(), sinceMs: z.number().int().nonnegative().optional() })
    .strict()
    .refine((x) => (x.minutes === undefined) !== (x.sinceMs === undefined), 'Give either minutes or sinceMs.');

  const missedCitationSchema = z.object({ startMs: z.number().int(), label: z.string() });

  const missedSummarySchema = z.object({
    id: z.string(),
    recordingId: z.string(),
    /** The stretch asked about (ms from the run's start). */
    fromMs: z.number().int(),
    toMs: z.number().int(),
    status: z.enum(['streaming', 'done', 'stopped', 'error']),
    content: z.string(),
    /** Moments the summary cites, each a turn of the stretch. */
    citations: z.array(missedCitationSchema),
    model: z.string().nullable(),
    /** The offline model quotes the turns instead of writing a summary. */
    extractive: z.boolean(),
    error: z.string().nullable(),
    createdAt: z.string(),
    /** "What did I miss?" (absent: that), or the session's summary written at Stop. */
    kind: z.enum(['missed', 'meeting']).optional(),
    /** The template the summary at Stop was written to. */
    template: z.string().optional(),
    /** Bullets whose cited moments do not say what they state (marked in `content`). */
    unsupported: z.number().int().nonnegative().optional(),
    /** While a long stretch is read in parts: `done` of `total` parts have notes. */
    parts: z.object({ done: z.number().int().nonnegative(), total: z.number().int().positive() }).optional(),
  });

  const savedTranslationSchema = z.object({
    key: z.string(),
    startMs: z.number().int(),
    endMs: z.number().int(),
    original: z.string(),
    language: z.string(),
    text: z.string(),
  });
  return {
    captionLanguageSchema,
    liveTranslationSchema,
    translationStatusSchema,
    captionsTranslateInputSchema,
    missedInputSchema,
    missedCitationSchema,
    missedSummarySchema,
    savedTranslationSchema,
  };
}
