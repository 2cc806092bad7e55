/**
 * The chat models installed in the models folder: each is `<dir>/<id>/`
 * with a `verbatim-model.json` manifest (family 'gguf', task 'chat') naming
 * its `.gguf` file. A folder without a valid manifest, or whose file path
 * leaves the folder, is not a model.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve, sep } from 'node:path';
import { MODEL_MANIFEST_FILE, modelManifestSchema, type ModelManifest } from '../../shared/models/catalog';

export interface InstalledChatModel {
  manifest: ModelManifest;
  /** Absolute path of the .gguf file. */
  file: string;
}

/** The installed GGUF chat models, by id order. */
export function listChatModels(modelsDir: string | undefined): InstalledChatModel[] {
  if (!modelsDir || !existsSync(modelsDir)) return [];
  const out: InstalledChatModel[] = [];
  let names: string[];
  try {
    names = readdirSync(modelsDir);
  } catch {
    return [];
  }
  for (const name of names.sort()) {
    const m = readChatModel(modelsDir, name);
    if (m) out.push(m);
  }
  return out;
}

/** One installed chat model by id, or null. */
export function readChatModel(modelsDir: string | undefined, id: string): InstalledChatModel | null {
  if (!modelsDir || !/^[a-z0-9][a-z0-9.-]{0,95}$/.test(id)) return null;
  const dir = resolve(modelsDir, id);
  const file = join(dir, MODEL_MANIFEST_FILE);
  try {
    if (!statSync(dir).isDirectory() || !existsSync(file)) return null;
    const parsed = modelManifestSchema.safeParse(JSON.parse(readFileSync(file, 'utf8')));
    if (!parsed.success) return null;
    const manifest = parsed.data;
    if (manifest.family !== 'gguf' || manifest.task !== 'chat' || manifest.id !== id) return null;
    const rel = manifest.files.model;
    if (!rel) return null;
    const path = resolve(dir, rel);
    if (!path.startsWith(dir + sep)) return null;
    return { manifest, file: path };
  } catch {
    return null;
  }
}
