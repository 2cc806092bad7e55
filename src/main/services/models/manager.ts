/**
 * The model manager: downloads from the catalog (or a mirror) with pause,
 * resume, cancel and progress; free space checked before a byte moves; the
 * archive verified (size, SHA-256 published or recorded on first download)
 * and installed; installs from a file or folder the user picked; delete; the
 * list with disk use. Downloads under way when the app quits resume on start.
 */
import { mkdir, stat, unlink } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { AppError } from '../../../shared/errors';
import type { CatalogEntry } from '../../../shared/models/catalog';
import type { DownloadStatus, ModelsList } from '../../../shared/models/view';
import { download } from './download';
import { diskFull, ModelError } from './errors';
import { deleteModel, diskUse, freeSpace, hashFile, installedModels, installModel, PARTIAL_DIR, readManifest, sweep } from './install';
import { Connection } from './net';
import { StateFile } from './state';

export interface ModelManagerOptions {
  catalog: readonly CatalogEntry[];
  /** The download base URL ('' = the catalog's own); read at each download's start. */
  mirror?: () => string;
  /** No byte for this long aborts an attempt, which is retried with backoff (default 60 s). */
  stallMs?: number;
  retryBaseMs?: number;
  /** Free bytes on the models disk (tests inject a reading). */
  freeSpace?: (dir: string) => Promise<number | null>;
  env?: Record<string, string | undefined>;
  /** Called after a model is installed or deleted (the engine picks it up). */
  changed?: (id: string) => void;
  log?: (m: string) => void;
}

interface Active {
  controller: AbortController;
  /** Why it was aborted: the user's pause or cancel. */
  reason: 'pause' | 'cancel' | null;
  done: Promise<void>;
}

/** Room kept free beyond what the model needs. */
const MARGIN_BYTES = 32 * 1024 * 1024;
const EMIT_EVERY_MS = 200;

export class ModelManager {
  private readonly active = new Map<string, Active>();
  private readonly statuses = new Map<string, DownloadStatus>();
  private readonly listeners = new Set<(s: DownloadStatus) => void>();
  private readonly lastEmit = new Map<string, number>();
  private readonly trailing = new Map<string, NodeJS.Timeout>();
  private readonly samples = new Map<string, { t: number; bytes: number }[]>();
  private readonly state: StateFile;
  private readonly connection: Connection;
  private disposed = false;

  constructor(
    readonly dir: string,
    private readonly opts: ModelManagerOptions,
  ) {
    this.state = new StateFile(dir);
    this.connection = new Connection(opts.env ?? process.env);
  }

  /** Clear what an interrupted install left, and resume the downloads that were running at the last quit. */
  async start(): Promise<void> {
    await mkdir(join(this.dir, PARTIAL_DIR), { recursive: true });
    await sweep(this.dir);
    for (const [id, d] of Object.entries(this.state.get().downloads)) {
      const entry = this.entry(id, false);
      if (!entry) continue;
      if (d.state === 'downloading') await this.download(id);
      else this.set({ ...this.blank(id, entry), state: 'paused', bytes: await this.partBytes(entry) });
    }
  }

  onProgress(listener: (s: DownloadStatus) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private entry(id: string, required = true): CatalogEntry | undefined {
    const e = this.opts.catalog.find((c) => c.id === id);
    if (!e && required) throw new AppError('not_found', `There is no model called ${id} in the catalog.`);
    return e;
  }

  private partPath(entry: CatalogEntry): string {
    return join(this.dir, PARTIAL_DIR, `${entry.id}.${entry.format === 'tar.bz2' ? 'tar.bz2' : 'bin'}.part`);
  }

  private async partBytes(entry: CatalogEntry): Promise<number> {
    return (await stat(this.partPath(entry)).catch(() => null))?.size ?? 0;
  }

  /** The URL to fetch: the catalog's, or the mirror's `<base>/<archive name>`. */
  urlOf(entry: CatalogEntry): string {
    const mirror = this.opts.mirror?.().trim() ?? '';
    return mirror ? `${mirror.replace(/\/+$/, '')}/${basename(new URL(entry.url).pathname)}` : entry.url;
  }

  private blank(id: string, entry: CatalogEntry): DownloadStatus {
    return { id, state: 'queued', bytes: 0, total: entry.sizeBytes, speed: 0, etaSeconds: null, error: null };
  }

  status(id: string): DownloadStatus | null {
    return this.statuses.get(id) ?? null;
  }

  /** Record a status and tell the listeners: at once on a change of state, else at most every EMIT_EVERY_MS (the latest one always follows). */
  private set(s: DownloadStatus, force = true): void {
    const prev = this.statuses.get(s.id);
    this.statuses.set(s.id, s);
    const wait = EMIT_EVERY_MS - (Date.now() - (this.lastEmit.get(s.id) ?? 0));
    if (!force && prev?.state === s.state && wait > 0) {
      if (!this.trailing.has(s.id))
        this.trailing.set(
          s.id,
          setTimeout(() => this.emitNow(s.id), wait),
        );
      return;
    }
    this.emitNow(s.id);
  }

  private emitNow(id: string): void {
    const t = this.trailing.get(id);
    if (t) clearTimeout(t);
    this.trailing.delete(id);
    const s = this.statuses.get(id);
    if (!s) return;
    this.lastEmit.set(id, Date.now());
    for (const l of this.listeners) l(s);
  }

  private speedOf(id: string, bytes: number): number {
    const now = Date.now();
    const list = (this.samples.get(id) ?? []).filter((s) => now - s.t < 3000);
    list.push({ t: now, bytes });
    this.samples.set(id, list);
    const first = list[0]!;
    return now - first.t > 0 ? ((bytes - first.bytes) * 1000) / (now - first.t) : 0;
  }

  /** Start (or resume) downloading a catalog model; answers at once with its status, progress follows as events. */
  async download(id: string): Promise<DownloadStatus> {
    const entry = this.entry(id)!;
    const running = this.active.get(id);
    if (running) return this.statuses.get(id)!;
    const part = this.partPath(entry);
    await mkdir(join(this.dir, PARTIAL_DIR), { recursive: true });
    const have = await this.partBytes(entry);
    const need = Math.max(0, entry.sizeBytes - have) + (entry.format === 'tar.bz2' ? Math.ceil(entry.sizeBytes * 1.2) : 0) + MARGIN_BYTES;
    const free = await (this.opts.freeSpace ?? freeSpace)(this.dir);
    if (free !== null && free < need) {
      const err = diskFull(need, free);
      this.set({ ...this.blank(id, entry), bytes: have, state: 'failed', error: { kind: err.kind, message: err.message } });
      return this.statuses.get(id)!;
    }
    const url = this.urlOf(entry);
    await this.state.update((s) => void (s.downloads[id] = { state: 'downloading', url }));
    const controller = new AbortController();
    const run: Active = { controller, reason: null, done: Promise.resolve() };
    this.active.set(id, run);
    this.samples.delete(id);
    this.set({ ...this.blank(id, entry), bytes: have, state: 'downloading' });
    run.done = this.run(entry, url, part, run).finally(() => this.active.delete(id));
    return this.statuses.get(id)!;
  }

  private async run(entry: CatalogEntry, url: string, part: string, run: Active): Promise<void> {
    const id = entry.id;
    const key = basename(new URL(entry.url).pathname);
    // Once a second the speed and ETA are worked out afresh, so a download that stops moving shows it.
    const tick = setInterval(() => {
      const s = this.statuses.get(id);
      if (s?.state !== 'downloading') return;
      const speed = this.speedOf(id, s.bytes);
      this.set({ ...s, speed, etaSeconds: speed > 0 && s.total !== null ? Math.max(0, (s.total - s.bytes) / speed) : null }, false);
    }, 1000);
    try {
      const got = await download({
        url,
        part,
        magic: entry.format === 'tar.bz2' ? Buffer.from('BZh') : entry.url.endsWith('.gguf') ? Buffer.from('GGUF') : null,
        connection: this.connection,
        signal: run.controller.signal,
        stallMs: this.opts.stallMs ?? 60_000,
        retryBaseMs: this.opts.retryBaseMs,
        log: (m) => this.opts.log?.(`model ${id}: retrying after ${m}`),
        onProgress: ({ bytes, total }) => {
          const speed = this.speedOf(id, bytes);
          const t = total ?? entry.sizeBytes;
          this.set({ id, state: 'downloading', bytes, total: t, speed, etaSeconds: speed > 0 ? Math.max(0, (t - bytes) / speed) : null, error: null }, false);
        },
      });
      this.set({ ...this.statuses.get(id)!, state: 'verifying', bytes: got.bytes, total: got.bytes, speed: 0, etaSeconds: null });
      const expected = entry.sha256 ?? this.state.get().recorded[key]?.sha256 ?? null;
      if (expected && expected !== got.sha256) {
        await unlink(part).catch(() => undefined);
        throw new ModelError(
          'checksum',
          `The downloaded archive does not match its known SHA-256, so it was deleted. The server${this.opts.mirror?.() ? ' (your mirror)' : ''} may hold a different or damaged file; download again, or use another mirror.`,
        );
      }
      this.set({ ...this.statuses.get(id)!, state: 'unpacking' });
      await installModel(
        this.dir,
        entry,
        { kind: entry.format === 'tar.bz2' ? 'archive' : 'file', path: part, sha256: got.sha256, move: true },
        run.controller.signal,
      );
      // Upstream publishes no SHA-256: the first archive that installs is the one later downloads must match.
      if (!entry.sha256 && !expected) await this.state.update((s) => void (s.recorded[key] = { sha256: got.sha256, bytes: got.bytes }));
      await unlink(part).catch(() => undefined);
      await this.state.update((s) => void delete s.downloads[id]);
      this.set({ ...this.statuses.get(id)!, state: 'installed', error: null });
      this.opts.changed?.(id);
    } catch (err) {
      await this.settleFailure(entry, part, run, err);
    } finally {
      clearInterval(tick);
    }
  }

  private async settleFailure(entry: CatalogEntry, part: string, run: Active, err: unknown): Promise<void> {
    const id = entry.id;
    const current = this.statuses.get(id) ?? this.blank(id, entry);
    if (run.reason === 'pause') {
      await this.state.update((s) => void (s.downloads[id] = { state: 'paused', url: s.downloads[id]?.url ?? entry.url }));
      this.set({ ...current, state: 'paused', bytes: await this.partBytes(entry), speed: 0, etaSeconds: null });
      return;
    }
    if (run.reason === 'cancel' || this.disposed) {
      if (this.disposed) return; // quitting: the partial file and the state stay for the next start
      await unlink(part).catch(() => undefined);
      await this.state.update((s) => void delete s.downloads[id]);
      this.set({ ...current, state: 'canceled', bytes: 0, speed: 0, etaSeconds: null });
      return;
    }
    const e = err instanceof ModelError ? err : new ModelError('network', err instanceof Error ? err.message : String(err));
    // An archive that cannot be right is removed; a network failure keeps its bytes for the next try.
    if (['not_archive', 'checksum', 'unsafe_archive', 'incomplete_model', 'size'].includes(e.kind)) await unlink(part).catch(() => undefined);
    await this.state.update((s) => void delete s.downloads[id]);
    this.opts.log?.(`model ${id}: ${e.kind}: ${e.message}`);
    this.set({ ...current, state: 'failed', bytes: await this.partBytes(entry), speed: 0, etaSeconds: null, error: { kind: e.kind, message: e.message } });
  }

  /** Pause a running download; its bytes stay for resume. */
  async pause(id: string): Promise<DownloadStatus | null> {
    const run = this.active.get(id);
    if (run) {
      run.reason = 'pause';
      run.controller.abort();
      await run.done;
    }
    return this.status(id);
  }

  resume(id: string): Promise<DownloadStatus> {
    return this.download(id);
  }

  /** Stop a download and remove its partial file. */
  async cancel(id: string): Promise<DownloadStatus | null> {
    const entry = this.entry(id)!;
    const run = this.active.get(id);
    if (run) {
      run.reason = 'cancel';
      run.controller.abort();
      await run.done;
      return this.status(id);
    }
    await unlink(this.partPath(entry)).catch(() => undefined);
    await this.state.update((s) => void delete s.downloads[id]);
    this.set({ ...this.blank(id, entry), state: 'canceled' });
    return this.status(id);
  }

  /** Wait for a download to stop running (installed, failed, paused or canceled). */
  async settled(id: string): Promise<DownloadStatus | null> {
    await this.active.get(id)?.done;
    return this.status(id);
  }

  /** Delete an installed model; resolves with the bytes freed. */
  async delete(id: string): Promise<number> {
    if (this.active.has(id)) await this.cancel(id);
    const freed = await deleteModel(this.dir, id);
    this.statuses.delete(id);
    this.opts.changed?.(id);
    return freed;
  }

  /**
   * Install from an archive, a model file or a folder the user picked,
   * matched to its catalog entry by name (the archive's file name, or the
   * folder it unpacks to), verified and installed like a download.
   */
  async installFrom(path: string, name = basename(path)): Promise<string> {
    const s = await stat(path).catch(() => null);
    if (!s) throw new AppError('file_unreadable', `Verbatim cannot read ${basename(path)}.`);
    const entry = this.match(name, s.isDirectory());
    if (!entry) {
      throw new AppError(
        'bad_request',
        `${name} is not a model Verbatim knows. Pick the archive as it was downloaded (for example ${basename(new URL(this.opts.catalog[0]?.url ?? 'https://x/model.tar.bz2').pathname)}) or the folder it unpacks to.`,
      );
    }
    const free = await (this.opts.freeSpace ?? freeSpace)(this.dir);
    const need = Math.ceil(entry.sizeBytes * 1.2) + MARGIN_BYTES;
    if (free !== null && free < need) throw new AppError('conflict', diskFull(need, free).message);
    try {
      let sha256: string | null = null;
      if (!s.isDirectory()) {
        const got = await hashFile(path);
        const expected = entry.sha256 ?? this.state.get().recorded[basename(new URL(entry.url).pathname)]?.sha256 ?? null;
        if (expected && expected !== got.sha256)
          throw new ModelError(
            'checksum',
            `${name} does not match the archive Verbatim knows (SHA-256 differs). It may be damaged or a different version; download it again.`,
          );
        sha256 = got.sha256;
      }
      await installModel(this.dir, entry, { kind: s.isDirectory() ? 'folder' : entry.format === 'tar.bz2' ? 'archive' : 'file', path, sha256 });
    } catch (err) {
      if (err instanceof ModelError) throw new AppError(err.kind === 'disk' ? 'conflict' : 'unsupported_media', err.message);
      throw err;
    }
    this.statuses.delete(entry.id);
    this.opts.changed?.(entry.id);
    return entry.id;
  }

  private match(name: string, folder: boolean): CatalogEntry | undefined {
    const lower = name.toLowerCase();
    return this.opts.catalog.find((e) => {
      const file = basename(new URL(e.url).pathname).toLowerCase();
      const stem = file.replace(/\.tar\.bz2$/, '');
      return folder ? lower === stem || lower === e.id : lower === file;
    });
  }

  /** Every catalog model with its install and download state, the other installed models, and free space. */
  async list(): Promise<ModelsList> {
    const installed = await installedModels(this.dir);
    const byId = new Map(installed.map((m) => [m.id, m]));
    const models = [];
    for (const entry of this.opts.catalog) {
      const m = byId.get(entry.id);
      const status = this.statuses.get(entry.id) ?? null;
      models.push({
        entry,
        installed: m ? { bytes: await diskUse(join(this.dir, entry.id)), installedAt: m.installedAt } : null,
        download: status && status.state !== 'installed' && status.state !== 'canceled' ? status : null,
      });
    }
    const known = new Set(this.opts.catalog.map((e) => e.id));
    const others = installed.filter((m) => !known.has(m.id)).map((m) => ({ id: m.id, name: m.name, task: m.task, bytes: m.bytes }));
    return { models, others, dir: this.dir, freeBytes: await (this.opts.freeSpace ?? freeSpace)(this.dir) };
  }

  /** Whether a model is installed (its manifest present). */
  async isInstalled(id: string): Promise<boolean> {
    return (await readManifest(this.dir, id)) !== null;
  }

  /** Stop the transfers but keep their state: they resume at the next start. */
  async dispose(): Promise<void> {
    this.disposed = true;
    for (const t of this.trailing.values()) clearTimeout(t);
    this.trailing.clear();
    const runs = [...this.active.values()];
    for (const r of runs) r.controller.abort();
    await Promise.all(runs.map((r) => r.done));
    await this.state.flushed();
    this.connection.close();
  }
}
