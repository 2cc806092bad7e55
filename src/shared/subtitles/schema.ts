/**
 * Stored shapes of the subtitle editor (zod schemas): cues with their word ranges, the
 * history's splices (as a backup carries them), rules profiles, waveform peaks; the
 * document as the library reads it. What crosses the bridge is in wire.ts.
 * Times are integer milliseconds.
 */
import { z } from 'zod';
import type { Cue } from './types';
import { lazySchemas } from '../lazy-schemas';

// Made on first use (lazy-schemas.ts): each schema below is a z.lazy of the one build() makes, by the same name.
const schemas = lazySchemas(build);

export const editorCueSchema = z.lazy(() => schemas().editorCueSchema);

/** A stored history entry's splice (the library's backup checks them with it); no channel carries one. */
export const spliceSchema = z.lazy(() => schemas().spliceSchema);

export const rulesProfileSchema = z.lazy(() => schemas().rulesProfileSchema);

/** The document as the library reads it (subtitles.open sends it as wire.ts columns), with the stored history's labels. */
export interface SubtitleDoc {
  recordingId: string;
  /** Increases with every change; edits name the version they apply to. */
  version: number;
  /** false: never edited, the cues are built from the words by the profile. */
  edited: boolean;
  profileId: string;
  profiles: z.infer<typeof rulesProfileSchema>[];
  cues: Cue[];
  header: string[];
  trailer: string[];
  /** Labels, oldest first; the last is what Undo undoes. */
  undo: string[];
  /** Labels, next first: what Redo redoes. */
  redo: string[];
}

export const subtitleExportFormatSchema = z.lazy(() => schemas().subtitleExportFormatSchema);
export type SubtitleExportFormat = z.infer<typeof subtitleExportFormatSchema>;

export const exportFileSchema = z.lazy(() => schemas().exportFileSchema);

export const peaksSchema = z.lazy(() => schemas().peaksSchema);
export type Peaks = z.infer<typeof peaksSchema>;

function build() {
  const ms = z.number().int().nonnegative().max(360_000_000);

  const editorCueSchema = z.object({
    start: ms,
    end: ms,
    text: z.string().max(2000),
    words: z.tuple([z.number().int().nonnegative(), z.number().int().nonnegative()]).optional(),
    speaker: z.string().max(100).nullable().optional(),
    ident: z.string().max(500).optional(),
    settings: z.string().max(500).optional(),
    notes: z.array(z.string().max(20_000)).max(50).optional(),
  });

  const spliceSchema = z.object({
    at: z.number().int().nonnegative(),
    remove: z.array(editorCueSchema).max(200_000),
    insert: z.array(editorCueSchema).max(200_000),
  });

  const rulesProfileSchema = z.object({
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

  const subtitleExportFormatSchema = z.enum(['srt', 'vtt', 'txt', 'json', 'docx']);

  const exportFileSchema = z.object({
    filename: z.string(),
    mime: z.string(),
    /** Text, or base64 for binary formats (DOCX). */
    content: z.string(),
    encoding: z.enum(['utf8', 'base64']),
  });

  const peaksSchema = z.object({
    /** Peaks per second of audio. */
    rate: z.number().int().positive(),
    durationMs: z.number().int().nonnegative(),
    /** Base64 of one signed byte per peak: the loudest sample in its slice, scaled to 127. */
    data: z.string(),
  });
  return { editorCueSchema, spliceSchema, rulesProfileSchema, subtitleExportFormatSchema, exportFileSchema, peaksSchema };
}
