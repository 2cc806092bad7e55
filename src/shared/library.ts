/**
 * Shared types of the library (DESIGN.md §6) as the renderer sees them: list
 * items, a full transcript with its words, sentences, paragraphs, speakers and
 * edited cues, and search hits. Times are integer milliseconds.
 */
import { z } from 'zod';
import { JOB_STATUSES } from './job-states';
import { jobErrorSchema, serviceRegionSchema } from './jobs';
import { lazySchemas } from './lazy-schemas';

// Made on first use (lazy-schemas.ts): each schema below is a z.lazy of the one build() makes, by the same name.
const schemas = lazySchemas(build);

/** A transcript carries its job's state (the library list shows it). */
export const transcriptStatusSchema = z.lazy(() => schemas().transcriptStatusSchema);
export type TranscriptStatus = z.infer<typeof transcriptStatusSchema>;

/** One row of the library list: a recording with its latest transcript. */
export const libraryItemSchema = z.lazy(() => schemas().libraryItemSchema);
export type LibraryItem = z.infer<typeof libraryItemSchema>;

export const wordSchema = z.lazy(() => schemas().wordSchema);
export type Word = z.infer<typeof wordSchema>;

/** A span of words [firstWord, lastWord] (inclusive indexes into `words`). */
export const spanSchema = z.lazy(() => schemas().spanSchema);
export type Span = z.infer<typeof spanSchema>;

export const speakerSchema = z.lazy(() => schemas().speakerSchema);

export const cueSchema = z.lazy(() => schemas().cueSchema);
export type Cue = z.infer<typeof cueSchema>;

/**
 * The user's own webhook for a transcript (Settings → Webhook) and what its
 * server answered the service (`webhook_status_code`). `pending`: no answer
 * seen yet; `retrying`: the service got a non-2xx answer or none and tries
 * again; `delivered`: a 2xx; `failed`: a 4xx, or retries ran out.
 */
export const webhookStatusSchema = z.lazy(() => schemas().webhookStatusSchema);
export type WebhookStatus = z.infer<typeof webhookStatusSchema>;

export const transcriptSchema = z.lazy(() => schemas().transcriptSchema);
export type Transcript = z.infer<typeof transcriptSchema>;

export const librarySortSchema = z.lazy(() => schemas().librarySortSchema);

export const libraryListInputSchema = z.lazy(() => schemas().libraryListInputSchema);

export const exportFormatSchema = z.lazy(() => schemas().exportFormatSchema);
export type ExportFormat = z.infer<typeof exportFormatSchema>;

/** A piece of a snippet; `match` pieces are the query terms (render as <mark>). */
export const snippetPartSchema = z.lazy(() => schemas().snippetPartSchema);

export const searchHitSchema = z.lazy(() => schemas().searchHitSchema);
export type SearchHit = z.infer<typeof searchHitSchema>;

export const libraryChangedSchema = z.lazy(() => schemas().libraryChangedSchema);

function build() {
  const transcriptStatusSchema = z.enum(JOB_STATUSES);

  const libraryItemSchema = z.object({
    id: z.string(),
    title: z.string(),
    /** Original file name, or the URL for URL jobs, or "Live session". */
    source: z.string(),
    createdAt: z.string(),
    updatedAt: z.string(),
    /** When the transcript completed (null until then, and for failed ones). */
    completedAt: z.string().nullable(),
    durationMs: z.number().int().nonnegative().nullable(),
    status: transcriptStatusSchema,
    error: jobErrorSchema.nullable(),
    region: serviceRegionSchema,
    /** The service's transcript id; never mixed across regions. */
    remoteId: z.string().nullable(),
    language: z.string().nullable(),
    model: z.string().nullable(),
    wordCount: z.number().int().nonnegative(),
    tags: z.array(z.string()),
    /** A local copy of the audio exists: playable through `library.mediaUrl`. */
    hasAudio: z.boolean(),
    /** A redacted (beeped) copy exists. */
    hasRedactedAudio: z.boolean(),
    /** First ~200 characters of the text. */
    preview: z.string(),
  });

  const wordSchema = z.object({
    text: z.string(),
    start: z.number().int(),
    end: z.number().int(),
    confidence: z.number(),
    speaker: z.string().nullable(),
    /** What the service heard, when the user corrected this word (absent or null: never corrected). */
    original: z.string().nullable().optional(),
  });

  const spanSchema = z.object({
    text: z.string(),
    start: z.number().int(),
    end: z.number().int(),
    firstWord: z.number().int().nonnegative(),
    lastWord: z.number().int().nonnegative(),
    speaker: z.string().nullable(),
  });

  const speakerSchema = z.object({
    /** As the service labels it: "A", "B", … */
    id: z.string(),
    /** The name the user gave, or null. */
    name: z.string().nullable(),
  });

  const cueSchema = z.object({
    start: z.number().int().nonnegative(),
    end: z.number().int().nonnegative(),
    text: z.string(),
  });

  const webhookStatusSchema = z.object({
    /** Scheme, host and path only: a query may carry the team's secret. */
    url: z.string(),
    state: z.enum(['pending', 'retrying', 'delivered', 'failed']),
    statusCode: z.number().int().nullable(),
    /** When Verbatim last asked the service; null = not yet. */
    checkedAt: z.string().nullable(),
  });

  const transcriptSchema = z.object({
    item: libraryItemSchema,
    transcriptId: z.string(),
    text: z.string(),
    confidence: z.number().nullable(),
    words: z.array(wordSchema),
    sentences: z.array(spanSchema),
    paragraphs: z.array(spanSchema),
    speakers: z.array(speakerSchema),
    /** Subtitle cues as last saved by the editor; null = never edited (build from words). */
    cues: z.array(cueSchema).nullable(),
    /** The options it was transcribed with (camelCase, see TranscriptionOptions). */
    options: z.record(z.string(), z.unknown()),
    /** The user's webhook for this transcript, or null when none was set. */
    webhook: webhookStatusSchema.nullable(),
  });

  const librarySortSchema = z.enum(['created', 'updated', 'title', 'duration']);

  const libraryListInputSchema = z
    .object({
      sort: librarySortSchema.default('created'),
      order: z.enum(['asc', 'desc']).default('desc'),
      status: z.array(transcriptStatusSchema).max(50).optional(),
      tag: z.string().optional(),
      /** ISO dates (inclusive) on createdAt. */
      from: z.string().optional(),
      to: z.string().optional(),
      /** Case-insensitive substring of the title. */
      title: z.string().max(200).optional(),
      offset: z.number().int().nonnegative().default(0),
      limit: z.number().int().min(1).max(500).default(100),
    })
    .strict();

  const exportFormatSchema = z.enum(['txt', 'srt', 'vtt', 'json', 'docx', 'md']);

  const snippetPartSchema = z.object({ text: z.string(), match: z.boolean() });

  const searchHitSchema = z.object({
    recordingId: z.string(),
    title: z.string(),
    /** The sentence that matched, cut around the terms. */
    snippet: z.array(snippetPartSchema),
    /** Where the sentence starts in the audio: open the transcript there. */
    startMs: z.number().int().nonnegative(),
    /** Lower is better (FTS5 bm25). */
    rank: z.number(),
  });

  const libraryChangedSchema = z.object({
    ids: z.array(z.string()),
    reason: z.enum(['added', 'updated', 'deleted', 'imported']),
  });
  return {
    transcriptStatusSchema,
    libraryItemSchema,
    wordSchema,
    spanSchema,
    speakerSchema,
    cueSchema,
    webhookStatusSchema,
    transcriptSchema,
    librarySortSchema,
    libraryListInputSchema,
    exportFormatSchema,
    snippetPartSchema,
    searchHitSchema,
    libraryChangedSchema,
  };
}
