/**
 * The one reader of the models folder (`<data>/models`, or `--models`): each installed model is a folder
 * named by its id holding a verbatim-model.json manifest, written last by the app's model manager. Manifests
 * are read as regular files only and within a size cap, asynchronously, and parsed afresh only when the file
 * changes (a model installed, replaced or deleted while the engine runs is seen at the next look-up). A
 * manifest that cannot be read (a FIFO, a link, too large, not JSON, not a manifest) marks that model broken,
 * named as the fault; the other models keep working. Every file a manifest names goes through `file()`:
 * one id check, one containment check.
 */
import type { Stats } from 'node:fs';
import { lstat, readdir, realpath } from 'node:fs/promises';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import { MODEL_MANIFEST_FILE, modelIdSchema, modelManifestSchema, type ModelManifest, type ModelTask } from '../../shared/models/catalog';
import { FileRefusedError, fileKind, readCapped } from './regular-file';

/** A manifest is about 1 KB; nothing the manager writes comes near this. */
export const MANIFEST_CAP = 256 * 1024;

/** Families that are not speech recognizers, whatever a manifest's task says. */
const NOT_SPEECH = new Set<string>(['pyannote-segmentation', 'speaker-embedding', 'gguf']);

/** Whether a manifest's model can do `task`. */
function serves(m: ModelManifest, task: ModelTask): boolean {
  if (task === 'files' || task === 'live') return (m.task === 'files' || m.task === 'live') && !NOT_SPEECH.has(m.family);
  if (task === 'chat') return m.task === 'chat' && m.family === 'gguf';
  return m.task === task;
}

/** An installed model's files are unusable; the message names the model, says what is wrong and what to do. */
export class ModelFileError extends Error {
  constructor(
    readonly id: string,
    why: string,
  ) {
    super(`The model ${id} cannot be used: ${why}. Delete it and download it again in Settings → Models.`);
  }
}

export interface InstalledModel {
  id: string;
  /** The model's folder (absolute). */
  folder: string;
  manifest: ModelManifest;
  /** The manifest file's identity (mtime, inode, size): a model replaced under the same id reads differently. */
  signature: string;
}

/** A folder whose manifest cannot be read: `error` says why, naming the model. */
export interface BrokenModel {
  id: string;
  error: ModelFileError;
}

type Read = { model: InstalledModel } | { broken: ModelFileError };

const signatureOf = (st: Stats): string => `${st.mtimeMs}:${st.ino}:${st.size}`;

export class ModelsFolder {
  /** The last read of each folder's manifest, by id, kept while the manifest's identity stays the same. */
  private readonly cache = new Map<string, { sig: string; read: Read }>();

  constructor(readonly dir: string) {}

  /** Every model folder: the installed models (by id) and the broken ones. Folders whose name is not a model id are not models. */
  async scan(): Promise<{ models: InstalledModel[]; broken: BrokenModel[] }> {
    let names: string[];
    try {
      names = await readdir(this.dir);
    } catch {
      return { models: [], broken: [] };
    }
    const models: InstalledModel[] = [];
    const broken: BrokenModel[] = [];
    const seen = new Set<string>();
    for (const id of names.sort()) {
      if (!modelIdSchema.safeParse(id).success) continue;
      seen.add(id);
      const r = await this.read(id);
      if (!r) continue;
      if ('model' in r) models.push(r.model);
      else broken.push({ id, error: r.broken });
    }
    for (const id of this.cache.keys()) if (!seen.has(id)) this.cache.delete(id);
    return { models, broken };
  }

  /** The installed models that can do `task`, by id. */
  async list(task: ModelTask): Promise<InstalledModel[]> {
    return (await this.scan()).models.filter((m) => serves(m.manifest, task));
  }

  /**
   * The installed model `id` for `task`, or null when there is none (no such folder, no manifest yet, an id
   * that cannot be a model's, or a model for another task). Throws ModelFileError when its manifest is broken.
   */
  async find(id: string, task: ModelTask): Promise<InstalledModel | null> {
    if (!modelIdSchema.safeParse(id).success) return null;
    const r = await this.read(id);
    if (!r) return null;
    if ('broken' in r) throw r.broken;
    return serves(r.model.manifest, task) ? r.model : null;
  }

  /** The absolute real path of the file `role` of `model`, checked (see modelFile). */
  file(model: InstalledModel, role: string): Promise<string> {
    return modelFile(model.folder, model.manifest, role);
  }

  /** Reads `id`'s manifest when it changed since the last read; null when the folder has none. */
  private async read(id: string): Promise<Read | null> {
    const folder = join(this.dir, id);
    const path = join(folder, MODEL_MANIFEST_FILE);
    const st = await lstat(path).catch(() => null);
    if (!st) {
      this.cache.delete(id);
      return null;
    }
    const sig = signatureOf(st);
    const known = this.cache.get(id);
    if (known && known.sig === sig) return known.read;
    const read = await readManifest(id, folder, path, st);
    this.cache.set(id, { sig, read });
    return read;
  }
}

async function readManifest(id: string, folder: string, path: string, st: Stats): Promise<Read> {
  const broken = (why: string): Read => ({ broken: new ModelFileError(id, `its ${MODEL_MANIFEST_FILE} ${why}`) });
  if (!st.isFile()) return broken(`is ${fileKind(st)}, not a file`);
  let text: string;
  let sig: string;
  try {
    const r = await readCapped(path, MANIFEST_CAP);
    text = r.bytes.toString('utf8');
    sig = signatureOf(r.st);
  } catch (err) {
    if (err instanceof FileRefusedError) return broken(`is ${err.what}`);
    throw err;
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return broken('is not JSON');
  }
  const parsed = modelManifestSchema.safeParse(json);
  if (!parsed.success) return broken('is not a model manifest');
  if (parsed.data.id !== id) return broken(`names another model (${JSON.stringify(parsed.data.id)})`);
  return { model: { id, folder, manifest: parsed.data, signature: sig } };
}

/**
 * The file `role` of a manifest, as an absolute real path: a relative path inside the model's folder (no
 * absolute paths, no `..`, no links out of it) to a regular, non-empty file. Throws ModelFileError naming the model.
 */
export async function modelFile(folder: string, m: ModelManifest, role: string): Promise<string> {
  const rel = m.files[role];
  if (!rel) throw new ModelFileError(m.id, `its manifest names no ${role} file`);
  if (isAbsolute(rel) || rel.split(/[\\/]/).includes('..')) throw new ModelFileError(m.id, `its ${role} path ${JSON.stringify(rel)} leaves the model's folder`);
  let real: string;
  let root: string;
  try {
    real = await realpath(resolve(folder, rel));
    root = await realpath(folder);
  } catch {
    throw new ModelFileError(m.id, `its ${role} file ${rel} is missing`);
  }
  const out = relative(root, real);
  if (out === '..' || out.startsWith(`..${sep}`) || isAbsolute(out)) throw new ModelFileError(m.id, `its ${role} file ${rel} links outside the model's folder`);
  // realpath resolved every link, so lstat sees what a reader would open.
  const st = await lstat(real);
  if (!st.isFile()) throw new ModelFileError(m.id, `its ${role} file ${rel} is ${fileKind(st)}, not a regular file`);
  if (st.size === 0) throw new ModelFileError(m.id, `its ${role} file ${rel} is empty`);
  return real;
}
