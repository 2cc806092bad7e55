/** The subtitle editor (see src/shared/subtitles). */
import { z } from 'zod';
import { peaksSchema, rulesProfileSchema, spliceSchema, subtitleDocSchema } from '../subtitles/schema';
import { idInput, okOutput, type Contracts } from './common';

export const subtitleChannels = {
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
} as const satisfies Contracts;
