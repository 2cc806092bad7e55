/** Files in a backup folder (untrusted): opened only when they are regular files reached without links, and copied sparse-aware with flat memory. */
import { constants, type Stats } from 'node:fs';
import { copyFile, lstat, open, realpath, truncate, unlink, type FileHandle } from 'node:fs/promises';
import { sep } from 'node:path';
import { AppError } from '../../../shared/errors';

/** O_NOFOLLOW where the platform has it (not Windows), and O_NONBLOCK so a FIFO swapped in after the lstat cannot block the open. */
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);

function kind(st: Stats): string {
  if (st.isSymbolicLink()) return 'a link';
  if (st.isFIFO()) return 'a FIFO';
  if (st.isSocket()) return 'a socket';
  if (st.isCharacterDevice() || st.isBlockDevice()) return 'a device';
  if (st.isDirectory()) return 'a folder';
  return 'not a regular file';
}

/** A folder inside the backup that is a real folder (not a link to one elsewhere); null when it is missing. */
export async function realFolder(path: string, what: string): Promise<string | null> {
  const st = await lstat(path).catch(() => null);
  if (!st) return null;
  if (!st.isDirectory() || st.isSymbolicLink())
    throw new AppError(
      'file_unreadable',
      `${what} in the backup is ${kind(st)}, not a folder. Backups hold only plain files and folders; nothing was imported.`,
    );
  return path;
}

/**
 * Opens `path` for reading only when it is a regular file, not a link, and
 * inside `root` (a real path): checked by lstat before the open, by
 * O_NOFOLLOW in it, and by fstat after it (same file, still regular).
 * Answers the handle and the file's size, or why it was refused.
 */
export async function openRegular(path: string, root: string): Promise<{ fh: FileHandle; size: number } | { refused: string }> {
  const before = await lstat(path).catch(() => null);
  if (!before) return { refused: 'missing' };
  if (!before.isFile()) return { refused: kind(before) };
  // A hard link inside the backup can name any file of the same owner elsewhere on the disk: exportAll never makes one.
  if (before.nlink > 1) return { refused: 'a hard link' };
  const real = await realpath(path).catch(() => null);
  if (!real || !real.startsWith(root + sep)) return { refused: 'outside the backup' };
  let fh: FileHandle;
  try {
    fh = await open(path, OPEN_FLAGS);
  } catch (e) {
    return { refused: (e as NodeJS.ErrnoException).code === 'ELOOP' ? 'a link' : 'unreadable' };
  }
  const st = await fh.stat();
  if (!st.isFile() || st.ino !== before.ino || st.dev !== before.dev) {
    await fh.close();
    return { refused: st.isFile() ? 'replaced while being read' : kind(st) };
  }
  return { fh, size: st.size };
}

const CHUNK = 1 << 20;
const ZERO = Buffer.alloc(CHUNK);

/**
 * Copies an open backup file to `to`: first as a clone of the very file
 * open (Linux /proc/self/fd, COPYFILE_FICLONE_FORCE: shared blocks on btrfs
 * and XFS), else in 1 MiB reads that leave runs of zeros as holes, so a
 * sparse file stays sparse on any filesystem that has holes. Each read is
 * a turn of the event loop; `signal` stops it (the partial copy is removed).
 */
export async function copyOpened(fh: FileHandle, size: number, to: string, signal?: AbortSignal): Promise<void> {
  if (process.platform === 'linux') {
    try {
      await copyFile(`/proc/self/fd/${fh.fd}`, to, constants.COPYFILE_FICLONE_FORCE);
      return;
    } catch {
      // No cloning here (ext4, tmpfs, another filesystem): the sparse copy below.
    }
  }
  const out = await open(to, 'w', 0o600);
  try {
    const buf = Buffer.allocUnsafe(CHUNK);
    for (let at = 0; at < size;) {
      if (signal?.aborted) throw new AppError('canceled', 'The import was canceled.');
      const { bytesRead } = await fh.read(buf, 0, Math.min(CHUNK, size - at), at);
      if (bytesRead === 0) break;
      if (!buf.subarray(0, bytesRead).equals(ZERO.subarray(0, bytesRead))) await out.write(buf, 0, bytesRead, at);
      at += bytesRead;
    }
    await out.close();
    await truncate(to, size);
  } catch (e) {
    await out.close().catch(() => undefined);
    await unlink(to).catch(() => undefined);
    throw e;
  }
}
