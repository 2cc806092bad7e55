/**
 * Files of the models folder opened as regular files only: a FIFO would block the open (or a read) for ever,
 * a link could lead to /dev/zero or out of the model's folder, and a device never ends. Checked by lstat
 * before the open, by O_NOFOLLOW and O_NONBLOCK in it, and by fstat after it (the same file, still regular),
 * as main's backup import does with backup folders. Reads are bounded by a size cap.
 */
import { constants, type Stats } from 'node:fs';
import { lstat, open, type FileHandle } from 'node:fs/promises';

/** O_NOFOLLOW where the platform has it (not Windows); O_NONBLOCK so a FIFO swapped in after the lstat cannot block the open. */
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);

/** The file is not something a model may hold; `what` says what it is ("a FIFO", "a link", "missing", …). */
export class FileRefusedError extends Error {
  constructor(
    readonly path: string,
    readonly what: string,
  ) {
    super(`${path} is ${what}`);
  }
}

/** What a non-regular file is, in words. */
export function fileKind(st: Stats): string {
  if (st.isSymbolicLink()) return 'a link';
  if (st.isFIFO()) return 'a FIFO';
  if (st.isSocket()) return 'a socket';
  if (st.isCharacterDevice() || st.isBlockDevice()) return 'a device';
  if (st.isDirectory()) return 'a folder';
  return st.isFile() ? 'a regular file' : 'not a regular file';
}

/** Opens `path` (which must not be a link) for reading when it is a regular file; throws FileRefusedError otherwise. The caller closes the handle. */
export async function openRegular(path: string): Promise<{ fh: FileHandle; size: number; st: Stats }> {
  const before = await lstat(path).catch((err: NodeJS.ErrnoException) => {
    throw new FileRefusedError(path, err.code === 'ENOENT' || err.code === 'ENOTDIR' ? 'missing' : `unreadable (${err.code ?? 'error'})`);
  });
  if (!before.isFile()) throw new FileRefusedError(path, fileKind(before));
  let fh: FileHandle;
  try {
    fh = await open(path, OPEN_FLAGS);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new FileRefusedError(path, code === 'ELOOP' ? 'a link' : code === 'ENOENT' ? 'missing' : `unreadable (${code ?? 'error'})`);
  }
  const st = await fh.stat();
  if (!st.isFile() || st.ino !== before.ino || st.dev !== before.dev) {
    await fh.close();
    throw new FileRefusedError(path, st.isFile() ? 'replaced while being read' : fileKind(st));
  }
  return { fh, size: st.size, st };
}

/** The whole of a small regular file, refused (FileRefusedError "larger than …") past `cap` bytes; reads never pass the cap, whatever the file claims. */
export async function readCapped(path: string, cap: number): Promise<{ bytes: Buffer; st: Stats }> {
  const { fh, size, st } = await openRegular(path);
  try {
    if (size > cap) throw new FileRefusedError(path, `larger than ${cap} bytes (${size})`);
    const buf = Buffer.alloc(Math.min(size, cap) + 1);
    let got = 0;
    while (got < buf.length) {
      const { bytesRead } = await fh.read(buf, got, buf.length - got, got);
      if (bytesRead === 0) break;
      got += bytesRead;
    }
    if (got > cap) throw new FileRefusedError(path, `larger than ${cap} bytes`);
    return { bytes: buf.subarray(0, got), st };
  } finally {
    await fh.close();
  }
}
