/**
 * Install from an archive, a model file or a folder the user picked: matched
 * to its catalog entry by the entry the user chose or by name, opened as a
 * regular file only (a FIFO or device named like an archive never blocks a
 * thread: it is refused before any blocking open), verified like a download
 * (the value trusted before, the catalog's, else upstream's published list)
 * and installed.
 */
import { constants, createWriteStream } from 'node:fs';
import { mkdir, open, stat, unlink, type FileHandle } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createHash } from 'node:crypto';
import { Transform } from 'node:stream';
import { AppError } from '../../../shared/errors';
import type { CatalogEntry } from '../../../shared/models/catalog';
import { archiveNameOf, judge } from './checksums';
import { diskFull, ModelError } from './errors';
import { installModel, PARTIAL_DIR } from './install';
import type { Verified } from './state';

export interface FromFileDeps {
  dir: string;
  catalog: readonly CatalogEntry[];
  /** Free bytes on the models disk, or null when unknown. */
  free: () => Promise<number | null>;
  /** Bytes an install of this entry needs beyond the source itself. */
  room: (entry: CatalogEntry, sourceBytes: number) => number;
  verified: (id: string) => Verified | undefined;
  /** Re-read upstream's list for a mismatch (null: the entry has none). */
  readList: (entry: CatalogEntry) => (() => Promise<string | null>) | null;
  remember: (id: string, v: Verified) => Promise<void>;
}

/** The catalog entry a picked name stands for: the archive's (or single file's) name, or for a folder its top folder's name or the id. */
export function matchByName(catalog: readonly CatalogEntry[], name: string, folder: boolean): CatalogEntry | undefined {
  const lower = name.toLowerCase();
  return catalog.find((e) => {
    const file = archiveNameOf(e).toLowerCase();
    const stem = file.replace(/\.tar\.bz2$/, '');
    return folder ? lower === stem || lower === e.id : lower === file;
  });
}

/** SHA-256 and size of a file read through `fd`, copied to `copyTo` on the way when given. */
async function hashOpened(handle: FileHandle, copyTo: string | null): Promise<{ sha256: string; bytes: number }> {
  const hash = createHash('sha256');
  let bytes = 0;
  const tap = new Transform({
    transform(chunk: Buffer, _e, cb) {
      hash.update(chunk);
      bytes += chunk.length;
      cb(null, copyTo ? chunk : undefined);
    },
  });
  const source = handle.createReadStream({ highWaterMark: 1 << 20, autoClose: false });
  if (copyTo) await pipeline(source, tap, createWriteStream(copyTo, { flags: 'w' }));
  else await pipeline(source, tap);
  return { sha256: hash.digest('hex'), bytes };
}

/** Install from `path` (shown to the user as `name`); `id` is the entry the user chose, else the name picks it. Resolves with the installed id. */
export async function installFromPath(deps: FromFileDeps, path: string, name: string, id?: string): Promise<string> {
  // stat never blocks on a FIFO; open does, so the kind of file is known before it is opened.
  const s = await stat(path).catch(() => null);
  if (!s) throw new AppError('file_unreadable', `Verbatim cannot read ${basename(name)}.`);
  const folder = s.isDirectory();
  if (!folder && !s.isFile())
    throw new AppError('bad_request', `${basename(name)} is not a regular file, so Verbatim did not read it. Pick the archive or model file itself.`);
  const entry = id ? deps.catalog.find((e) => e.id === id) : matchByName(deps.catalog, name, folder);
  if (id && !entry) throw new AppError('not_found', `There is no model called ${id} in the catalog.`);
  if (!entry)
    throw new AppError(
      'bad_request',
      `${name} is not a model Verbatim knows. Pick the archive as it was downloaded (for example ${archiveNameOf(deps.catalog[0] ?? ({ url: 'https://x/model.tar.bz2' } as CatalogEntry))}) or the folder it unpacks to.`,
    );
  const free = await deps.free();
  const need = deps.room(entry, folder ? 0 : s.size);
  if (free !== null && free < need) throw new AppError('conflict', diskFull(need, free).message);
  let staged: string | null = null;
  try {
    if (folder) {
      await installModel(deps.dir, entry, { kind: 'folder', path, sha256: null });
      return entry.id;
    }
    // O_NONBLOCK: should the path have become a FIFO since the stat, the open still returns at once, and fstat refuses it.
    const handle = await open(path, constants.O_RDONLY | constants.O_NONBLOCK).catch(() => null);
    if (!handle) throw new AppError('file_unreadable', `Verbatim cannot read ${basename(name)}.`);
    let got: { sha256: string; bytes: number };
    try {
      if (!(await handle.stat()).isFile()) throw new AppError('bad_request', `${basename(name)} is not a regular file, so Verbatim did not read it.`);
      // A single-file model is copied while it is hashed, so what is checked is what gets installed.
      if (entry.format === 'file') {
        await mkdir(join(deps.dir, PARTIAL_DIR), { recursive: true });
        staged = join(deps.dir, PARTIAL_DIR, `${entry.id}.from-file`);
      }
      got = await hashOpened(handle, staged);
    } finally {
      await handle.close();
    }
    const known = deps.verified(entry.id);
    const expected = known?.sha256 ?? entry.sha256 ?? null;
    // Upstream's published list is read whenever the file is not the value already trusted, as a download's is:
    // with no pinned or recorded value, the list is the only judge (a file it does not name is refused).
    const reader = expected !== got.sha256 ? deps.readList(entry) : null;
    let listed: string | null = null;
    const readList = reader ? async () => (listed = await reader()) : null;
    let verdict;
    try {
      verdict = await judge(entry, got, known, readList, '');
    } catch (err) {
      if (err instanceof ModelError)
        throw new ModelError(
          'checksum',
          listed
            ? `${name} is not the archive its publisher lists for this model (its SHA-256 differs), so it was not installed. It may be damaged or a different version; download it again from the publisher.`
            : `${name} does not match the archive Verbatim knows (SHA-256 differs). It may be damaged or a different version; download it again.`,
        );
      throw err;
    }
    await installModel(deps.dir, entry, {
      kind: staged ? 'file' : entry.format === 'tar.bz2' ? 'archive' : 'file',
      path: staged ?? path,
      sha256: got.sha256,
      move: staged !== null,
    });
    staged = null;
    // A file the user picked is not a first download: only a value upstream or the catalog vouches for is kept.
    if (verdict.verified.source !== 'first') await deps.remember(entry.id, verdict.verified);
    return entry.id;
  } catch (err) {
    if (err instanceof ModelError) throw new AppError(err.kind === 'disk' ? 'conflict' : 'unsupported_media', err.message);
    const code = (err as NodeJS.ErrnoException | undefined)?.code;
    if (code === 'ENOSPC' || code === 'EDQUOT') throw new AppError('conflict', diskFull().message);
    throw err;
  } finally {
    if (staged) await unlink(staged).catch(() => undefined);
  }
}
