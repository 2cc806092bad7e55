/**
 * The app's IPC contract: every request channel with its input and output
 * schemas, every event with its payload schema. Main validates against it,
 * preload exposes only these names, the renderer's client is typed from it.
 * Both transports (Electron IPC and the host-mode WebSocket) carry exactly
 * these messages. The channels live per domain in ipc/ (app, jobs, library,
 * subtitles, captions, chat, models); this index joins them, and holds the
 * events, binary messages and the types every importer uses.
 */
import { z } from 'zod';
import { errorCodes, type ErrorInfo } from './errors';
import { engineStatusSchema, jobChangedSchema, jobProgressSchema, rateLimitSchema } from './jobs';
import { libraryChangedSchema } from './library';
import { settingsViewSchema } from './settings';
import { downloadStatusSchema } from './models/view';
import { captionsRunSchema, captionsStoppedSchema, liveStatusSchema, liveTurnSchema } from './captions';
import { chatMessageSchema, chatStateSchema, insightKindSchema } from './chat/schema';
import { appChannels, keyStatusSchema } from './ipc/app';
import { captionChannels } from './ipc/captions';
import { liveTranslationSchema, missedSummarySchema, translationStatusSchema } from './captions-extras';
import { chatChannels } from './ipc/chat';
import type { Contracts } from './ipc/common';
import { jobChannels } from './ipc/jobs';
import { libraryChannels } from './ipc/library';
import { modelChannels } from './ipc/models';
import { subtitleChannels } from './ipc/subtitles';
import { subtitleTranslateChannels, subtitleTranslateProgressSchema } from './ipc/subtitle-translate';
import { storageChannels, retentionRunSchema } from './ipc/storage';
import { reviewChannels } from './ipc/review';
import { peopleChannels } from './ipc/people';
import { vocabularyChannels } from './ipc/vocabulary';
import { watchChannels } from './ipc/watch';
import { templateChannels } from './ipc/templates';
import { notesChannels, notesStatusSchema } from './ipc/notes';
import { lazySchemas } from './lazy-schemas';

// Made on first use (lazy-schemas.ts): each schema below is a z.lazy of the one build() makes, by the same name.
const schemas = lazySchemas(build);

export { appInfoSchema, keyStatusSchema, type AppInfo, type KeyStatus } from './ipc/app';

export const channels = {
  ...appChannels,
  ...jobChannels,
  ...libraryChannels,
  ...subtitleChannels,
  ...subtitleTranslateChannels,
  ...captionChannels,
  ...chatChannels,
  ...modelChannels,
  ...reviewChannels,
  ...peopleChannels,
  ...vocabularyChannels,
  ...watchChannels,
  ...templateChannels,
  ...storageChannels,
  ...notesChannels,
} as const satisfies Contracts;

export const events = {
  'settings.changed': settingsViewSchema,
  /** A verbatim://recording/ID?t=SECONDS link was opened (Markdown notes, MCP citations): show that recording at that moment. */
  'app.openLink': z.lazy(() => z.object({ recordingId: z.string().min(1).max(80), ms: z.number().int().nonnegative().nullable() })),
  /** The notes folder's state changed (a note written, one kept because the user edited it, a problem). */
  'notes.changed': notesStatusSchema,
  /** Upload progress of one job, ≤ 10/s per job. */
  'jobs.progress': jobProgressSchema,
  /** A job was added, changed state, or was removed (`job: null`). */
  'jobs.changed': jobChangedSchema,
  /** Library items were added, updated (renamed, tagged, completed…), deleted or imported: refetch them. */
  'library.changed': libraryChangedSchema,
  /** A backup import's progress: `done` of `total` units (library.json is read twice), ≤ 10/s. */
  'library.importProgress': z.lazy(() => z.object({ done: z.number().nonnegative(), total: z.number().nonnegative() })),
  /** Making a backup: `done` of `total` rows and audio files written, ≤ 10/s. */
  'library.exportProgress': z.lazy(() => z.object({ done: z.number().nonnegative(), total: z.number().nonnegative() })),
  /** Fix everywhere (or its Undo) running: `done` of `total` recordings changed, ≤ 10/s. */
  'vocabulary.fixProgress': z.lazy(() => z.object({ done: z.number().nonnegative(), total: z.number().nonnegative() })),
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
  'captions.run': z.lazy(() => z.object({ run: captionsRunSchema.nullable(), stopped: captionsStoppedSchema.nullable() })),
  /** Live captions: a final turn's translation. */
  'captions.translation': liveTranslationSchema,
  /** Live captions: translation turned on or off, became unavailable, or dropped lines that fell behind. */
  'captions.translationStatus': translationStatusSchema,
  /** Live captions: "What did I miss?" as it is written (the whole text so far, ≤ 25/s) and when it ends. */
  'captions.missed': missedSummarySchema,
  /** Live captions: no one spoke for the minutes set in Settings; the session stops at `stopAt` unless someone speaks or keeps it (null: withdrawn). */
  'captions.stillRecording': z.lazy(() => z.object({ run: z.number().int(), stopAt: z.string().nullable(), silentMinutes: z.number().int().nonnegative() })),
  /** Text of the answer being written, in order (pieces gathered for ~40 ms). */
  'chat.delta': z.lazy(() => z.object({ chatId: z.string(), messageId: z.number().int(), text: z.string() })),
  /** A chat message was finished (done, stopped or failed) and saved. */
  'chat.message': z.lazy(() => z.object({ chatId: z.string(), message: chatMessageSchema })),
  /** What a chat is doing: thinking, streaming, waiting out a rate limit (until retryAt), idle. */
  'chat.state': chatStateSchema,
  /** A transcript action (summary, translation…) read `done` of `total` parts of its recording. */
  'insights.progress': z.lazy(() =>
    z.object({ recordingId: z.string(), kind: insightKindSchema, done: z.number().int().nonnegative(), total: z.number().int().positive() }),
  ),
  /** A subtitle translation's progress: cues done of the source's cues, and whether it still runs. */
  'subtitles.translateProgress': subtitleTranslateProgressSchema,
  /** A chat was created, changed (renamed, new message, model) or deleted: refetch the list. */
  'chat.changed': z.lazy(() => z.object({ id: z.string(), reason: z.enum(['created', 'updated', 'deleted']) })),
  /** A download's bytes, speed, ETA and state (a few times a second while it runs, and on every change of state). */
  'models.progress': downloadStatusSchema,
  /** A model was installed or deleted. */
  'models.changed': z.lazy(() => z.object({ id: z.string() })),
  /** Watch folders: a folder was added, changed, paused, removed, or took a file (`folderId`; null = all): refetch them. */
  'watch.changed': z.lazy(() => z.object({ folderId: z.string().nullable() })),
  /** The audio retention rule removed recorded audio (Undo until the next start: storage.undoRetention). */
  'storage.retention': retentionRunSchema,
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

export const errorInfoSchema = z.lazy(() => schemas().errorInfoSchema);

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
export const bridgeRequestSchema = z.lazy(() => schemas().bridgeRequestSchema);
export type BridgeRequest = z.infer<typeof bridgeRequestSchema>;

export type BridgeResponse = { id: number; output: unknown } | { id: number; error: ErrorInfo } | { event: string; payload: unknown };

function build() {
  const errorInfoSchema = z.object({
    code: z.enum(errorCodes),
    message: z.string(),
    retryAfter: z.number().optional(),
  });

  const bridgeRequestSchema = z.object({
    id: z.number().int().nonnegative(),
    channel: z.string(),
    input: z.unknown().optional(),
  });
  return { errorInfoSchema, bridgeRequestSchema };
}
