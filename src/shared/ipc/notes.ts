/** The notes folder (Settings → Notes folder): every finished transcript kept there as a Markdown note. */
import { z } from 'zod';
import { none, type Contracts } from './common';

/** A note the user edited in the folder: left as it is, with Verbatim's update written beside it. */
export const keptNoteSchema = z.object({ note: z.string(), copy: z.string() });
export type KeptNote = z.infer<typeof keptNoteSchema>;

export const notesStatusSchema = z.object({
  /** The folder notes are kept in; null when notes are off. */
  folder: z.string().nullable(),
  /** Notes written and kept up to date there. */
  notes: z.number().int().nonnegative(),
  /** Notes the user edited (at most the 50 latest). */
  kept: z.array(keptNoteSchema).max(50),
  /** Why notes cannot be written now (the folder is gone, not allowed…), else null. */
  problem: z.string().nullable(),
});
export type NotesStatus = z.infer<typeof notesStatusSchema>;

export const notesChannels = {
  'notes.status': { input: none, output: notesStatusSchema },
  /** Keep notes in this folder (a full path), or stop (null); a folder Verbatim may not write into is refused, saying why. */
  'notes.setFolder': { input: z.object({ folder: z.string().trim().min(1).max(4096).nullable() }).strict(), output: notesStatusSchema },
  /** The desktop's folder dialog; null when canceled, and always in a browser. */
  'notes.pickFolder': { input: none, output: z.object({ folder: z.string().nullable() }) },
} as const satisfies Contracts;
