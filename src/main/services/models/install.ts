/**
 * The models folder: a model is `<dir>/<id>/` with its files and, written
 * last, verbatim-model.json. Installs go into a temporary folder that is
 * renamed into place only when complete; deletes rename the folder away
 * first so a reader never sees half a model. Also: disk use, free space, and
 * the installed list.
 */
import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { copyFile, mkdir, readdir, rename, rm, stat, statfs, writeFile, type FileHandle } from 'node:fs/promises';
import { basename, join, resolve, sep } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { MODEL_MANIFEST_FILE, modelManifestSchema, type CatalogEntry, type ModelManifest } from '../../../shared/models/catalog';
import { ModelError } from './errors';
import { readSmallFile } from './regular-file';
import { safeMemberPath, unpackTarBz2 } from './unpack';

/** Prefixes of the manager's own working names in the folder (never a model id: ids start with a letter or digit). */
export const TMP_PREFIX = '.tmp-';
export const TRASH_PREFIX = '.trash-';
export const PARTIAL_DIR = '.partial';

/** Bytes used by everything under `path`. */
export async function diskUse(path: string): Promise<number> {
  let total = 0;
  let entries;
  try {
    entries = await readdir(path, { withFileTypes: true });
  } catch {
    return 0;
  }
  for (const e of entries) {
    const p = join(path, e.name);
    if (e.isDirectory()) total += await diskUse(p);
    else if (e.isFile()) total += (await stat(p)).size;
  }
  return total;
}

/** Free bytes on the disk that holds `dir` (fs.statfs), or null when unreadable. */
export async function freeSpace(dir: string): Promise<number | null> {
  try {
    const s = await statfs(dir);
    return Number(s.bavail) * Number(s.bsize);
  } catch {
    return null;
  }
}

/**
 * The installed manifest of `<dir>/<id>`, or null when the folder has none (not installed), it does not parse, or
 * it is no regular file (a FIFO or a link to /dev/zero named like a manifest is refused without blocking a thread).
 */
export async function readManifest(dir: string, id: string): Promise<ModelManifest | null> {
  try {
    const text = await readSmallFile(join(dir, id, MODEL_MANIFEST_FILE));
    if (text === null) return null;
    const parsed = modelManifestSchema.safeParse(JSON.parse(text));
    return parsed.success && parsed.data.id === id ? parsed.data : null;
  } catch {
    return null;
  }
}

/** Every installed model (a folder with a valid manifest). */
export async function installedModels(dir: string): Promise<ModelManifest[]> {
  let names: string[];
  try {
    names = (await readdir(dir, { withFileTypes: true })).filter((e) => e.isDirectory() && !e.name.startsWith('.')).map((e) => e.name);
  } catch {
    return [];
  }
  const out: ModelManifest[] = [];
  for (const name of names) {
    const m = await readManifest(dir, name);
    if (m) out.push(m);
  }
  return out;
}

/** Bytes the model's files take unpacked (the catalog's figure, from upstream's listings). */
export const unpackedBytesOf = (entry: CatalogEntry): number => entry.unpackedBytes;

const roleFiles = (entry: CatalogEntry): string[] => Object.values(entry.files).map((p) => safeMemberPath(p));

/**
 * Put the model in place from a source: an archive (unpacked), a single file
 * (`format: 'file'`), or a folder holding the files. Everything lands in a
 * temporary folder first; the manifest is written last, then the folder is
 * renamed to `<dir>/<id>` (replacing an older copy).
 */
export async function installModel(
  dir: string,
  entry: CatalogEntry,
  /**
   * `move`: the source is our own partial download, renamed into place rather than copied. `handle`: an archive the
   * user named, opened by the files owner's check (services/files): unpacked from that descriptor, never the path.
   * `open`: how a folder's files are opened (the same check for each, so a link inside leads nowhere it may not).
   */
  source: {
    kind: 'archive' | 'file' | 'folder';
    path: string;
    sha256: string | null;
    move?: boolean;
    handle?: FileHandle;
    open?: OpenMember;
  },
  signal?: AbortSignal,
): Promise<ModelManifest> {
  await mkdir(dir, { recursive: true });
  const tmp = join(dir, `${TMP_PREFIX}${entry.id}-${randomBytes(4).toString('hex')}`);
  await mkdir(tmp);
  try {
    const wanted = roleFiles(entry);
    if (source.kind === 'archive') {
      await unpackTarBz2(source.handle ?? source.path, tmp, { wanted, maxBytes: Math.ceil(unpackedBytesOf(entry) * 1.1) + 16 * 1024 * 1024, signal });
    } else if (source.kind === 'file') {
      if (source.move) await rename(source.path, join(tmp, wanted[0]!));
      else await copyFile(source.path, join(tmp, wanted[0]!));
    } else {
      await copyFolderFiles(source.path, tmp, wanted, source.open);
    }
    const manifest: ModelManifest = {
      id: entry.id,
      name: entry.name,
      task: entry.task,
      family: entry.family,
      languages: entry.languages,
      files: entry.files,
      wordTimings: entry.wordTimings,
      sha256: source.sha256,
      bytes: await diskUse(tmp),
      installedAt: new Date().toISOString(),
      contextLength: entry.contextLength,
      ramBytes: entry.ramBytes,
    };
    await writeFile(join(tmp, MODEL_MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`);
    const final = join(dir, entry.id);
    const old = join(dir, `${TRASH_PREFIX}${entry.id}-${randomBytes(4).toString('hex')}`);
    const hadOld = await rename(final, old).then(
      () => true,
      () => false,
    );
    await rename(tmp, final);
    if (hadOld) await rm(old, { recursive: true, force: true });
    return manifest;
  } catch (err) {
    await rm(tmp, { recursive: true, force: true });
    throw err;
  }
}

/** A folder's file opened through the files owner's check; read from `handle`, then `close()`. */
export type OpenMember = (path: string) => Promise<{ handle: FileHandle; close(): Promise<void> }>;

/** Copy the model's files from a folder the user picked (their paths as the catalog names them, or under one top folder). */
async function copyFolderFiles(from: string, to: string, wanted: string[], open?: OpenMember): Promise<void> {
  const root = resolve(from);
  const missing: string[] = [];
  for (const rel of wanted) {
    const src = resolve(root, rel);
    if (!src.startsWith(root + sep)) throw new ModelError('unsafe_archive', 'A model file path leaves its folder.');
    const s = await stat(src).catch(() => null);
    if (!s?.isFile()) {
      missing.push(rel);
      continue;
    }
    await mkdir(join(to, rel, '..'), { recursive: true });
    if (!open) {
      await copyFile(src, join(to, rel));
      continue;
    }
    const f = await open(src);
    try {
      await pipeline(f.handle.createReadStream({ start: 0, autoClose: false }), createWriteStream(join(to, rel), { flags: 'wx' }));
    } finally {
      await f.close();
    }
  }
  if (missing.length)
    throw new ModelError(
      'incomplete_model',
      `The folder ${basename(from)} lacks files the model needs (${missing.slice(0, 4).join(', ')}). Pick the folder the archive unpacked to.`,
    );
}

/** Remove an installed model; resolves with the bytes freed. */
export async function deleteModel(dir: string, id: string): Promise<number> {
  const final = join(dir, id);
  const bytes = await diskUse(final);
  const trash = join(dir, `${TRASH_PREFIX}${id}-${randomBytes(4).toString('hex')}`);
  try {
    await rename(final, trash);
  } catch {
    return 0;
  }
  await rm(trash, { recursive: true, force: true });
  return bytes;
}

/** Left-overs of an install or delete a quit interrupted. */
export async function sweep(dir: string): Promise<void> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return;
  }
  for (const name of names) {
    if (name.startsWith(TMP_PREFIX) || name.startsWith(TRASH_PREFIX)) await rm(join(dir, name), { recursive: true, force: true });
  }
}
