/**
 * A subtitle file named by reference (a picked path on the desktop, an upload
 * id in host mode), checked here before the library's worker reads it: only a
 * file the user picked, or one this host staged in its uploads folder.
 */
import { lstatSync, rmSync, statSync, type Stats } from 'node:fs';
import { basename, join } from 'node:path';
import { AppError } from '../../shared/errors';
import type { SubtitleText } from './library/subtitle-text';
import type { PickedFiles } from './picked-files';

export type SubtitleFileRequest = { kind: 'path'; path: string } | { kind: 'upload'; uploadId: string };

/** Bytes of subtitle file read at most: the parser's 200,000 cues fit in a tenth of it, in any encoding. */
export const SUBTITLE_FILE_BYTES = 100 * 1024 * 1024;

export interface SubtitleFileDeps {
  picked: PickedFiles;
  /** Host mode's staging folder of `/upload`. */
  uploadsDir: string;
  /** Whether a job already uses this staged upload (its source: never read away from it). */
  uploadInUse(path: string): boolean;
}

/** An upload id as `/upload` issues them (base64url): no dot, no slash, so it names a file inside the uploads folder only. */
const UPLOAD_ID = /^[A-Za-z0-9_-]{8,64}$/;

/** `follow`: a picked path may be a link the user chose; a staged upload never is. */
function statOf(path: string, follow: boolean): Stats | null {
  try {
    return follow ? statSync(path) : lstatSync(path);
  } catch {
    return null;
  }
}

/** Where the worker reads the file's text; `remove` for a staged upload, which is used once. */
export function subtitleFileText(ref: SubtitleFileRequest, name: string, deps: SubtitleFileDeps): SubtitleText {
  if (ref.kind === 'upload') {
    if (!UPLOAD_ID.test(ref.uploadId)) throw new AppError('bad_request', `The upload of “${name}” is not one Verbatim made. Choose the file again.`);
    const path = join(deps.uploadsDir, ref.uploadId);
    if (deps.uploadInUse(path)) throw new AppError('conflict', `That upload is being transcribed, not imported. Choose “${name}” again.`);
    const st = statOf(path, false);
    if (!st) throw new AppError('not_found', `The upload of “${name}” is gone (Verbatim restarted, or it was used). Choose the file again.`);
    if (!st.isFile()) throw new AppError('forbidden', `The upload of “${name}” is not a file Verbatim staged. Choose the file again.`);
    if (st.size > SUBTITLE_FILE_BYTES) {
      rmSync(path, { force: true });
      throw tooLarge(name);
    }
    return { path, remove: true };
  }
  // Only what the user picked or dropped: a path typed over IPC could name any file on this machine.
  if (!deps.picked.has(ref.path))
    throw new AppError('forbidden', `Verbatim only reads a subtitle file you picked or dropped. Choose “${basename(ref.path)}” again.`);
  const st = statOf(ref.path, true);
  if (!st) throw new AppError('file_unreadable', `Verbatim cannot read “${name}”: it was moved or deleted. Choose it again.`);
  if (!st.isFile()) throw new AppError('file_unreadable', `“${name}” is not a file. Choose an SRT or VTT file.`);
  if (st.size > SUBTITLE_FILE_BYTES) throw tooLarge(name);
  return { path: ref.path, remove: false };
}

function tooLarge(name: string): AppError {
  return new AppError(
    'file_too_large',
    `“${name}” is larger than ${SUBTITLE_FILE_BYTES / 1024 / 1024} MB, far more than 200,000 cues. Split the file and import the parts.`,
  );
}
