/**
 * A subtitle file named by reference (a picked path on the desktop, an upload id in host mode), checked
 * by the one check (refs.ts) before the library's worker reads it: only a file the user picked, or one
 * this host staged. The worker reads a staged copy made from the opened file, never the user's path.
 */
import { rm } from 'node:fs/promises';
import { AppError } from '../../../shared/errors';
import type { FileRef } from '../../../shared/ipc/files';
import type { SubtitleText } from '../library/subtitle-text';
import type { UserFiles } from './refs';

/** Bytes of subtitle file read at most: the parser's 200,000 cues fit in a tenth of it, in any encoding. */
export const SUBTITLE_FILE_BYTES = 100 * 1024 * 1024;

/** Where the worker reads the file's text: always a staged file, removed once read. */
export async function subtitleFileText(ref: FileRef, name: string, files: UserFiles): Promise<SubtitleText> {
  const f = await files.open(ref, { name, requirePicked: true, notAJobsUpload: true });
  try {
    if (f.size > SUBTITLE_FILE_BYTES) {
      // A staged upload is of no use to anything else.
      if (f.staged) await rm(f.path, { force: true });
      throw tooLarge(name);
    }
    return { path: await files.stagedCopy(f), remove: true };
  } finally {
    await f.close();
  }
}

function tooLarge(name: string): AppError {
  return new AppError(
    'file_too_large',
    `“${name}” is larger than ${SUBTITLE_FILE_BYTES / 1024 / 1024} MB, far more than 200,000 cues. Split the file and import the parts.`,
  );
}
