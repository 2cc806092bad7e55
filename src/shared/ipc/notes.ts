/** The notes folder (Settings → Notes folder): every finished transcript kept there as a Markdown note. */
import { z } from 'zod';
import { none, type Contracts } from './common';
import { lazySchemas } from '../lazy-schemas';

// Made on first use (lazy-schemas.ts): each schema below is a z.lazy of the one build() makes, by the same name.
const schemas = lazySchemas(build);

/** A note the user edited in the folder: left as it is, with Verbatim's update written beside it. */
export const keptNoteSchema = z.lazy(() => schemas().keptNoteSchema);
export type KeptNote = z.infer<typeof keptNoteSchema>;

export const notesStatusSchema = z.lazy(() => schemas().notesStatusSchema);
export type NotesStatus = z.infer<typeof notesStatusSchema>;

export const notesChannels = {
  'notes.status': { input: none, output: notesStatusSchema },
  /** Keep notes in this folder (a full path), or stop (null); a folder Verbatim may not write into is refused, saying why. */
  'notes.setFolder': { input: z.lazy(() => z.object({ folder: z.string().trim().min(1).max(4096).nullable() }).strict()), output: notesStatusSchema },
  /** The desktop's folder dialog; null when canceled, and always in a browser. */
  'notes.pickFolder': { input: none, output: z.lazy(() => z.object({ folder: z.string().nullable() })) },
} as const satisfies Contracts;

function build() {
  const keptNoteSchema = z.object({ note: z.string(), copy: z.string() });

  const notesStatusSchema = z.object({
    /** The folder notes are kept in; null when notes are off. */
    folder: z.string().nullable(),
    /** Notes written and kept up to date there. */
    notes: z.number().int().nonnegative(),
    /** Notes the user edited (at most the 50 latest). */
    kept: z.array(keptNoteSchema).max(50),
    /** Why notes cannot be written now (the folder is gone, not allowed…), else null. */
    problem: z.string().nullable(),
  });
  return { keptNoteSchema, notesStatusSchema };
}
