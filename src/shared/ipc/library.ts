/** The library (offline): recordings, transcripts, exports, backups, and search. */
import { z } from 'zod';
import { exportFormatSchema, libraryItemSchema, libraryListInputSchema, searchHitSchema, webhookStatusSchema } from '../library';
import { transcriptWireSchema } from '../transcript-wire';
import { exportFileSchema } from '../subtitles/schema';
import { none, idInput, captionChars, okOutput, type Contracts } from './common';

export const libraryChannels = {
  // ── library (offline) ───────────────────────────────────────────────────
  /** A page of recordings with their latest transcript's state. `total` counts all matches. */
  'library.list': {
    input: z.lazy(() => libraryListInputSchema.optional()),
    output: z.lazy(() => z.object({ items: z.array(libraryItemSchema), total: z.number().int().nonnegative() })),
  },
  /**
   * One recording with its full transcript (words, sentences, paragraphs, speakers, saved cues); `not_found` if gone.
   * Its words and spans cross as columns (transcript-wire.ts); the renderer unpacks them (unpackTranscript).
   */
  /**
   * A transcript. `firstWords` asks for its first screen only (an open paints that, then asks for
   * the rest): the paragraphs up to the one that holds that word, marked `partial`.
   */
  'library.get': {
    input: z.lazy(() => z.object({ id: z.string().min(1), firstWords: z.number().int().min(1).max(100_000).optional() }).strict()),
    output: transcriptWireSchema,
  },
  'library.rename': { input: z.lazy(() => z.object({ id: z.string().min(1), title: z.string().trim().min(1).max(300) }).strict()), output: libraryItemSchema },
  /** Replace the item's tags (trimmed, deduplicated, case kept). */
  'library.setTags': {
    input: z.lazy(() => z.object({ id: z.string().min(1), tags: z.array(z.string().trim().min(1).max(60)).max(50) }).strict()),
    output: libraryItemSchema,
  },
  /** Every tag in use with how many items carry it. */
  'library.tags': { input: none, output: z.lazy(() => z.object({ tags: z.array(z.object({ name: z.string(), count: z.number().int() })) })) },
  /** Delete items locally (audio copy included); `remote: true` also deletes them on the service. */
  'library.delete': {
    input: z.lazy(() => z.object({ ids: z.array(z.string().min(1)).min(1).max(1000), remote: z.boolean().default(false) }).strict()),
    output: z.lazy(() => z.object({ deleted: z.number().int(), remoteErrors: z.array(z.object({ id: z.string(), message: z.string() })) })),
  },
  /** Correct words (by index into `words`); the text, sentences and search index follow. */
  'library.correctWords': {
    input: z.lazy(() =>
      z
        .object({
          id: z.string().min(1),
          edits: z
            .array(z.object({ index: z.number().int().nonnegative(), text: z.string().min(1).max(200) }))
            .min(1)
            .max(5000),
        })
        .strict(),
    ),
    output: transcriptWireSchema,
  },
  /** Name a speaker ("A" → "Dana"); null clears the name. */
  'library.renameSpeaker': {
    input: z.lazy(() => z.object({ id: z.string().min(1), speaker: z.string().min(1).max(20), name: z.string().trim().max(100).nullable() }).strict()),
    output: transcriptWireSchema,
  },
  /**
   * Text of an export, made in main by the one export pipeline (services/library/exports.ts):
   * txt (paragraphs, speaker names when known), srt / vtt (the cues the Subtitles view shows:
   * its edits, else built from the words by its rules profile), json (the whole transcript), docx.
   * `voices`: VTT `<v Name>` tags. `charsPerCaption` is an explicit rebuild: the cues made afresh
   * from the words with lines of that length, edits ignored. The renderer saves it. The library,
   * a transcript and the Subtitles view all export through this one pair (with `library.saveExport`).
   */
  'library.export': {
    input: z.lazy(() =>
      z
        .object({
          id: z.string().min(1),
          format: exportFormatSchema,
          voices: z.boolean().optional(),
          charsPerCaption: captionChars,
          /** SRT/VTT of a live session with translated lines: the original (default), the translation, or both (one cue a turn). */
          captionText: z.enum(['original', 'translation', 'both']).optional(),
          /** SRT/VTT of a translated subtitle track: the source line above the translation in each cue. */
          bilingual: z.boolean().optional(),
        })
        .strict(),
    ),
    /** Text, or base64 for DOCX (`encoding`). */
    output: exportFileSchema,
  },
  /**
   * Ask the service now what the user's webhook server answered for this
   * transcript (main also follows it by itself for a few minutes after
   * completion). `webhook: null` when it was sent without one.
   */
  'library.checkWebhook': { input: idInput, output: z.lazy(() => z.object({ webhook: webhookStatusSchema.nullable() })) },
  /**
   * Desktop app: save exports through the system's dialogs (one transcript: a
   * save dialog; several: a folder, one file each, never overwriting). Nothing
   * is written when the user cancels. Host mode answers `unavailable`: a
   * browser downloads `library.export` instead. `voices`, `charsPerCaption`: as there.
   */
  'library.saveExport': {
    input: z.lazy(() =>
      z
        .object({
          ids: z.array(z.string().min(1)).min(1).max(1000),
          format: exportFormatSchema,
          voices: z.boolean().optional(),
          charsPerCaption: captionChars,
          bilingual: z.boolean().optional(),
        })
        .strict(),
    ),
    output: z.lazy(() =>
      z.object({
        canceled: z.boolean(),
        files: z.array(z.object({ id: z.string(), path: z.string() })),
        errors: z.array(z.object({ id: z.string(), message: z.string() })),
      }),
    ),
  },
  /** Show a file that `library.saveExport` saved in the system's file manager (other paths: `forbidden`). */
  'library.revealExport': { input: z.lazy(() => z.object({ path: z.string().min(1).max(4096) }).strict()), output: okOutput },
  /** A URL the renderer can put in <audio src>: the local copy (or redacted copy) of the recording; null if none. */
  'library.mediaUrl': {
    input: z.lazy(() => z.object({ id: z.string().min(1), redacted: z.boolean().default(false) }).strict()),
    output: z.lazy(() => z.object({ url: z.string().nullable() })),
  },
  /** Back up the whole library into `dir` (created; must be empty): library.json + audio/; remembered voices only when the `backupVoiceprints` setting is on. */
  'library.exportAll': {
    input: z.lazy(() => z.object({ dir: z.string().min(1) }).strict()),
    output: z.lazy(() => z.object({ dir: z.string(), items: z.number().int(), audioFiles: z.number().int() })),
  },
  /**
   * Restore a backup made by exportAll; items already present (same id) are
   * skipped. Progress arrives as `library.importProgress`; `notes` says what
   * was left out (links, FIFOs, rows over the limits). `conflict` while
   * another import runs; `canceled` after library.importCancel (nothing kept).
   */
  'library.importAll': {
    input: z.lazy(() => z.object({ dir: z.string().min(1).max(4096) }).strict()),
    output: z.lazy(() => z.object({ imported: z.number().int(), skipped: z.number().int(), notes: z.array(z.string()) })),
  },
  /** Cancel the running backup import: what it added so far is removed. Answers whether one was running. */
  'library.importCancel': { input: none, output: z.lazy(() => z.object({ canceled: z.boolean() })) },

  // ── search ──────────────────────────────────────────────────────────────
  /**
   * Full-text search over every transcript's sentences, best first. Words are
   * matched as prefixes ("transcr" finds "transcription"); "quoted phrases"
   * match exactly. Each hit opens its transcript at `startMs`.
   */
  'search.query': {
    input: z.lazy(() =>
      z
        .object({
          query: z.string().trim().min(1).max(500),
          tag: z.string().optional(),
          limit: z.number().int().min(1).max(200).default(50),
          offset: z.number().int().nonnegative().default(0),
          /** Only what this remembered voice (People) said: sentences of the speakers recognised or named as it. */
          voiceId: z.string().min(1).max(200).optional(),
        })
        .strict(),
    ),
    output: z.lazy(() => z.object({ hits: z.array(searchHitSchema).max(200), tookMs: z.number() })),
  },
} as const satisfies Contracts;
