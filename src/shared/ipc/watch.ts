/** Watch folders: audio and video files that appear in a folder are transcribed with that folder's settings. */
import { z } from 'zod';
import { idInput, none, okOutput, type Contracts } from './common';
import { lazySchemas } from '../lazy-schemas';

// Made on first use (lazy-schemas.ts): each schema below is a z.lazy of the one build() makes, by the same name.
const schemas = lazySchemas(build);

export const WATCH_SUBTITLES = ['none', 'srt', 'vtt', 'both'] as const;

/** What a folder's files are transcribed with; null = the Settings default. */
export const watchOptionsSchema = z.lazy(() => schemas().watchOptionsSchema);
export type WatchOptions = z.infer<typeof watchOptionsSchema>;

export const watchFolderSchema = z.lazy(() => schemas().watchFolderSchema);
export type WatchFolder = z.infer<typeof watchFolderSchema>;

export const watchChannels = {
  /** The desktop's folder dialog (null when canceled, and always in host mode, where the path is typed). */
  'watch.pickFolder': { input: none, output: z.lazy(() => z.object({ path: z.string().nullable() })) },
  /** Every watched folder, and which recent jobs came from which folder (job id → folder id). */
  'watch.list': { input: none, output: z.lazy(() => z.object({ folders: z.array(watchFolderSchema), origins: z.record(z.string(), z.string()) })) },
  /**
   * Watch a folder (an absolute path). Files already in it are taken too. `forbidden` in host mode
   * outside the folders it was started with (--folder); `bad_request` when it is not a folder.
   */
  'watch.add': { input: z.lazy(() => z.object({ path: z.string().min(1).max(4096), options: watchOptionsSchema }).strict()), output: watchFolderSchema },
  /** Change a folder's settings (for files taken from now on), or pause and resume it. */
  'watch.update': {
    input: z.lazy(() => z.object({ id: z.string().min(1), options: watchOptionsSchema.optional(), paused: z.boolean().optional() }).strict()),
    output: watchFolderSchema,
  },
  /** Pause or resume every folder at once. */
  'watch.pauseAll': {
    input: z.lazy(() => z.object({ paused: z.boolean() }).strict()),
    output: z.lazy(() => z.object({ folders: z.array(watchFolderSchema) })),
  },
  /** Stop watching a folder (its transcripts stay in the library). */
  'watch.remove': { input: idInput, output: okOutput },
} as const satisfies Contracts;

function build() {
  const watchOptionsSchema = z
    .object({
      /** A cloud model name or an installed local model's id. */
      speechModel: z
        .string()
        .regex(/^[a-z0-9][a-z0-9.-]{0,63}$/)
        .nullable(),
      languageCode: z.string().min(2).max(16).nullable(),
      speakerLabels: z.boolean(),
      speakersExpected: z.number().int().min(1).max(10).nullable(),
      /** Subtitles written next to each file once its transcript is done. */
      subtitles: z.enum(WATCH_SUBTITLES),
    })
    .strict();

  const watchFolderSchema = z.object({
    id: z.string(),
    path: z.string(),
    /** The folder's own name, as the queue shows it. */
    name: z.string(),
    options: watchOptionsSchema,
    paused: z.boolean(),
    /** Files taken from it so far. */
    taken: z.number().int().nonnegative(),
    /** Files seen that are still growing (not taken until their size holds still). */
    waiting: z.number().int().nonnegative(),
    /** Files that held still with nothing in them (0 bytes), by name (at most 20): not taken until they have bytes. */
    empty: z.array(z.string()).max(20),
    /** Why the folder cannot be watched now (gone, unreadable); null when it is. */
    problem: z.string().nullable(),
  });
  return { watchOptionsSchema, watchFolderSchema };
}
