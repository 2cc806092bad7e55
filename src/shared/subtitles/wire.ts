/**
 * The subtitle editor's document as it crosses the bridge (zod schemas): its
 * cues as one array per field (columns; cue-columns.ts packs and unpacks),
 * and its stored history as labels only. An edit crosses as the command the
 * user ran (ipc/subtitles.ts `subtitles.run`), never as the cues it made.
 */
import { z } from 'zod';
import { CUE_LIMITS } from './limits';
import { rulesProfileSchema } from './schema';
import { lazySchemas } from '../lazy-schemas';

// Made on first use (lazy-schemas.ts): each schema below is a z.lazy of the one build() makes, by the same name.
const schemas = lazySchemas(build);

/** An array of one kind of value, checked in one loop (z.array checks element by element through zod, ~10× slower at 200,000). */
function arrayOf<T>(what: string, ok: (v: unknown) => boolean) {
  return z.custom<T[]>((v) => Array.isArray(v) && v.every(ok), `expected an array of ${what}`);
}
const isMs = (v: unknown) => Number.isSafeInteger(v) && (v as number) >= 0 && (v as number) <= CUE_LIMITS.maxMs;
const isText = (v: unknown) => typeof v === 'string' && v.length <= CUE_LIMITS.textChars;
const isWord = (v: unknown) => Number.isSafeInteger(v) && (v as number) >= -1;
const at = <T>(what: string, ok: (v: unknown) => boolean) =>
  arrayOf<[number, T]>(what, (e) => Array.isArray(e) && e.length === 2 && Number.isSafeInteger(e[0]) && (e[0] as number) >= 0 && ok(e[1]));

export const cueColumnsSchema = z.lazy(() => schemas().cueColumnsSchema);
export type CueColumns = z.infer<typeof cueColumnsSchema>;

/** subtitles.open's answer: everything the Subtitles view needs to open; undo works across closing it (the history's labels; main keeps the edits). */
export const subtitleDocWireSchema = z.lazy(() => schemas().subtitleDocWireSchema);
export type SubtitleDocWire = z.infer<typeof subtitleDocWireSchema>;

function build() {
  const cueColumnsSchema = z
    .object({
      start: arrayOf<number>('times', isMs),
      end: arrayOf<number>('times', isMs),
      text: arrayOf<string>('cue texts', isText),
      /** The cue's word range, or -1 in both for a cue made of no words. */
      firstWord: arrayOf<number>('word indexes', isWord),
      lastWord: arrayOf<number>('word indexes', isWord),
      /** Sparse: [cue index, value] for the cues that carry the field. */
      speaker: at<string | null>('speakers', (v) => v === null || (typeof v === 'string' && v.length <= CUE_LIMITS.speakerChars)),
      ident: at<string>('identifiers', (v) => typeof v === 'string' && v.length <= CUE_LIMITS.identChars),
      settings: at<string>('settings', (v) => typeof v === 'string' && v.length <= CUE_LIMITS.settingsChars),
      notes: at<string[]>(
        'notes',
        (v) => Array.isArray(v) && v.length <= CUE_LIMITS.notes && v.every((n) => typeof n === 'string' && n.length <= CUE_LIMITS.noteChars),
      ),
    })
    .superRefine((c, ctx) => {
      const n = c.start.length;
      for (const key of ['end', 'text', 'firstWord', 'lastWord'] as const)
        if (c[key].length !== n) ctx.addIssue({ code: 'custom', path: [key], message: `${key} has ${c[key].length} entries for ${n} cues` });
      for (const key of ['speaker', 'ident', 'settings', 'notes'] as const) {
        const bad = c[key].find(([i]) => i >= n);
        if (bad) ctx.addIssue({ code: 'custom', path: [key], message: `${key} names cue ${bad[0]} of ${n}` });
      }
    });

  const subtitleDocWireSchema = z.object({
    recordingId: z.string(),
    /** Increases with every change; each edit names the version it applies to. */
    version: z.number().int().nonnegative(),
    /** false: never edited, the cues are built from the words by the profile. */
    edited: z.boolean(),
    profileId: z.string(),
    profiles: z.array(rulesProfileSchema),
    cues: cueColumnsSchema,
    /** The digest of the cues (digest.ts). */
    digest: z.string(),
    header: z.array(z.string()),
    trailer: z.array(z.string()),
    /** Labels, oldest first; the last is what Undo undoes. */
    undo: z.array(z.string()),
    /** Labels, next first: what Redo redoes. */
    redo: z.array(z.string()),
  });
  return { cueColumnsSchema, subtitleDocWireSchema };
}
