/**
 * The app's IPC contract: every request channel with its input and output
 * schemas, every event with its payload schema. Main validates against it,
 * preload exposes only these names, the renderer's client is typed from it.
 * Both transports (Electron IPC and the host-mode WebSocket) carry exactly
 * these messages.
 */
import { z } from 'zod';
import { errorCodes, type ErrorInfo } from './errors';
import { engineStatusSchema, jobChangedSchema, jobProgressSchema, jobSchema, rateLimitSchema, serviceRegionSchema, transcriptionOptionsSchema } from './jobs';
import { exportFormatSchema, libraryChangedSchema, libraryItemSchema, libraryListInputSchema, searchHitSchema, webhookStatusSchema } from './library';
import { settingsPatchSchema, settingsViewSchema } from './settings';
import { transcriptWireSchema } from './transcript-wire';
import { downloadStatusSchema, modelsListSchema } from './models/view';
import { modelIdSchema } from './models/catalog';
import { modelOfferSchema, speedTestSchema } from './models/offer';
import { exportFileSchema, peaksSchema, rulesProfileSchema, spliceSchema, subtitleDocSchema } from './subtitles/schema';
import { captionsRunSchema, captionsStartInputSchema, captionsStoppedSchema, liveStatusSchema, liveTurnSchema } from './captions';
import {
  chatDetailSchema,
  chatMessageSchema,
  chatModelSchema,
  chatStateSchema,
  chatSummarySchema,
  customFormattingSchema,
  insightKindSchema,
  insightSchema,
} from './chat/schema';

const none = z.undefined();

export const appInfoSchema = z.object({
  name: z.string(),
  version: z.string(),
  platform: z.string(),
  mode: z.enum(['electron', 'host']),
  dataDir: z.string(),
  versions: z.object({ node: z.string(), electron: z.string().nullable(), chrome: z.string().nullable() }),
  /** System packages the local engine needs and that are missing on this machine. */
  missingEnginePackages: z.array(z.string()),
});
export type AppInfo = z.infer<typeof appInfoSchema>;

/**
 * What the renderer may know about the cloud API key. The key itself never
 * crosses IPC: only whether there is one and its last four characters.
 */
export const keyStatusSchema = z.object({
  present: z.boolean(),
  /** "…a1b2" (last four characters), or null when no key. */
  masked: z.string().nullable(),
  /** Where the key comes from: the encrypted vault, or the ASSEMBLYAI_API_KEY environment variable (read-only). */
  source: z.enum(['vault', 'env']).nullable(),
  /** The region the app currently talks to (settings.region). */
  region: serviceRegionSchema,
  /** ISO time of the last successful check against the service, or null. */
  verifiedAt: z.string().nullable(),
  /** Why the last check failed (e.g. offline), or null. */
  lastError: z.object({ code: z.enum(errorCodes), message: z.string() }).nullable(),
  /** false when the platform cannot encrypt (Linux without a keyring): the key cannot be saved. */
  canStore: z.boolean(),
  /** The service origin a saved key was entered for; it is sent nowhere else. null for the environment's key or none. */
  boundTo: z.string().nullable(),
  /** Whether the key may be sent to the service the settings name now (false: enter it again for that address). */
  matchesService: z.boolean(),
});
export type KeyStatus = z.infer<typeof keyStatusSchema>;

/** A recording length measured by the renderer (ms; at most 10 h, the cloud's limit). */
const durationHint = z.number().int().nonnegative().max(36_000_000);
const idInput = z.object({ id: z.string().min(1) }).strict();
/** An export's explicit rebuild: caption lines of this many characters. */
const captionChars = z.number().int().min(8).max(200).optional();
const okOutput = z.object({ ok: z.literal(true) });

export const channels = {
  /** Name, version, mode, data folder, missing system packages. */
  'app.info': { input: none, output: appInfoSchema },

  // ── settings ────────────────────────────────────────────────────────────
  /** The whole settings object (every field filled; secrets only as "saved" flags). */
  'settings.get': { input: none, output: settingsViewSchema },
  /** Change some fields; answers the whole new object and emits `settings.changed`. */
  'settings.set': { input: settingsPatchSchema, output: settingsViewSchema },

  // ── keys (the cloud API key; never returned) ────────────────────────────
  /** Whether a key is stored, masked, and when it was last verified. */
  'keys.status': { input: none, output: keyStatusSchema },
  /**
   * Store a key after verifying it with one cheap authenticated call to the
   * region (`region` also switches settings.region when given).
   * Errors: `invalid_key` (401: nothing stored), `bad_request` (the key is
   * malformed). Offline (`network`): the key is stored unverified and
   * `lastError` says so.
   */
  'keys.set': {
    input: z.object({ key: z.string().trim().min(8).max(200), region: z.enum(['us', 'eu', 'custom']).optional() }).strict(),
    output: keyStatusSchema,
  },
  /** Check the stored key again (updates verifiedAt / lastError). */
  'keys.verify': { input: none, output: keyStatusSchema },
  /** Forget the stored key. With no key, jobs go to the local engine. */
  'keys.remove': { input: none, output: keyStatusSchema },

  // ── jobs (durable; see DESIGN.md §5) ────────────────────────────────────
  /**
   * Transcribe local files by path (Electron: from drag-and-drop via
   * webUtils.getPathForFile, or an <input type=file>). One job each; each also
   * creates its library item at once (status queued). `options` override
   * settings.transcriptionDefaults. Errors: `file_unreadable` naming the file.
   */
  'jobs.addFiles': {
    input: z
      .object({
        paths: z.array(z.string().min(1)).min(1).max(500),
        /** Lengths the renderer measured (same order as `paths`; null where unknown), shown until the service reports its own. */
        durationsMs: z.array(durationHint.nullable()).max(500).optional(),
        options: transcriptionOptionsSchema.optional(),
      })
      .strict(),
    output: z.object({ jobs: z.array(jobSchema) }),
  },
  /**
   * Host mode (a browser cannot give paths): first POST the file's bytes to
   * `/upload?token=<launch token>&name=<encodeURIComponent(file.name)>` on the
   * page's own origin (body = the raw File, any content type; answer 200
   * `{"uploadId": "…", "bytes": N}`; 401 without the token; 413 above 5 GiB),
   * then call this with the uploadId. The staged file becomes the job's source.
   */
  'jobs.addUpload': {
    input: z
      .object({
        uploadId: z.string().min(1),
        name: z.string().min(1).max(500).optional(),
        durationMs: durationHint.optional(),
        options: transcriptionOptionsSchema.optional(),
      })
      .strict(),
    output: jobSchema,
  },
  /** Transcribe a public http(s) URL the service can fetch (no upload). */
  'jobs.addUrl': {
    input: z.object({ url: z.url({ protocol: /^https?$/ }), name: z.string().max(500).optional(), options: transcriptionOptionsSchema.optional() }).strict(),
    output: jobSchema,
  },
  /** Jobs, newest first: every unfinished one and the latest finished ones. */
  'jobs.list': {
    input: z
      .object({ includeFinished: z.boolean().default(true), limit: z.number().int().min(1).max(1000).default(200) })
      .strict()
      .optional(),
    output: z.object({ jobs: z.array(jobSchema) }),
  },
  /** Stop a job (abort the upload, stop polling; deletes the remote transcript if one exists). Final jobs: `conflict`. */
  'jobs.cancel': { input: idInput, output: jobSchema },
  /** Run a failed or canceled job again (resubmits; re-uploads when the upload is gone). */
  'jobs.retry': { input: idInput, output: jobSchema },
  /** Forget a finished job (its library item stays). Unfinished jobs are canceled first. */
  'jobs.remove': { input: idInput, output: okOutput },
  /**
   * Speaker labels for a finished transcript without choosing the file again (`id`: the recording): its
   * audio (the library's copy, the original file, a live session's recording) is transcribed again with
   * speaker_labels as a new version of the item. `conflict` when it has speakers already.
   */
  'jobs.addSpeakers': { input: idInput, output: jobSchema },

  // ── library (offline) ───────────────────────────────────────────────────
  /** A page of recordings with their latest transcript's state. `total` counts all matches. */
  'library.list': {
    input: libraryListInputSchema.optional(),
    output: z.object({ items: z.array(libraryItemSchema), total: z.number().int().nonnegative() }),
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
    input: z.object({ id: z.string().min(1), firstWords: z.number().int().min(1).max(100_000).optional() }).strict(),
    output: transcriptWireSchema,
  },
  'library.rename': { input: z.object({ id: z.string().min(1), title: z.string().trim().min(1).max(300) }).strict(), output: libraryItemSchema },
  /** Replace the item's tags (trimmed, deduplicated, case kept). */
  'library.setTags': {
    input: z.object({ id: z.string().min(1), tags: z.array(z.string().trim().min(1).max(60)).max(50) }).strict(),
    output: libraryItemSchema,
  },
  /** Every tag in use with how many items carry it. */
  'library.tags': { input: none, output: z.object({ tags: z.array(z.object({ name: z.string(), count: z.number().int() })) }) },
  /** Delete items locally (audio copy included); `remote: true` also deletes them on the service. */
  'library.delete': {
    input: z.object({ ids: z.array(z.string().min(1)).min(1).max(1000), remote: z.boolean().default(false) }).strict(),
    output: z.object({ deleted: z.number().int(), remoteErrors: z.array(z.object({ id: z.string(), message: z.string() })) }),
  },
  /** Correct words (by index into `words`); the text, sentences and search index follow. */
  'library.correctWords': {
    input: z
      .object({
        id: z.string().min(1),
        edits: z
          .array(z.object({ index: z.number().int().nonnegative(), text: z.string().min(1).max(200) }))
          .min(1)
          .max(5000),
      })
      .strict(),
    output: transcriptWireSchema,
  },
  /** Name a speaker ("A" → "Dana"); null clears the name. */
  'library.renameSpeaker': {
    input: z.object({ id: z.string().min(1), speaker: z.string().min(1).max(20), name: z.string().trim().max(100).nullable() }).strict(),
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
    input: z.object({ id: z.string().min(1), format: exportFormatSchema, voices: z.boolean().optional(), charsPerCaption: captionChars }).strict(),
    /** Text, or base64 for DOCX (`encoding`). */
    output: exportFileSchema,
  },
  /**
   * Ask the service now what the user's webhook server answered for this
   * transcript (main also follows it by itself for a few minutes after
   * completion). `webhook: null` when it was sent without one.
   */
  'library.checkWebhook': { input: idInput, output: z.object({ webhook: webhookStatusSchema.nullable() }) },
  /**
   * Desktop app: save exports through the system's dialogs (one transcript: a
   * save dialog; several: a folder, one file each, never overwriting). Nothing
   * is written when the user cancels. Host mode answers `unavailable`: a
   * browser downloads `library.export` instead. `voices`, `charsPerCaption`: as there.
   */
  'library.saveExport': {
    input: z
      .object({ ids: z.array(z.string().min(1)).min(1).max(1000), format: exportFormatSchema, voices: z.boolean().optional(), charsPerCaption: captionChars })
      .strict(),
    output: z.object({
      canceled: z.boolean(),
      files: z.array(z.object({ id: z.string(), path: z.string() })),
      errors: z.array(z.object({ id: z.string(), message: z.string() })),
    }),
  },
  /** Show a file that `library.saveExport` saved in the system's file manager (other paths: `forbidden`). */
  'library.revealExport': { input: z.object({ path: z.string().min(1).max(4096) }).strict(), output: okOutput },
  /** A URL the renderer can put in <audio src>: the local copy (or redacted copy) of the recording; null if none. */
  'library.mediaUrl': {
    input: z.object({ id: z.string().min(1), redacted: z.boolean().default(false) }).strict(),
    output: z.object({ url: z.string().nullable() }),
  },
  /** Back up the whole library into `dir` (created; must be empty): library.json + audio/. */
  'library.exportAll': {
    input: z.object({ dir: z.string().min(1) }).strict(),
    output: z.object({ dir: z.string(), items: z.number().int(), audioFiles: z.number().int() }),
  },
  /**
   * Restore a backup made by exportAll; items already present (same id) are
   * skipped. Progress arrives as `library.importProgress`; `notes` says what
   * was left out (links, FIFOs, rows over the limits). `conflict` while
   * another import runs; `canceled` after library.importCancel (nothing kept).
   */
  'library.importAll': {
    input: z.object({ dir: z.string().min(1).max(4096) }).strict(),
    output: z.object({ imported: z.number().int(), skipped: z.number().int(), notes: z.array(z.string()) }),
  },
  /** Cancel the running backup import: what it added so far is removed. Answers whether one was running. */
  'library.importCancel': { input: none, output: z.object({ canceled: z.boolean() }) },

  // ── search ──────────────────────────────────────────────────────────────
  /**
   * Full-text search over every transcript's sentences, best first. Words are
   * matched as prefixes ("transcr" finds "transcription"); "quoted phrases"
   * match exactly. Each hit opens its transcript at `startMs`.
   */
  'search.query': {
    input: z
      .object({
        query: z.string().trim().min(1).max(500),
        tag: z.string().optional(),
        limit: z.number().int().min(1).max(200).default(50),
        offset: z.number().int().nonnegative().default(0),
      })
      .strict(),
    output: z.object({ hits: z.array(searchHitSchema), tookMs: z.number() }),
  },

  // ── local engine ────────────────────────────────────────────────────────
  /** State of the local engine process (started on demand by jobs in region local). */
  'engine.status': { input: none, output: engineStatusSchema },
  /** Start the local engine now (otherwise it starts with the first local job). */
  'engine.start': { input: none, output: engineStatusSchema },

  // ── subtitles (the editor; see src/shared/subtitles) ─────────────────────
  /** The cue document of a finished transcript (edited, or built from the words by its profile), with its stored undo/redo history. */
  'subtitles.open': { input: idInput, output: subtitleDocSchema },
  /**
   * One edit made in the view, as a splice on `version` (`conflict` when the
   * stored document moved on). Cues whose text still maps one token per word
   * correct those words, so the transcript, every export and search follow.
   */
  'subtitles.commit': {
    input: z
      .object({
        id: z.string().min(1),
        version: z.number().int().nonnegative(),
        label: z.string().min(1).max(200),
        splice: spliceSchema,
        header: z.array(z.string().max(100_000)).max(100).optional(),
        trailer: z.array(z.string().max(100_000)).max(100).optional(),
      })
      .strict(),
    output: z.object({ version: z.number().int() }),
  },
  /** Undo / redo the latest stored edit; `entry: null` when there is none. */
  'subtitles.undo': {
    input: z.object({ id: z.string().min(1), version: z.number().int().nonnegative() }).strict(),
    output: z.object({ version: z.number().int(), entry: z.object({ label: z.string(), splice: spliceSchema }).nullable() }),
  },
  'subtitles.redo': {
    input: z.object({ id: z.string().min(1), version: z.number().int().nonnegative() }).strict(),
    output: z.object({ version: z.number().int(), entry: z.object({ label: z.string(), splice: spliceSchema }).nullable() }),
  },
  /** The rules profile this transcript is checked and rebuilt by. */
  'subtitles.setProfile': { input: z.object({ id: z.string().min(1), profileId: z.string().min(1).max(80) }).strict(), output: okOutput },
  /** Save a user's own profile (built-in ones cannot be replaced); answers every profile. */
  'subtitles.saveProfile': { input: z.object({ profile: rulesProfileSchema }).strict(), output: z.object({ profiles: z.array(rulesProfileSchema) }) },
  'subtitles.deleteProfile': {
    input: z.object({ profileId: z.string().min(1).max(80) }).strict(),
    output: z.object({ profiles: z.array(rulesProfileSchema) }),
  },
  /** Waveform peaks of the recording's audio, computed once with ffmpeg and stored. `not_found` without audio. */
  'subtitles.peaks': { input: idInput, output: peaksSchema },
  /**
   * An SRT or VTT file as a new library item; `problems` lists cues that could not be read, by line.
   * `media`: its video or audio, a file the user picked (desktop) or one uploaded to `/upload` (host mode); without it, a
   * desktop `subtitlePath` the user picked lets main take a same-named video or audio file beside it. Either way the
   * media is copied into the library. `media` in the answer: the name of the file attached, or null.
   */
  'subtitles.importNew': {
    input: z
      .object({
        name: z.string().trim().min(1).max(300),
        content: z.string().max(20_000_000),
        subtitlePath: z.string().min(1).max(4096).optional(),
        media: z
          .discriminatedUnion('kind', [
            z.object({ kind: z.literal('path'), path: z.string().min(1).max(4096) }).strict(),
            z.object({ kind: z.literal('upload'), uploadId: z.string().regex(/^[A-Za-z0-9_-]{8,64}$/), name: z.string().trim().min(1).max(300) }).strict(),
          ])
          .optional(),
      })
      .strict(),
    output: z.object({
      id: z.string(),
      cues: z.number().int(),
      problems: z.array(z.object({ line: z.number().int(), message: z.string() })),
      media: z.string().nullable(),
    }),
  },
  // ── live captions (audio arrives as binary frames: see `binaryMessages`) ─
  /**
   * Start a run: one streaming session per source against the current region
   * (none with `recordOnly`), and a library item that keeps the recording.
   * `conflict` when a run is already going.
   */
  'captions.start': { input: captionsStartInputSchema, output: captionsRunSchema },
  /** Stop the run: Terminate each session, save the turns and the recording; answers what was saved. */
  'captions.stop': { input: z.object({ run: z.number().int().positive() }).strict(), output: captionsStoppedSchema },
  /** The run going on now (another window, the overlay, a reload), or null. */
  'captions.current': {
    input: none,
    output: z.object({ run: captionsRunSchema.nullable(), turns: z.array(liveTurnSchema), status: z.array(liveStatusSchema) }),
  },
  /**
   * Improve accuracy: submit a live session's recording as a pre-recorded job
   * (cloud or local). Both versions are kept; the improved one is shown by default.
   */
  'captions.improve': { input: idInput, output: z.object({ jobId: z.string() }) },
  /** The versions of a live session's transcript (live, improved), newest first. */
  'captions.versions': {
    input: idInput,
    output: z.object({
      versions: z.array(
        z.object({ transcriptId: z.string(), kind: z.enum(['live', 'improved']), status: z.string(), createdAt: z.string(), wordCount: z.number().int() }),
      ),
    }),
  },
  /** One version of a live session (by transcript id), as library.get answers the latest. */
  'captions.version': { input: z.object({ id: z.string().min(1), transcriptId: z.string().min(1) }).strict(), output: transcriptWireSchema },
  /** Desktop app: show, hide or toggle the always-on-top overlay window. Host mode answers `unavailable` (the page opens Picture-in-Picture). */
  'captions.overlay': { input: z.object({ show: z.boolean().optional() }).strict(), output: z.object({ visible: z.boolean() }) },
  // ── chat over recordings ────────────────────────────────────────────────
  /** The current region's gateway models (`GET /v1/models`) and the one a new chat uses. `fresh` skips the one-minute cache. */
  'chat.models': {
    input: z
      .object({ fresh: z.boolean().default(false) })
      .strict()
      .optional(),
    output: z.object({ region: z.string(), models: z.array(chatModelSchema), defaultModel: z.string().nullable() }),
  },
  /** Saved chats, newest first; `query` searches titles and messages with the library's search syntax. */
  'chat.list': {
    input: z
      .object({ query: z.string().trim().max(500).optional() })
      .strict()
      .optional(),
    output: z.object({ chats: z.array(chatSummarySchema) }),
  },
  /** One chat with all its messages. */
  'chat.get': { input: idInput, output: chatDetailSchema },
  /** A new chat over recordings (a transcript's "Ask", a library selection) or over the whole library (retrieval picks the passages). */
  'chat.create': {
    input: z
      .object({
        scope: z.enum(['recordings', 'library']),
        recordingIds: z.array(z.string().min(1)).max(1000).optional(),
        model: z.string().min(1).max(200).optional(),
        title: z.string().trim().min(1).max(300).optional(),
      })
      .strict(),
    output: chatDetailSchema,
  },
  'chat.rename': { input: z.object({ id: z.string().min(1), title: z.string().trim().min(1).max(300) }).strict(), output: chatSummarySchema },
  /** The model this chat asks (remembered with it). */
  'chat.setModel': { input: z.object({ id: z.string().min(1), model: z.string().min(1).max(200) }).strict(), output: chatSummarySchema },
  'chat.delete': { input: idInput, output: okOutput },
  /**
   * Ask a question: answers the saved question and the answer being written
   * (status streaming) at once; the text arrives by `chat.delta`, the finished
   * message by `chat.message`. `conflict` while the chat is still answering.
   */
  'chat.send': {
    input: z.object({ id: z.string().min(1), text: z.string().trim().min(1).max(4000) }).strict(),
    output: z.object({ question: chatMessageSchema, answer: chatMessageSchema }),
  },
  /** Stop the answer being written (what arrived is kept, marked stopped), or a wait for a rate limit. */
  'chat.stop': { input: idInput, output: z.object({ stopped: z.boolean() }) },
  /** The chat as Markdown; the renderer saves it. */
  'chat.export': { input: idInput, output: z.object({ filename: z.string(), mime: z.string(), content: z.string() }) },
  /** Saved speech-understanding results of a recording's transcript. */
  'insights.list': { input: idInput, output: z.object({ insights: z.array(insightSchema) }) },
  /**
   * Run one action on a recording's transcript and save the result (replacing
   * the previous one of that kind and language). `unavailable` says what the
   * action needs when the model cannot do it.
   */
  'insights.run': {
    input: z
      .object({
        id: z.string().min(1),
        kind: insightKindSchema,
        model: z.string().min(1).max(200).optional(),
        language: z.string().trim().min(2).max(40).optional(),
        formatting: customFormattingSchema.optional(),
      })
      .strict(),
    output: insightSchema,
  },

  // Local models (Settings → Models; DESIGN.md §6b). Downloads answer at once; `models.progress` events follow.
  /** Every catalog model with its install and download state, other installed models, the folder and its free space. */
  'models.list': { input: none, output: modelsListSchema },
  /** Start (or resume) a download; a disk too full answers with state 'failed' and the reason. */
  'models.download': { input: z.object({ id: modelIdSchema }).strict(), output: downloadStatusSchema },
  'models.pause': { input: z.object({ id: modelIdSchema }).strict(), output: downloadStatusSchema.nullable() },
  'models.resume': { input: z.object({ id: modelIdSchema }).strict(), output: downloadStatusSchema },
  /** Stop a download and delete its partial file. */
  'models.cancel': { input: z.object({ id: modelIdSchema }).strict(), output: downloadStatusSchema.nullable() },
  /** Delete an installed model (a default that named it falls back to the built-in). */
  'models.delete': { input: z.object({ id: modelIdSchema }).strict(), output: z.object({ freedBytes: z.number().int().nonnegative() }) },
  /**
   * Install from an archive, a .gguf or a folder the user picked: Electron gives
   * its `path`; host mode first POSTs the file to `/upload` as for jobs.addUpload
   * and gives `uploadId` with the file's `name`. `id` is the catalog entry the user
   * chose (two entries can share an archive name); without it the name picks the entry.
   * Host mode takes a `path` only when it was picked this session or lies under `--folder`.
   */
  'models.installFile': {
    input: z
      .object({
        path: z.string().min(1).max(4096).optional(),
        uploadId: z.string().min(1).max(64).optional(),
        name: z.string().min(1).max(500).optional(),
        id: modelIdSchema.optional(),
      })
      .strict()
      .refine((v) => (v.path === undefined) !== (v.uploadId === undefined), 'give either path or uploadId'),
    output: z.object({ id: modelIdSchema }),
  },
  /** The default model for files or live captions ('' = the built-in PocketSphinx); it must be installed and made for that task. */
  'models.setDefault': {
    input: z.object({ task: z.enum(['files', 'live']), id: z.union([z.literal(''), modelIdSchema]) }).strict(),
    output: settingsViewSchema,
  },
  /** The model that suits this computer for a first run (memory, cores, free disk; the language setting, else `locale`), and whether it was dismissed or taken. */
  'models.offer': { input: z.object({ locale: z.string().max(35).optional() }).strict(), output: modelOfferSchema },
  /** "Not now" on the first-run offer, remembered. */
  'models.dismissOffer': { input: none, output: z.object({ dismissed: z.literal(true) }) },
  /** Take the offer: the download starts, and the model becomes the one for files once installed (unless another was chosen meanwhile). */
  'models.acceptOffer': { input: z.object({ id: modelIdSchema, locale: z.string().max(35).optional() }).strict(), output: downloadStatusSchema },
  /** Transcribe the clip that ships with the app with an installed files model through the local engine, and keep the speed measured. */
  'models.test': { input: z.object({ id: modelIdSchema }).strict(), output: speedTestSchema },
  /** The speeds measured on this computer, by model id. */
  'models.speeds': { input: none, output: z.record(z.string(), speedTestSchema) },
} as const satisfies Record<string, { input: z.ZodType; output: z.ZodType }>;

export const events = {
  'settings.changed': settingsViewSchema,
  /** Upload progress of one job, ≤ 10/s per job. */
  'jobs.progress': jobProgressSchema,
  /** A job was added, changed state, or was removed (`job: null`). */
  'jobs.changed': jobChangedSchema,
  /** Library items were added, updated (renamed, tagged, completed…), deleted or imported: refetch them. */
  'library.changed': libraryChangedSchema,
  /** A backup import's progress: `done` of `total` units (library.json is read twice), ≤ 10/s. */
  'library.importProgress': z.object({ done: z.number().nonnegative(), total: z.number().nonnegative() }),
  'engine.status': engineStatusSchema,
  /** Cloud key status changed (set, removed, verified). */
  'keys.changed': keyStatusSchema,
  /** Gateway rate-limit state after each limited answer. */
  'gateway.rateLimit': rateLimitSchema,
  /** Live captions: a turn grew or ended (replace by `key`). */
  'captions.turn': liveTurnSchema,
  /** Live captions: a source's session changed state (connecting, live, reconnecting with a notice, failed…). */
  'captions.status': liveStatusSchema,
  /** Live captions: a run started (any window) or stopped and was saved. */
  'captions.run': z.object({ run: captionsRunSchema.nullable(), stopped: captionsStoppedSchema.nullable() }),
  /** Text of the answer being written, in order (pieces gathered for ~40 ms). */
  'chat.delta': z.object({ chatId: z.string(), messageId: z.number().int(), text: z.string() }),
  /** A chat message was finished (done, stopped or failed) and saved. */
  'chat.message': z.object({ chatId: z.string(), message: chatMessageSchema }),
  /** What a chat is doing: thinking, streaming, waiting out a rate limit (until retryAt), idle. */
  'chat.state': chatStateSchema,
  /** A chat was created, changed (renamed, new message, model) or deleted: refetch the list. */
  'chat.changed': z.object({ id: z.string(), reason: z.enum(['created', 'updated', 'deleted']) }),
  /** A download's bytes, speed, ETA and state (a few times a second while it runs, and on every change of state). */
  'models.progress': downloadStatusSchema,
  /** A model was installed or deleted. */
  'models.changed': z.object({ id: z.string() }),
} as const satisfies Record<string, z.ZodType>;

/**
 * Binary messages, renderer → main, fire-and-forget (DESIGN.md §3). Electron:
 * `RawBridge.sendBinary` (an ArrayBuffer through the preload); host mode: a
 * binary WebSocket message on the bridge. The bytes are an audio frame of
 * `audio-frame.ts` (header + payload) that main decodes and checks.
 */
export const binaryMessages = {
  /** PCM16 16 kHz mono 50 ms frames and MediaRecorder chunks of a live-captions run. */
  'captions.audio': { maxBytes: 16 + 256 * 1024 },
} as const;

export type Channel = keyof typeof channels;
export type EventName = keyof typeof events;
export type Input<C extends Channel> = z.input<(typeof channels)[C]['input']>;
export type Output<C extends Channel> = z.output<(typeof channels)[C]['output']>;
export type Payload<E extends EventName> = z.output<(typeof events)[E]>;

export const channelNames = Object.keys(channels) as Channel[];
export const eventNames = Object.keys(events) as EventName[];

export function isChannel(name: unknown): name is Channel {
  return typeof name === 'string' && Object.hasOwn(channels, name);
}

export function isEventName(name: unknown): name is EventName {
  return typeof name === 'string' && Object.hasOwn(events, name);
}

export const errorInfoSchema = z.object({
  code: z.enum(errorCodes),
  message: z.string(),
  retryAfter: z.number().optional(),
});

/** What a handler answers over any transport. */
export type Reply<T = unknown> = { ok: true; output: T } | { ok: false; error: ErrorInfo };

/** The API the renderer sees, whichever transport carries it. */
export interface VerbatimApi {
  invoke<C extends Channel>(channel: C, ...input: Input<C> extends undefined ? [input?: Input<C>] : [input: Input<C>]): Promise<Output<C>>;
  on<E extends EventName>(event: E, listener: (payload: Payload<E>) => void): () => void;
}

/** Raw API exposed by the preload: no types, the renderer's bridge adds them. */
export interface RawBridge {
  invoke(channel: string, input: unknown): Promise<Reply>;
  on(event: string, listener: (payload: unknown) => void): () => void;
  /** Electron only: the path on disk of a dropped or picked File (webUtils.getPathForFile). */
  pathForFile?(file: File): string;
  /** A binary message of `binaryMessages` (audio frames); dropped while disconnected. */
  sendBinary?(data: ArrayBuffer): void;
}

/** Host-mode wire messages over the bridge WebSocket (DESIGN.md §3). */
export const bridgeRequestSchema = z.object({
  id: z.number().int().nonnegative(),
  channel: z.string(),
  input: z.unknown().optional(),
});
export type BridgeRequest = z.infer<typeof bridgeRequestSchema>;

export type BridgeResponse = { id: number; output: unknown } | { id: number; error: ErrorInfo } | { event: string; payload: unknown };
