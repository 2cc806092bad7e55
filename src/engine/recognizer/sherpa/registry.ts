/**
 * The engine's installed speech models, found through the models folder's one reader (models/folder.ts),
 * which reads each manifest afresh when it changes, so a model installed, replaced or deleted while the
 * engine runs is seen without a restart. Models are checked before native code reads them, loaded on
 * demand in one native worker child, and released after the idle time (the worker itself exits when idle).
 */
import { join } from 'node:path';
import { ModelsFolder, type InstalledModel } from '../../models/folder';
import type { ModelManifest } from '../../../shared/models/catalog';
import type { Logger } from '../../logger';
import { NativeChild } from '../../native/child-host';
import { SherpaRecognizer, type LocalModel } from './recognizer';
import { checkModelFiles, fileSignature, ModelFileError, type CheckedModel } from './validate';
import { SHERPA_CHILD } from './child-kinds';

/** The model is not (or no longer) installed. */
export class ModelNotInstalledError extends Error {
  constructor(readonly id: string) {
    super(`The speech model ${id} is not installed on this engine; download it in Settings → Models, or choose another model.`);
  }
}

export interface ModelRegistryOptions {
  /** The models folder (`--models`), read through `folder` when given (the engine shares one reader). */
  dir: string;
  folder?: ModelsFolder;
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
  readonly folder: ModelsFolder;
  /** The worker every model loads and decodes in. */
  readonly child: NativeChild;
  private readonly idleMs: number;
  private readonly entries = new Map<string, Entry>();
  /** Loaded recognizers in the worker by key, with their model and last use. */
  private readonly loaded = new Map<string, { id: string; at: number; timer: NodeJS.Timeout }>();

  constructor(private readonly opts: ModelRegistryOptions) {
    this.dir = opts.dir;
    this.folder = opts.folder ?? new ModelsFolder(opts.dir);
    this.idleMs = opts.idleMs ?? 60_000;
    this.child = new NativeChild({
      ...SHERPA_CHILD,
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

  /** The installed speech models (broken ones are left out). */
  async list(): Promise<ModelManifest[]> {
    return (await this.folder.list('files')).map((m) => m.manifest);
  }

  /** The installed speech model `id`, or null; throws ModelFileError naming it when its manifest is broken. */
  async find(id: string): Promise<ModelManifest | null> {
    let found: InstalledModel | null;
    try {
      found = await this.folder.find(id, 'files');
    } catch (err) {
      if (this.entries.has(id)) this.forget(id, 'replaced');
      throw err;
    }
    // A model deleted since it was last used is released as soon as anyone asks for it.
    if (!found && this.entries.has(id)) this.forget(id, 'deleted');
    return found?.manifest ?? null;
  }

  /** The model's files, checked (and cached while they stay the same); throws ModelFileError or ModelNotInstalledError. */
  async check(id: string): Promise<CheckedModel> {
    await this.entry(id);
    return this.localModel(id).current();
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
    const known = this.entries.get(id);
    let read: InstalledModel | null;
    try {
      read = await this.folder.find(id, 'files');
    } catch (err) {
      if (known) this.forget(id, 'replaced');
      throw err;
    }
    if (!read) {
      if (known) this.forget(id, 'deleted');
      throw new ModelNotInstalledError(id);
    }
    if (known && known.manifestSig === read.signature) return known;
    if (known) this.forget(id, 'replaced');
    const e: Entry = { manifest: read.manifest, manifestSig: read.signature, checked: null, recognizers: new Map() };
    this.entries.set(id, e);
    return e;
  }

  private localModel(id: string): LocalModel {
    return {
      manifest: this.entries.get(id)?.manifest as ModelManifest,
      current: async () => {
        const e = await this.entry(id);
        const folder = join(this.folder.dir, id);
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
