/**
 * The engine's installed speech models: the folders under the models directory (`--models`) that hold a
 * verbatim-model.json, read afresh on each look-up, so a model installed, replaced or deleted while the
 * engine runs is seen without a restart. Models are checked before native code reads them, loaded on
 * demand in one native worker child, and released after the idle time (the worker itself exits when idle).
 */
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { MODEL_MANIFEST_FILE, modelIdSchema, modelManifestSchema, type ModelManifest } from '../../../shared/models/catalog';
import type { Logger } from '../../logger';
import { NativeChild } from '../../native/child-host';
import { SherpaRecognizer, type LocalModel } from './recognizer';
import { checkModelFiles, fileSignature, ModelFileError, type CheckedModel } from './validate';

const SPEECH_FAMILIES = new Set(['whisper', 'nemo-transducer', 'nemo-ctc', 'moonshine', 'zipformer-transducer', 'zipformer-ctc', 'streaming-transducer']);

/** The model is not (or no longer) installed. */
export class ModelNotInstalledError extends Error {
  constructor(readonly id: string) {
    super(`The speech model ${id} is not installed on this engine; download it in Settings → Models, or choose another model.`);
  }
}

export interface ModelRegistryOptions {
  dir: string;
  /** Loaded models unused this long are released (default 60 s). */
  idleMs?: number;
  logger?: Logger;
}

interface Entry {
  manifest: ModelManifest;
  manifestSig: string;
  checked: CheckedModel | null;
  recognizers: Map<string, SherpaRecognizer>;
}

export class ModelRegistry {
  readonly dir: string;
  /** The worker every model loads and decodes in. */
  readonly child: NativeChild;
  private readonly idleMs: number;
  private readonly entries = new Map<string, Entry>();
  /** Loaded recognizers in the worker by key, with their model and last use. */
  private readonly loaded = new Map<string, { id: string; at: number; timer: NodeJS.Timeout }>();

  constructor(private readonly opts: ModelRegistryOptions) {
    this.dir = opts.dir;
    this.idleMs = opts.idleMs ?? 60_000;
    this.child = new NativeChild({
      name: 'speech recognition',
      idleMs: this.idleMs,
      // The worker is gone (idle, crashed or stopped): whatever it had loaded is gone with it.
      onExit: (reason) => {
        for (const l of this.loaded.values()) clearTimeout(l.timer);
        this.loaded.clear();
        if (!/: idle$/.test(reason)) opts.logger?.warn(reason);
      },
    });
  }

  /** The installed speech models (manifests that parse; the rest are skipped). */
  async list(): Promise<ModelManifest[]> {
    let names: string[];
    try {
      names = await readdir(this.dir);
    } catch {
      return [];
    }
    const out: ModelManifest[] = [];
    for (const name of names.sort()) {
      const m = await this.readManifest(name).catch(() => null);
      if (m) out.push(m.manifest);
    }
    return out;
  }

  /** The installed speech model `id`, or null. */
  async find(id: string): Promise<ModelManifest | null> {
    if (!modelIdSchema.safeParse(id).success) return null;
    const read = await this.readManifest(id).catch(() => null);
    // A model deleted since it was last used is released as soon as anyone asks for it.
    if (!read && this.entries.has(id)) this.forget(id, 'deleted');
    return read?.manifest ?? null;
  }

  private async readManifest(id: string): Promise<{ manifest: ModelManifest; sig: string } | null> {
    const file = join(this.dir, id, MODEL_MANIFEST_FILE);
    const st = await stat(file);
    if (!st.isFile() || st.size > 1 << 20) return null;
    const parsed = modelManifestSchema.safeParse(JSON.parse(await readFile(file, 'utf8')));
    if (!parsed.success || parsed.data.id !== id || !SPEECH_FAMILIES.has(parsed.data.family)) return null;
    return { manifest: parsed.data, sig: `${st.mtimeMs}:${st.ino}:${st.size}` };
  }

  /**
   * A recognizer for the installed model `id` (for Whisper, in `language`, '' to detect).
   * Throws ModelNotInstalledError when there is no such model.
   */
  async recognizer(id: string, language?: string): Promise<SherpaRecognizer> {
    const entry = await this.entry(id);
    const rkey = language ?? '';
    let rec = entry.recognizers.get(rkey);
    if (!rec) {
      rec = new SherpaRecognizer(this.localModel(id), this.child, language);
      entry.recognizers.set(rkey, rec);
    }
    return rec;
  }

  private async entry(id: string): Promise<Entry> {
    const read = modelIdSchema.safeParse(id).success ? await this.readManifest(id).catch(() => null) : null;
    const known = this.entries.get(id);
    if (!read) {
      if (known) this.forget(id, 'deleted');
      throw new ModelNotInstalledError(id);
    }
    if (known && known.manifestSig === read.sig) return known;
    if (known) this.forget(id, 'replaced');
    const e: Entry = { manifest: read.manifest, manifestSig: read.sig, checked: null, recognizers: new Map() };
    this.entries.set(id, e);
    return e;
  }

  private localModel(id: string): LocalModel {
    return {
      manifest: this.entries.get(id)?.manifest as ModelManifest,
      current: async () => {
        const e = await this.entry(id);
        const folder = join(this.dir, id);
        if (e.checked) {
          // Files changed under the same manifest: check again and drop what was loaded from the old ones.
          const again = await fileSignature(folder, e.manifest).catch(() => null);
          if (again === e.checked.signature) return e.checked;
          this.release(id);
          e.checked = null;
        }
        try {
          e.checked = await checkModelFiles(folder, e.manifest);
        } catch (err) {
          if (err instanceof ModelFileError) throw err;
          if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw new ModelNotInstalledError(id);
          throw err;
        }
        return e.checked;
      },
      touch: (key) => this.touch(id, key),
    };
  }

  private touch(id: string, key: string): void {
    const old = this.loaded.get(key);
    if (old) clearTimeout(old.timer);
    const timer = setTimeout(() => this.releaseKey(key), this.idleMs);
    timer.unref();
    this.loaded.set(key, { id, at: Date.now(), timer });
  }

  private releaseKey(key: string): void {
    const l = this.loaded.get(key);
    if (!l) return;
    clearTimeout(l.timer);
    this.loaded.delete(key);
    if (this.child.running) void this.child.request('asr.release', { key }).catch(() => undefined);
  }

  /** Frees everything model `id` has loaded in the worker. */
  release(id: string): void {
    for (const [key, l] of [...this.loaded]) if (l.id === id) this.releaseKey(key);
  }

  private forget(id: string, why: 'deleted' | 'replaced'): void {
    this.opts.logger?.warn(`speech model ${id} was ${why}; releasing it`);
    this.release(id);
    this.entries.delete(id);
  }

  /** Keys loaded in the worker now (for tests and benchmarks). */
  loadedKeys(): string[] {
    return [...this.loaded.keys()];
  }

  dispose(): void {
    for (const l of this.loaded.values()) clearTimeout(l.timer);
    this.loaded.clear();
    this.entries.clear();
    this.child.close();
  }
}
