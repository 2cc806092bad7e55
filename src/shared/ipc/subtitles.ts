/** The subtitle editor (see src/shared/subtitles). */
import { z } from 'zod';
import { CUE_LIMITS } from '../subtitles/limits';
import { peaksSchema, rulesProfileSchema } from '../subtitles/schema';
import { subtitleDocWireSchema } from '../subtitles/wire';
import { idInput, okOutput, type Contracts } from './common';
import { fileRefSchema } from './files';
import { lazySchemas } from '../lazy-schemas';

// Made on first use (lazy-schemas.ts): each schema below is a z.lazy of the one build() makes, by the same name.
const schemas = lazySchemas(build);

/** Where the user was when they ran it: the selection as [first, last] ranges, the caret in the current cue, the playhead. */
export const editorViewSchema = z.lazy(() => schemas().editorViewSchema);

/**
 * A subtitle file's text by reference, so that it never crosses the request channel (200,000 cues are ~8 MB the
 * receiving side would parse on its event loop): a file the user picked (desktop, its path) or one POSTed to
 * `/upload` (host mode, the upload id; used once). Main reads and decodes it on the library's worker.
 */
export const subtitleFileSchema = fileRefSchema;
/**
 * 2000000 → "2,000,000" (as toLocaleString('en') writes it) without Intl: this runs as the contract loads, on the way
 * to host mode's first answer, and a process's first toLocaleString loads ICU's number formats (15-35 ms, issue 52).
 */
const grouped = (n: number) => String(n).replace(/\B(?=(\d{3})+$)/g, ',');
/** The most text sent inline (`content`); a bigger file comes as `file`. */
const inlineText = z.lazy(() => schemas().inlineText);
const fileName = z.lazy(() => schemas().fileName);

export const subtitleRunSchema = z.lazy(() => schemas().subtitleRunSchema);
export type SubtitleRun = z.infer<typeof subtitleRunSchema>;

/** The version an edit made, and the digest of the cues main stored (shared/subtitles/digest.ts): the renderer reopens when it differs from its own. */
const stepOutput = z.lazy(() => schemas().stepOutput);

export const subtitleChannels = {
  // ── subtitles (the editor; see src/shared/subtitles) ─────────────────────
  /** The cue document of a finished transcript (edited, or built from the words by its profile), its cues as columns, with its stored history's labels. */
  'subtitles.open': { input: idInput, output: subtitleDocWireSchema },
  /**
   * One edit made in the view, as the command the user ran on `version`
   * (`conflict` when the stored document moved on): main runs the same
   * `perform` on its stored cues, words and profile. Cues whose text still
   * maps one token per word correct those words, so the transcript, every
   * export and search follow.
   */
  'subtitles.run': { input: subtitleRunSchema, output: z.lazy(() => z.object({ version: z.number().int(), digest: z.string() })) },
  /** Undo / redo the latest stored edit; `label: null` when there is none. */
  'subtitles.undo': {
    input: z.lazy(() => z.object({ id: z.string().min(1), version: z.number().int().nonnegative() }).strict()),
    output: stepOutput,
  },
  'subtitles.redo': {
    input: z.lazy(() => z.object({ id: z.string().min(1), version: z.number().int().nonnegative() }).strict()),
    output: stepOutput,
  },
  /** The rules profile this transcript is checked and rebuilt by. */
  'subtitles.setProfile': { input: z.lazy(() => z.object({ id: z.string().min(1), profileId: z.string().min(1).max(80) }).strict()), output: okOutput },
  /** Save a user's own profile (built-in ones cannot be replaced); answers every profile. */
  'subtitles.saveProfile': {
    input: z.lazy(() => z.object({ profile: rulesProfileSchema }).strict()),
    output: z.lazy(() => z.object({ profiles: z.array(rulesProfileSchema) })),
  },
  'subtitles.deleteProfile': {
    input: z.lazy(() => z.object({ profileId: z.string().min(1).max(80) }).strict()),
    output: z.lazy(() => z.object({ profiles: z.array(rulesProfileSchema) })),
  },
  /** Waveform peaks of the recording's audio, computed once with ffmpeg and stored. `not_found` without audio. */
  'subtitles.peaks': { input: idInput, output: peaksSchema },
  /**
   * An SRT or VTT file as a new library item, as `file` (subtitleFileSchema) or, when small, its text as `content`;
   * `problems` lists cues that could not be read, by line.
   * `media`: its video or audio, a file the user picked (desktop) or one uploaded to `/upload` (host mode); without it, a
   * subtitle `file` given by its path lets main take a same-named video or audio file beside it. Either way the
   * media is copied into the library. `media` in the answer: the name of the file attached, or null.
   */
  'subtitles.importNew': {
    input: z.lazy(() =>
      z
        .object({
          name: fileName,
          content: inlineText.optional(),
          file: subtitleFileSchema.optional(),
          media: fileRefSchema.optional(),
        })
        .strict()
        .refine((v) => (v.content === undefined) !== (v.file === undefined), { error: 'Send the subtitles as file or as content, one of the two.' }),
    ),
    output: z.lazy(() =>
      z.object({
        id: z.string(),
        cues: z.number().int(),
        problems: z.array(z.object({ line: z.number().int(), message: z.string() })),
        media: z.string().nullable(),
      }),
    ),
  },
} as const satisfies Contracts;

function build() {
  const index = z.number().int().nonnegative().max(CUE_LIMITS.cues);

  const ms = z.number().int().nonnegative().max(CUE_LIMITS.maxMs);

  /** A time a command takes (a drag on the waveform, a typed time): the operations round it, on both sides alike. */
  const time = z.number().finite().nonnegative().max(CUE_LIMITS.maxMs);

  const offset = z.number().int().min(-CUE_LIMITS.maxMs).max(CUE_LIMITS.maxMs);

  const none = z.undefined().optional();

  const point = z.object({ from: time, to: time }).strict();

  const editorViewSchema = z
    .object({
      selection: z.array(z.tuple([index, index])).max(1000),
      caret: z.number().int().nonnegative().max(CUE_LIMITS.textChars).nullable(),
      playheadMs: ms,
    })
    .strict();

  const inlineText = z
    .string()
    .max(CUE_LIMITS.inlineChars, { error: `Subtitle text over ${grouped(CUE_LIMITS.inlineChars)} characters is sent as a file (file), not inline.` });

  const fileName = z.string().trim().min(1).max(300);

  /** One command of shared/subtitles/commands.ts with the argument it takes: what the user did, never the cues it made. */
  const run = <N extends string, A extends z.ZodType>(command: N, args: A) =>
    z.object({ id: z.string().min(1), version: z.number().int().nonnegative(), command: z.literal(command), args, view: editorViewSchema }).strict();

  const subtitleRunSchema = z.discriminatedUnion('command', [
    run('editText', z.object({ index, text: z.string().max(CUE_LIMITS.textChars) }).strict()),
    run(
      'split',
      z
        .object({ index: index.optional(), at: z.number().int().nonnegative().max(CUE_LIMITS.textChars).optional() })
        .strict()
        .optional(),
    ),
    run('merge', z.object({ index: index.optional() }).strict().optional()),
    run('insert', z.object({ atMs: time.optional() }).strict().optional()),
    run('delete', none),
    run('shiftEarlier', none),
    run('shiftLater', none),
    run('shiftAllEarlier', none),
    run('shiftAllLater', none),
    run('shift', z.object({ ms: offset, all: z.boolean() }).strict()),
    run('startAtPlayhead', none),
    run('endAtPlayhead', none),
    run('retime', z.object({ index, start: time, end: time }).strict()),
    run('sync', z.object({ a: point, b: point }).strict()),
    run('fix', z.object({ index, fix: z.enum(['rebalance', 'split', 'merge', 'extend', 'gap']) }).strict()),
    run('fixAll', none),
    run('rebuild', none),
    /** An import onto the open cues: the file (or its text, when small), read by the same parser on both sides. */
    run('replaceFrom', z.union([z.object({ content: inlineText, name: fileName }).strict(), z.object({ file: subtitleFileSchema, name: fileName }).strict()])),
  ]);

  const stepOutput = z.object({ version: z.number().int(), digest: z.string(), label: z.string().nullable() });
  return { editorViewSchema, inlineText, fileName, subtitleRunSchema, stepOutput };
}
