/**
 * What the notes folder remembers, in `<data>/notes.json` (written whole or not at all): the folder,
 * and per recording the note's file name, the SHA-256 of what Verbatim last wrote there (a note whose
 * content differs was edited by the user and is never overwritten), and what it was made from.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { writeFileAtomic } from '../library/atomic-write';

const noteSchema = z.object({
  file: z.string(),
  hash: z.string(),
  /** The recording's updatedAt and its saved insights when the note was written: unchanged means nothing to do. */
  made: z.string(),
  /** Verbatim's update beside a note the user edited, and its hash. */
  copy: z.string().nullable().default(null),
  copyHash: z.string().nullable().default(null),
});
export type NoteRecord = z.infer<typeof noteSchema>;

const stateSchema = z.object({
  folder: z.string().nullable().default(null),
  notes: z.record(z.string(), noteSchema).default({}),
});
export type NotesState = z.infer<typeof stateSchema>;

export function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

export function readState(file: string): NotesState {
  try {
    return stateSchema.parse(JSON.parse(readFileSync(file, 'utf8')));
  } catch {
    return { folder: null, notes: {} };
  }
}

export async function saveState(file: string, state: NotesState): Promise<void> {
  await writeFileAtomic(file, `${JSON.stringify(state)}\n`);
}
