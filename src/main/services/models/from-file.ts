/**
 * Install from an archive, a model file or a folder the user named: matched
 * to its catalog entry by the entry the user chose or by name, verified like
 * a download (the value trusted before, the catalog's, else upstream's
 * published list) and installed. A file comes opened by the files owner's
 * check (services/files: its real path, inside --folder in host mode, a
 * regular file) and is hashed and unpacked from that descriptor, never its
 * path again; a folder's files are each opened through that check too.
 */
import { createWriteStream } from 'node:fs';
import { mkdir, rm, stat, unlink, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createHash } from 'node:crypto';
import { Transform } from 'node:stream';
import { AppError } from '../../../shared/errors';
import type { CatalogEntry } from '../../../shared/models/catalog';
import type { UserFiles } from '../files/refs';
import { archiveNameOf, judge } from './checksums';
import { diskFull, ModelError } from './errors';
import { installModel, PARTIAL_DIR, type OpenMember } from './install';
import type { Verified } from './state';

export interface FromFileDeps {
  dir: string;
  /** The owner of the user's files: the one check before a file or folder the user names is read. */
  files: UserFiles;
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

/** What is installed from: a file opened by the check, or a folder (its real path) whose files `open` checks. */
export type ModelSource = { kind: 'file'; name: string; size: number; handle: FileHandle } | { kind: 'folder'; name: string; path: string; open: OpenMember };

/** SHA-256 and size of a file read through its descriptor (positional reads: the offset stays at 0 for the unpacker), copied to `copyTo` on the way when given. */
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
  const source = handle.createReadStream({ start: 0, highWaterMark: 1 << 20, autoClose: false });
  if (copyTo) await pipeline(source, tap, createWriteStream(copyTo, { flags: 'w' }));
  else await pipeline(source, tap);
  return { sha256: hash.digest('hex'), bytes };
}

const NOTHING = 'Nothing was installed.';

/** Install from a path the user named (shown as `name`, else its last part): a file through the check, read from its descriptor; a folder by its real path, each file checked. */
export async function installFromPath(deps: FromFileDeps, path: string, name?: string, id?: string): Promise<string> {
  const { files } = deps;
  const shown = name ?? path.split(/[\\/]/).pop() ?? path;
  // Which check applies: stat never blocks on a FIFO, and in host mode a path outside --folder is not even looked up (openPath refuses it).
  const s = files.confined && !files.picked.has(path) ? null : await stat(path).catch(() => null);
  if (s?.isDirectory()) {
    const real = await files.folder(path, 'model');
    return installFromSource(deps, { kind: 'folder', name: shown, path: real, open: (p) => files.openPath(p, { nothing: NOTHING }) }, id);
  }
  const opened = await files.openPath(path, { name: shown, nothing: NOTHING }).catch((e: unknown) => {
    throw e instanceof AppError && e.code === 'file_unreadable' && /not a file/.test(e.message)
      ? new AppError('bad_request', `${shown} is not a regular file, so Verbatim did not read it. Pick the archive or model file itself.`)
      : e;
  });
  try {
    return await installFromSource(deps, { kind: 'file', name: shown, size: opened.size, handle: opened.handle }, id);
  } finally {
    await opened.close();
  }
}

/** Install from a host-mode upload (staged by /upload): opened through the files owner and taken once (removed after, installed or not). */
export async function installFromUpload(deps: FromFileDeps, uploadId: string, name: string, id?: string): Promise<string> {
  const opened = await deps.files.openUpload(uploadId, { name, nothing: NOTHING });
  try {
    return await installFromSource(deps, { kind: 'file', name, size: opened.size, handle: opened.handle }, id);
  } finally {
    await opened.close();
    await rm(opened.path, { force: true });
  }
}

/** Install from `source` (shown to the user as its name); `id` is the entry the user chose, else the name picks it. Resolves with the installed id. */
export async function installFromSource(deps: FromFileDeps, source: ModelSource, id?: string): Promise<string> {
  const { name } = source;
  const folder = source.kind === 'folder';
  const entry = id ? deps.catalog.find((e) => e.id === id) : matchByName(deps.catalog, name, folder);
  if (id && !entry) throw new AppError('not_found', `There is no model called ${id} in the catalog.`);
  if (!entry)
    throw new AppError(
      'bad_request',
      `${name} is not a model Verbatim knows. Pick the archive as it was downloaded (for example ${archiveNameOf(deps.catalog[0] ?? ({ url: 'https://x/model.tar.bz2' } as CatalogEntry))}) or the folder it unpacks to.`,
    );
  const free = await deps.free();
  const need = deps.room(entry, folder ? 0 : source.size);
  if (free !== null && free < need) throw new AppError('conflict', diskFull(need, free).message);
  let staged: string | null = null;
  try {
    if (source.kind === 'folder') {
      await installModel(deps.dir, entry, { kind: 'folder', path: source.path, sha256: null, open: source.open });
      return entry.id;
    }
    // A single-file model is copied while it is hashed, so what is checked is what gets installed.
    if (entry.format === 'file') {
      await mkdir(join(deps.dir, PARTIAL_DIR), { recursive: true });
      staged = join(deps.dir, PARTIAL_DIR, `${entry.id}.from-file`);
    }
    const got = await hashOpened(source.handle, staged);
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
    // An archive is unpacked from the descriptor it was hashed from: the bytes checked are the bytes installed.
    await installModel(
      deps.dir,
      entry,
      staged ? { kind: 'file', path: staged, sha256: got.sha256, move: true } : { kind: 'archive', path: name, handle: source.handle, sha256: got.sha256 },
    );
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
