/**
 * Main's reads of the models folder's small files (manifests, the download state, defaults, speeds, the offer):
 * regular files only, opened without following a link and non-blocking, then checked by fstat, and never read
 * past a size cap. A FIFO named like a manifest would otherwise hold the open (a thread of the pool, or the main
 * thread for a synchronous read) until a writer comes, and a link to /dev/zero would never end. The engine's
 * reader of the same folder (src/engine/models/regular-file.ts) takes the same approach; the two processes share
 * no code but the wire.
 */
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { open } from 'node:fs/promises';

/** O_NOFOLLOW where the platform has it (not Windows); O_NONBLOCK so a FIFO opens at once (and is refused by fstat). */
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);

/** A manifest or state file is a few kB; anything past this is not one. */
export const SMALL_FILE_CAP = 1024 * 1024;

/** The text of a small regular file, or null when it is missing, not a regular file (a FIFO, a device, a link, a folder) or over `cap` bytes. */
export async function readSmallFile(path: string, cap = SMALL_FILE_CAP): Promise<string | null> {
  const fh = await open(path, OPEN_FLAGS).catch(() => null);
  if (!fh) return null;
  try {
    const st = await fh.stat();
    if (!st.isFile() || st.size > cap) return null;
    const buf = Buffer.alloc(st.size + 1);
    let got = 0;
    while (got < buf.length) {
      const { bytesRead } = await fh.read(buf, got, buf.length - got, got);
      if (bytesRead === 0) break;
      got += bytesRead;
    }
    // A file that grew past its stated size while being read is not taken either.
    return got > st.size || got > cap ? null : buf.subarray(0, got).toString('utf8');
  } catch {
    return null;
  } finally {
    await fh.close().catch(() => undefined);
  }
}

/** readSmallFile for a read at start-up that must finish before the first answer (the state files the services load once). */
export function readSmallFileSync(path: string, cap = SMALL_FILE_CAP): string | null {
  let fd: number;
  try {
    fd = openSync(path, OPEN_FLAGS);
  } catch {
    return null;
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile() || st.size > cap) return null;
    const buf = Buffer.alloc(st.size + 1);
    let got = 0;
    while (got < buf.length) {
      const n = readSync(fd, buf, got, buf.length - got, got);
      if (n === 0) break;
      got += n;
    }
    return got > st.size || got > cap ? null : buf.subarray(0, got).toString('utf8');
  } catch {
    return null;
  } finally {
    closeSync(fd);
  }
}

/** The JSON of a small regular file, or undefined when it cannot be read or parsed. */
export function readSmallJsonSync(path: string): unknown {
  const text = readSmallFileSync(path);
  if (text === null) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
