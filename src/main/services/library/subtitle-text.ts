/** A subtitle file's text for the library: given inline, or read from a file main checked. Imports nothing of the library, so the worker and main share it. */
import { closeSync, fstatSync, openSync, readSync, rmSync } from 'node:fs';
import { AppError } from '../../../shared/errors';
import { decodeSubtitleBytes } from '../../../shared/subtitles/decode';

/** A subtitle file's text: inline, or a file to read (and remove once read, when it was a staged upload). */
export type SubtitleText = { content: string } | { path: string; remove: boolean };

/** Bytes read at most from a subtitle file (main checked its size already: this holds if it grew since). */
const MAX_FILE_BYTES = 100 * 1024 * 1024;

/**
 * A subtitle file's text as the renderer read it (shared/subtitles/decode.ts, the same decoding on both
 * sides): inline, or read from the file main checked (services/files/subtitle-file.ts, a staged copy); a staged upload is
 * removed once read, whether or not it parses.
 */
export function subtitleText(text: SubtitleText): string {
  if ('content' in text) return text.content;
  try {
    const fd = openSync(text.path, 'r');
    try {
      const size = Math.min(fstatSync(fd).size, MAX_FILE_BYTES);
      const bytes = new Uint8Array(size);
      let at = 0;
      while (at < size) {
        const n = readSync(fd, bytes, at, size - at, at);
        if (n === 0) break;
        at += n;
      }
      return decodeSubtitleBytes(bytes.subarray(0, at)).text;
    } finally {
      closeSync(fd);
    }
  } catch (e) {
    if (e instanceof AppError) throw e;
    throw new AppError('file_unreadable', 'Verbatim could not read the subtitle file: it was moved or deleted. Choose it again.', { cause: e });
  } finally {
    if (text.remove) rmSync(text.path, { force: true });
  }
}
