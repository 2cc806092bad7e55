/**
 * The model manager: the one owner of each model's download (a second start
 * joins the running one; pause, cancel and quit always settle), free space
 * checked before a byte moves, the archive bounded by its size and verified
 * against upstream's published SHA-256 (read again before a mismatch is
 * refused) or the one recorded on first download, then installed; installs
 * from a file or folder the user picked; delete; the list with disk use.
 * Downloads under way when the app quits resume on start.
 */
import { mkdir, stat, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { AppError } from '../../../shared/errors';
import type { UserFiles } from '../files/refs';
import { unconfinedFiles } from '../files/unconfined';
import type { CatalogEntry } from '../../../shared/models/catalog';
import type { DownloadStatus, ModelsList } from '../../../shared/models/view';
import { archiveNameOf, judge, listUrlOf, publishedSha256 } from './checksums';
import { download } from './download';
import { diskFull, ModelError } from './errors';
import { installFromPath, installFromUpload, type FromFileDeps } from './from-file';
import { deleteModel, diskUse, freeSpace, installedModels, installModel, PARTIAL_DIR, readManifest, sweep, unpackedBytesOf } from './install';
import { Connection } from './net';
import { StateFile, type Verified } from './state';

export interface ModelManagerOptions {
  catalog: readonly CatalogEntry[];
  /** The download base URL ('' = the catalog's own); read at each download's start. */
  mirror?: () => string;
  /** No byte for this long aborts an attempt, which is retried with backoff (default 60 s). */
  stallMs?: number;
  /** Fewer bytes than this over the window aborts an attempt as too slow (default 16 kB over 60 s). */
  minSpeed?: { bytes: number; windowMs: number };
  retryBaseMs?: number;
  /** Free bytes on the models disk (tests inject a reading). */
  freeSpace?: (dir: string) => Promise<number | null>;
  env?: Record<string, string | undefined>;
  /** The owner of the user's files: the one check before a file or folder the user names is read (host mode: inside --folder). Default: the desktop's, unconfined. */
  files?: UserFiles;
  /** Called after a model is installed or deleted (the engine picks it up). */
  changed?: (id: string) => void;
  log?: (m: string) => void;
}

interface Active {
  controller: AbortController;
  /** Why it was aborted: the user's pause or cancel. */
  reason: 'pause' | 'cancel' | null;
  /** The mirror this run downloads from ('' = the publisher's own address), fixed at its start. */
  mirror: string;
  /** The status once the download has started (or failed to: no room). */
  started: Promise<DownloadStatus>;
  /** Settles when the download has stopped, whatever happened; never rejects. */
  done: Promise<void>;
}

/** Room kept free beyond what the model needs. */
const MARGIN_BYTES = 32 * 1024 * 1024;
/** A download may grow past the catalog's size by this much (upstream re-exports change sizes a little), never more. */
const SIZE_SLACK = 0.25;
const EMIT_EVERY_MS = 200;

/** The most bytes a download of this entry may have. */
export const maxDownloadBytes = (entry: CatalogEntry): number => Math.ceil(entry.sizeBytes * (1 + SIZE_SLACK)) + 1024 * 1024;

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
    this.state = new StateFile(dir, (m) => opts.log?.(m));
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

  private mirror(): string {
    return this.opts.mirror?.().trim() ?? '';
  }

  /** The URL to fetch: the catalog's, or the mirror's `<base>/<archive name>`. */
  urlOf(entry: CatalogEntry, mirror = this.mirror()): string {
    return mirror ? `${mirror.replace(/\/+$/, '')}/${archiveNameOf(entry)}` : entry.url;
  }

  /** Bytes a download needs free: the rest of the archive, and for an archive its unpacked files beside it until it is removed. */
  private room(entry: CatalogEntry, held: number): number {
    return Math.max(0, entry.sizeBytes - held) + (entry.format === 'tar.bz2' ? unpackedBytesOf(entry) : 0) + MARGIN_BYTES;
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

  /**
   * Start (or resume) downloading a catalog model; answers with its status
   * once started, progress follows as events. The run is registered before
   * anything is awaited, so a second call joins it instead of starting a
   * second transfer into the same partial file. `direct`: from the
   * publisher's address even when a mirror is set (the mirror's file matched
   * no published version).
   */
  async download(id: string, direct = false): Promise<DownloadStatus> {
    const entry = this.entry(id)!;
    const running = this.active.get(id);
    // A second start joins the run: it answers the status as it is once the run has started.
    if (running) return running.started.then(() => this.statuses.get(id) ?? this.blank(id, entry));
    let started!: (s: DownloadStatus) => void;
    const run: Active = {
      controller: new AbortController(),
      reason: null,
      mirror: direct ? '' : this.mirror(),
      started: new Promise((r) => (started = r)),
      done: Promise.resolve(),
    };
    this.active.set(id, run);
    run.done = this.lifecycle(entry, run, started)
      .catch((err: unknown) => this.opts.log?.(`model ${id}: ${err instanceof Error ? err.message : String(err)}`))
      .finally(() => {
        if (this.active.get(id) === run) this.active.delete(id);
        started(this.statuses.get(id) ?? this.blank(id, entry));
      });
    return run.started;
  }

  private async lifecycle(entry: CatalogEntry, run: Active, started: (s: DownloadStatus) => void): Promise<void> {
    const id = entry.id;
    const part = this.partPath(entry);
    this.samples.delete(id);
    this.set({ ...this.blank(id, entry), bytes: await this.partBytes(entry) });
    try {
      await mkdir(join(this.dir, PARTIAL_DIR), { recursive: true });
      const have = await this.partBytes(entry);
      const need = this.room(entry, have);
      const free = await (this.opts.freeSpace ?? freeSpace)(this.dir);
      if (free !== null && free < need) {
        const err = diskFull(need, free);
        this.set({ ...this.blank(id, entry), bytes: have, state: 'failed', error: { kind: err.kind, message: err.message } });
        return;
      }
      if (run.controller.signal.aborted) throw new ModelError('canceled', 'The download was stopped.');
      const url = this.urlOf(entry, run.mirror);
      await this.state.update((s) => void (s.downloads[id] = { state: 'downloading', url }));
      this.set({ ...this.blank(id, entry), bytes: have, state: 'downloading' });
      started(this.statuses.get(id)!);
      await this.transfer(entry, url, part, run);
    } catch (err) {
      await this.settleFailure(entry, part, run, err);
    }
  }

  private async transfer(entry: CatalogEntry, url: string, part: string, run: Active): Promise<void> {
    const id = entry.id;
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
        minSpeed: this.opts.minSpeed,
        maxBytes: maxDownloadBytes(entry),
        retryBaseMs: this.opts.retryBaseMs,
        log: (m) => this.opts.log?.(`model ${id}: retrying after ${m}`),
        onProgress: ({ bytes, total }) => {
          const speed = this.speedOf(id, bytes);
          const t = total ?? entry.sizeBytes;
          this.set({ id, state: 'downloading', bytes, total: t, speed, etaSeconds: speed > 0 ? Math.max(0, (t - bytes) / speed) : null, error: null }, false);
        },
      });
      this.set({ ...this.statuses.get(id)!, state: 'verifying', bytes: got.bytes, total: got.bytes, speed: 0, etaSeconds: null });
      const { verified } = await judge(
        entry,
        got,
        this.state.get().verified[id],
        this.listReader(entry, run.mirror, run.controller.signal),
        run.mirror ? 'your mirror' : '',
      );
      if (run.controller.signal.aborted) throw new ModelError('canceled', 'The download was stopped.');
      this.set({ ...this.statuses.get(id)!, state: 'unpacking' });
      await installModel(
        this.dir,
        entry,
        { kind: entry.format === 'tar.bz2' ? 'archive' : 'file', path: part, sha256: got.sha256, move: true },
        run.controller.signal,
      );
      await this.remember(id, verified);
      await unlink(part).catch(() => undefined);
      await this.state.update((s) => void delete s.downloads[id]);
      this.set({ ...this.statuses.get(id)!, state: 'installed', error: null });
      this.opts.changed?.(id);
    } finally {
      clearInterval(tick);
    }
  }

  /** Reads upstream's list afresh (from the mirror when one is set), or null when the entry names none. */
  private listReader(entry: CatalogEntry, mirror: string, signal?: AbortSignal): (() => Promise<string | null>) | null {
    const list = listUrlOf(entry, mirror);
    return list ? () => publishedSha256(this.connection, list, archiveNameOf(entry), signal) : null;
  }

  private remember(id: string, v: Verified | null): Promise<void> {
    return this.state.update((s) => {
      if (v) s.verified[id] = v;
      else delete s.verified[id];
    });
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
    let e = err instanceof ModelError ? err : new ModelError('network', err instanceof Error ? err.message : String(err));
    // A full disk: the partial file is removed (the disk needs the room), and the message says how much the model needs.
    if (e.kind === 'disk') {
      await unlink(part).catch(() => undefined);
      const free = await (this.opts.freeSpace ?? freeSpace)(this.dir).catch(() => null);
      e = diskFull(this.room(entry, 0), free ?? undefined);
    }
    // The archive changed upstream: forget the old value, so the fresh download is judged by the new list.
    if (e.kind === 'upstream_changed') await this.remember(id, null);
    // An archive that cannot be right is removed; a network failure keeps its bytes for the next try.
    if (['not_archive', 'checksum', 'upstream_changed', 'mirror_mismatch', 'unsafe_archive', 'incomplete_model', 'size'].includes(e.kind))
      await unlink(part).catch(() => undefined);
    await this.state.update((s) => void delete s.downloads[id]);
    this.opts.log?.(`model ${id}: ${e.kind}: ${e.message}`);
    this.set({ ...current, state: 'failed', bytes: await this.partBytes(entry), speed: 0, etaSeconds: null, error: { kind: e.kind, message: e.message } });
  }

  /** Stop a running download for `reason` and wait until it has settled. */
  private async stop(id: string, reason: 'pause' | 'cancel'): Promise<boolean> {
    const run = this.active.get(id);
    if (!run) return false;
    run.reason ??= reason;
    run.controller.abort();
    await run.done;
    return true;
  }

  /** Pause a running download; its bytes stay for resume. */
  async pause(id: string): Promise<DownloadStatus | null> {
    await this.stop(id, 'pause');
    return this.status(id);
  }

  resume(id: string): Promise<DownloadStatus> {
    return this.download(id);
  }

  /** Stop a download and remove its partial file. */
  async cancel(id: string): Promise<DownloadStatus | null> {
    const entry = this.entry(id)!;
    if (await this.stop(id, 'cancel')) return this.status(id);
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

  /** Delete an installed model and what was recorded of its archive; resolves with the bytes freed. */
  async delete(id: string): Promise<number> {
    if (this.active.has(id)) await this.cancel(id);
    const freed = await deleteModel(this.dir, id);
    await this.remember(id, null);
    this.statuses.delete(id);
    this.opts.changed?.(id);
    return freed;
  }

  /**
   * Install from an archive, a model file or a folder the user named: the
   * entry `id` the user chose, or the one its name matches (the archive's
   * file name, or the folder it unpacks to); verified and installed like a
   * download, through the files owner's check (from-file.ts).
   */
  async installFrom(path: string, name?: string, id?: string): Promise<string> {
    return this.installed(await installFromPath(this.fromFile(), path, name, id));
  }

  /** Install from a host-mode upload (staged by /upload), taken once. */
  async installUpload(uploadId: string, name: string, id?: string): Promise<string> {
    return this.installed(await installFromUpload(this.fromFile(), uploadId, name, id));
  }

  private fromFile(): FromFileDeps {
    return {
      dir: this.dir,
      catalog: this.opts.catalog,
      files: (this.opts.files ??= unconfinedFiles(join(this.dir, PARTIAL_DIR, 'uploads'))),
      free: () => (this.opts.freeSpace ?? freeSpace)(this.dir),
      room: (entry, sourceBytes) => (entry.format === 'tar.bz2' ? unpackedBytesOf(entry) : sourceBytes) + MARGIN_BYTES,
      verified: (m) => this.state.get().verified[m],
      readList: (entry) => this.listReader(entry, this.mirror()),
      remember: (m, v) => this.remember(m, v),
    };
  }

  private installed(id: string): string {
    this.statuses.delete(id);
    this.opts.changed?.(id);
    return id;
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
