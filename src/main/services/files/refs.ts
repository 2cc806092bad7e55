/**
 * The one check between a file the user names (a FileRef: a path, or an upload id) and the bytes
 * Verbatim reads. A path is followed to its real path (every link resolved); in host mode that must
 * lie inside a folder it was started with (--folder), since any browser tab with the token speaks
 * here. The file is then opened once, without following a link at its end and without waiting on a
 * pipe, checked to be a regular file, and the descriptor's own path is checked again: whoever reads
 * goes on from that descriptor, never the path, so a file swapped for a link after the check reads
 * nothing outside.
 */
import { constants, createWriteStream, existsSync } from 'node:fs';
import { open, readlink, realpath, rename, rm, stat, type FileHandle } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import { basename, dirname, isAbsolute, join, resolve } from 'node:path';
import { AppError } from '../../../shared/errors';
import type { FileRef } from '../../../shared/ipc/files';
import type { PickedFiles } from './picked';
import type { StagedUploads } from './staged';

/** A file the check let through, open for reading. `close()` once read. */
export interface OpenedFile {
  /** Its real path (links resolved); a staged upload's own path. */
  path: string;
  /** The name the user knows it by. */
  name: string;
  size: number;
  handle: FileHandle;
  /** A host-mode upload in the staging folder (not the user's own file). */
  staged: boolean;
  close(): Promise<void>;
}

export interface OpenOptions {
  /** What the user knows the file as (an upload's name); else the path's last part. */
  name?: string;
  /** Only a file the user picked or dropped this session, on the desktop too (a subtitle file named over IPC). */
  requirePicked?: boolean;
  /** Refused (`conflict`) when a job uses this upload: it is that job's source. */
  notAJobsUpload?: boolean;
  /** Appended to every refusal: what was not done ("Nothing was added."). */
  nothing?: string;
}

/** O_NOFOLLOW: a link at the end of the path is refused, not followed; O_NONBLOCK: a pipe named like a file does not hold the open. */
const FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);
/** Linux names an open descriptor's file here: its path as the kernel sees it now, whatever was swapped since. */
const FD_LINKS = existsSync('/proc/self/fd') ? '/proc/self/fd' : null;

function notPicked(name: string, nothing: string): AppError {
  return new AppError('forbidden', `Verbatim only reads a file you picked or dropped. Choose “${name}” again.${nothing}`);
}

export class UserFiles {
  constructor(
    readonly picked: PickedFiles,
    readonly staged: StagedUploads,
  ) {}

  /** Host mode: only what lies under --folder may be read. */
  get confined(): boolean {
    return this.picked.onlyPicked;
  }

  /** Whether files under this folder (its real path) may be read: a watch folder, a backup's folder. */
  allowsFolder(realDir: string): boolean {
    return !this.confined || this.picked.has(resolve(realDir, 'file'));
  }

  /** The check: a FileRef as an opened regular file, or a clear refusal. */
  async open(ref: FileRef, opts: OpenOptions = {}): Promise<OpenedFile> {
    if (ref.kind === 'upload') return this.openUpload(ref.uploadId, { ...opts, name: opts.name ?? ref.name });
    return this.openPath(ref.path, opts);
  }

  /** A path the user named (picked, dropped, typed in host mode, found in a watched folder). */
  async openPath(path: string, opts: OpenOptions = {}): Promise<OpenedFile> {
    const name = opts.name ?? basename(path);
    const nothing = opts.nothing ? ` ${opts.nothing}` : '';
    if (!isAbsolute(path) || path.includes('\0'))
      throw new AppError('bad_request', `Give the file’s full path (starting at the top of the disk), not “${path.slice(0, 200)}”.${nothing}`);
    // Host mode: a path outside --folder is refused by its name first, so nothing outside is even looked up.
    if (this.confined && !this.picked.has(path)) throw this.outside(name, false, nothing);
    if (opts.requirePicked && !this.picked.has(path)) throw notPicked(name, nothing);
    let real: string;
    try {
      real = await realpath(path);
    } catch (e) {
      throw new AppError('file_unreadable', `Verbatim cannot read “${name}”: it was moved or deleted. Choose it again.${nothing}`, { cause: e });
    }
    this.mayRead(path, real, name, opts, nothing);
    const handle = await open(real, FLAGS).catch((e: unknown) => {
      if ((e as NodeJS.ErrnoException).code === 'ELOOP') throw this.outside(name, true, nothing);
      throw new AppError('file_unreadable', `Verbatim cannot read “${name}”: it was moved or deleted. Choose it again.${nothing}`, { cause: e });
    });
    try {
      const size = await this.regular(handle, name, nothing);
      // Between realpath and open, a folder on the way may have become a link: the descriptor's own path says where it leads.
      const where = await this.whereOpened(handle, real);
      this.mayRead(path, where, name, opts, nothing);
      return { path: real, name, size, handle, staged: false, close: () => handle.close().catch(() => undefined) };
    } catch (e) {
      await handle.close().catch(() => undefined);
      throw e;
    }
  }

  /** A file the host-mode /upload route staged (data/uploads/<id>). */
  async openUpload(uploadId: string, opts: OpenOptions = {}): Promise<OpenedFile> {
    const name = opts.name ?? 'The upload';
    const nothing = opts.nothing ? ` ${opts.nothing}` : '';
    const path = this.staged.path(uploadId);
    if (opts.notAJobsUpload && this.staged.inUse(path)) throw new AppError('conflict', `That upload is being transcribed. Choose “${name}” again.${nothing}`);
    const notStaged = () => new AppError('forbidden', `The upload of “${name}” is not a file Verbatim staged. Choose the file again.${nothing}`);
    const handle = await open(path, FLAGS).catch((e: unknown) => {
      if ((e as NodeJS.ErrnoException).code === 'ELOOP') throw notStaged();
      throw new AppError('not_found', `The upload of “${name}” is gone (Verbatim restarted, or it was used). Choose the file again.${nothing}`, { cause: e });
    });
    try {
      if (!(await handle.stat()).isFile()) throw notStaged();
      const size = await this.regular(handle, name, nothing);
      return { path, name, size, handle, staged: true, close: () => handle.close().catch(() => undefined) };
    } catch (e) {
      await handle.close().catch(() => undefined);
      throw e;
    }
  }

  /**
   * A staged copy read from the opened file (never its path again), for a reader that takes a path (the
   * library's worker, the library's audio folder); a staged upload is its own copy. The caller takes it once.
   */
  async stagedCopy(f: OpenedFile): Promise<string> {
    if (f.staged) return f.path;
    const { part, path } = this.staged.create();
    try {
      await pipeline(f.handle.createReadStream({ start: 0, autoClose: false }), createWriteStream(part));
      await rename(part, path);
    } catch (e) {
      await rm(part, { force: true });
      throw new AppError('file_unreadable', `Verbatim could not read “${f.name}” (${(e as NodeJS.ErrnoException).code ?? 'error'}). Choose it again.`, {
        cause: e,
      });
    }
    return path;
  }

  /** A backup's folder (written into, or read): folder() for backups. */
  backupFolder(dir: string, mayCreate: boolean): Promise<string> {
    return this.folder(dir, 'backup', mayCreate);
  }

  /**
   * A folder Verbatim reads or writes the user's files in (a backup's, the notes folder), as the path to use
   * from then on. In host mode it must lie inside --folder by its real path, so `..`, a link out or a path
   * relative to the server's working folder is refused; `mayCreate`: it need not exist yet (its parent must,
   * inside). `what` names its files in the refusal ("backup", "note"). On the desktop: as given.
   */
  async folder(dir: string, what: string, mayCreate = false): Promise<string> {
    if (!this.confined) return dir;
    const shown = dir.slice(0, 300);
    if (!isAbsolute(dir) || dir.includes('\0'))
      throw new AppError(
        'bad_request',
        `Give the ${what} folder’s full path, inside a folder Verbatim in the browser was started with (--folder), not “${shown}”.`,
      );
    let real = await realpath(dir).catch(() => null);
    if (real && !(await stat(real).catch(() => null))?.isDirectory()) throw new AppError('bad_request', `“${shown}” is not a folder. Choose a folder.`);
    if (!real && mayCreate && !/^\.{1,2}$/.test(basename(dir))) {
      const parent = await realpath(dirname(dir)).catch(() => null);
      if (parent) real = join(parent, basename(dir));
    }
    if (!real) throw new AppError('bad_request', `“${shown}” is not a folder Verbatim can open. Check the path.`);
    if (!this.allowsFolder(real))
      throw new AppError(
        'forbidden',
        `Verbatim in the browser reads and writes ${what}s only inside the folders it was started with (--folder); “${shown}” is outside them${real !== resolve(dir) ? ' (it leads there through a link)' : ''}. Choose a folder inside one of them.`,
      );
    return real;
  }

  private mayRead(given: string, real: string, name: string, opts: OpenOptions, nothing: string): void {
    if (this.confined) {
      if (!this.picked.has(real)) throw this.outside(name, resolve(given) !== real, nothing);
      return;
    }
    if (opts.requirePicked && !this.picked.has(given)) throw notPicked(name, nothing);
  }

  private outside(name: string, link: boolean, nothing: string): AppError {
    return new AppError(
      'forbidden',
      link
        ? `“${name}” is a link to a file outside the folders Verbatim in the browser may read (those it was started with, --folder), so it was not read. Copy the file itself into one of them, or drop it in the page.${nothing}`
        : `Verbatim in the browser reads only files you picked or dropped in the page (they are uploaded), or files inside the folders it was started with (--folder); “${name}” is neither. Drop it in the page instead.${nothing}`,
    );
  }

  private async regular(handle: FileHandle, name: string, nothing: string): Promise<number> {
    const st = await handle.stat();
    if (!st.isFile())
      throw new AppError('file_unreadable', `“${name}” is not a file Verbatim can read (a folder, a device or a pipe). Choose a file.${nothing}`);
    return st.size;
  }

  /** The opened file's path now: the kernel's name for the descriptor where it has one, else the real path if it is still the same file. */
  private async whereOpened(handle: FileHandle, real: string): Promise<string> {
    if (FD_LINKS) return readlink(`${FD_LINKS}/${handle.fd}`);
    const [a, b] = await Promise.all([handle.stat(), stat(real).catch(() => null)]);
    if (!b || a.dev !== b.dev || a.ino !== b.ino) throw new AppError('file_unreadable', `The file changed while Verbatim opened it. Choose it again.`);
    return real;
  }
}
