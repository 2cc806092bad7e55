/**
 * One watched folder: it lists the folder every `pollMs` (and soon after the system says something
 * changed there), follows each new audio or video file's size, and hands a file on only once its
 * size and modification time have held still for `stableMs`, so a file still being copied in is
 * never taken half-written. Files the service already knows are skipped. A pass gives the event loop
 * back every few milliseconds (a folder of 20,000 files is listed, looked up in batches and checked
 * over many turns), and an empty file that holds still is set apart and said, not left "arriving".
 */
import { watch, type FSWatcher } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { mediaKindOf } from '../../../shared/media-files';

export interface FolderWatcherHooks {
  /** Which of these files were taken before (in any launch): one lookup per batch. */
  known(paths: string[]): Set<string>;
  /** The file held still for stableMs: take it. */
  take(path: string, size: number, mtimeMs: number): Promise<void>;
  /** A new file was seen at this size (again after each change): tests follow a slow copy with it. */
  observed?(path: string, size: number): void;
  /** A known file was seen (once per watcher): it will not be taken again. */
  skipped?(path: string): void;
  /** The folder cannot be read (null once it can again). */
  problem(message: string | null): void;
  /** A file held still at 0 bytes (its path), or one of them got bytes (null): the folder's list of empty files changed. */
  empty?(path: string | null): void;
}

/** Most time one turn of a pass runs before it lets the event loop answer others. */
const SLICE_MS = 8;
/** Files looked up in the library at once. */
const BATCH = 500;

/** Names copy tools use while a file is on its way, and hidden files: never taken, whatever their extension. */
function inProgressName(name: string): boolean {
  return name.startsWith('.') || name.startsWith('~') || /\.(part|partial|crdownload|download|tmp|temp)$/i.test(name);
}

export class FolderWatcher {
  private readonly growing = new Map<string, { size: number; mtimeMs: number; since: number }>();
  /** Files that held still at 0 bytes: not arriving, not taken (nothing to transcribe) until they have bytes. */
  private readonly emptyFiles = new Set<string>();
  private readonly skippedOnce = new Set<string>();
  private readonly taking = new Set<string>();
  private timer: NodeJS.Timeout | null = null;
  private nudge: NodeJS.Timeout | null = null;
  private fsw: FSWatcher | null = null;
  private scanning: Promise<void> | null = null;
  private stopped = false;

  constructor(
    readonly dir: string,
    private readonly opts: { stableMs: number; pollMs: number },
    private readonly hooks: FolderWatcherHooks,
  ) {}

  start(): void {
    try {
      // A hint only: fs.watch misses events on some file systems (network shares), so the poll stays.
      this.fsw = watch(this.dir, { persistent: false }, () => this.soon());
      this.fsw.on('error', () => undefined);
    } catch {
      this.fsw = null;
    }
    this.timer = setInterval(() => void this.scan(), this.opts.pollMs);
    this.timer.unref();
    void this.scan();
  }

  /** Files seen but still growing (or not yet still for long enough). */
  get waiting(): number {
    return this.growing.size;
  }

  /** Files that held still with nothing in them (0 bytes), by path. */
  get empty(): string[] {
    return [...this.emptyFiles];
  }

  private soon(): void {
    if (this.nudge || this.stopped) return;
    this.nudge = setTimeout(() => {
      this.nudge = null;
      void this.scan();
    }, 50);
    this.nudge.unref();
  }

  /** One pass over the folder (never two at once). */
  scan(): Promise<void> {
    this.scanning ??= this.pass().finally(() => (this.scanning = null));
    return this.scanning;
  }

  private async pass(): Promise<void> {
    if (this.stopped) return;
    let names: string[];
    try {
      names = (await readdir(this.dir, { withFileTypes: true })).filter((d) => d.isFile()).map((d) => d.name);
      this.hooks.problem(null);
    } catch (e) {
      this.hooks.problem(`Verbatim cannot read this folder (${(e as NodeJS.ErrnoException).code ?? 'error'}): it may have been moved or deleted.`);
      return;
    }
    const present = new Set<string>();
    let turn = performance.now();
    const breathe = async () => {
      if (performance.now() - turn < SLICE_MS) return;
      await new Promise<void>((r) => setImmediate(r));
      turn = performance.now();
    };
    for (let at = 0; at < names.length; at += BATCH) {
      if (this.stopped) return;
      const batch: string[] = [];
      for (const name of names.slice(at, at + BATCH)) {
        if (inProgressName(name) || mediaKindOf(name) === null) continue;
        const path = join(this.dir, name);
        present.add(path);
        // Known once, known for good: a folder of thousands of finished files costs no query per pass.
        if (!this.taking.has(path) && !this.skippedOnce.has(path)) batch.push(path);
      }
      const known = batch.length > 0 ? this.hooks.known(batch) : new Set<string>();
      for (const path of batch) {
        if (this.stopped) return;
        if (known.has(path)) {
          this.growing.delete(path);
          this.emptyFiles.delete(path);
          this.skippedOnce.add(path);
          this.hooks.skipped?.(path);
        } else await this.check(path);
        await breathe();
      }
      await breathe();
    }
    // A file that went away while growing (moved out, renamed) is forgotten.
    for (const p of this.growing.keys()) if (!present.has(p)) this.growing.delete(p);
    for (const p of this.emptyFiles) if (!present.has(p)) this.emptyFiles.delete(p);
  }

  private async check(path: string): Promise<void> {
    let size: number;
    let mtimeMs: number;
    try {
      const st = await stat(path);
      if (!st.isFile()) return;
      size = st.size;
      mtimeMs = st.mtimeMs;
    } catch {
      this.growing.delete(path);
      return;
    }
    const now = Date.now();
    if (this.emptyFiles.has(path)) {
      if (size === 0) return;
      this.emptyFiles.delete(path);
      this.hooks.empty?.(null);
    }
    const seen = this.growing.get(path);
    if (!seen || seen.size !== size || seen.mtimeMs !== mtimeMs) {
      this.growing.set(path, { size, mtimeMs, since: now });
      this.hooks.observed?.(path, size);
      return;
    }
    if (now - seen.since < this.opts.stableMs) return;
    this.growing.delete(path);
    // Still empty after holding still: a copy that never began, or an empty file. Set apart (and said) until it has bytes.
    if (size === 0) {
      this.emptyFiles.add(path);
      this.hooks.empty?.(path);
      return;
    }
    this.taking.add(path);
    try {
      await this.hooks.take(path, size, mtimeMs);
    } finally {
      this.taking.delete(path);
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    if (this.nudge) clearTimeout(this.nudge);
    this.fsw?.close();
    await this.scanning;
  }
}
