/**
 * Wire shapes of the subtitle editor (IPC; zod schemas): cues with their word ranges, a
 * document's state and stored history, rules profiles, waveform peaks.
 * Times are integer milliseconds.
 */
import { z } from 'zod';

const ms = z.number().int().nonnegative().max(360_000_000);

export const editorCueSchema = z.object({
  start: ms,
  end: ms,
  text: z.string().max(2000),
  words: z.tuple([z.number().int().nonnegative(), z.number().int().nonnegative()]).optional(),
  speaker: z.string().max(100).nullable().optional(),
  ident: z.string().max(500).optional(),
  settings: z.string().max(500).optional(),
  notes: z.array(z.string().max(20_000)).max(50).optional(),
});

export const spliceSchema = z.object({
  at: z.number().int().nonnegative(),
  remove: z.array(editorCueSchema).max(200_000),
  insert: z.array(editorCueSchema).max(200_000),
});

export const historyEntrySchema = z.object({ label: z.string().max(200), splice: spliceSchema });

export const rulesProfileSchema = z.object({
  id: z.string().min(1).max(80),
  name: z.string().trim().min(1).max(80),
  maxCharsPerLine: z.number().int().min(8).max(200),
  maxLines: z.number().int().min(1).max(4),
  minDurationMs: z.number().int().min(0).max(10_000),
  maxDurationMs: z.number().int().min(500).max(60_000),
  maxCps: z.number().min(5).max(100),
  warnCps: z.number().min(5).max(100).nullable(),
  minGapMs: z.number().int().min(0).max(2000),
  leadOutMs: z.number().int().min(0).max(5000),
  pauseMs: z.number().int().min(100).max(10_000),
});

/** Everything the Subtitles view needs to open, with the stored history so undo works across closing the view. */
export const subtitleDocSchema = z.object({
  recordingId: z.string(),
  /** Increases with every change; commits name the version they apply to. */
  version: z.number().int().nonnegative(),
  /** false: never edited, the cues are built from the words by the profile. */
  edited: z.boolean(),
  profileId: z.string(),
  profiles: z.array(rulesProfileSchema),
  cues: z.array(editorCueSchema),
  header: z.array(z.string()),
  trailer: z.array(z.string()),
  /** Oldest first; the last is what Undo undoes. */
  undo: z.array(historyEntrySchema),
  /** Next first: what Redo redoes. */
  redo: z.array(historyEntrySchema),
});
export type SubtitleDoc = z.infer<typeof subtitleDocSchema>;

export const subtitleExportFormatSchema = z.enum(['srt', 'vtt', 'txt', 'json', 'docx']);
export type SubtitleExportFormat = z.infer<typeof subtitleExportFormatSchema>;

export const exportFileSchema = z.object({
  filename: z.string(),
  mime: z.string(),
  /** Text, or base64 for binary formats (DOCX). */
  content: z.string(),
  encoding: z.enum(['utf8', 'base64']),
});

export const peaksSchema = z.object({
  /** Peaks per second of audio. */
  rate: z.number().int().positive(),
  durationMs: z.number().int().nonnegative(),
  /** Base64 of one signed byte per peak: the loudest sample in its slice, scaled to 127. */
  data: z.string(),
});
export type Peaks = z.infer<typeof peaksSchema>;
