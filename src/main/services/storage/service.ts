/**
 * The library's storage: how much room it takes (audio and database), and the
 * audio retention rule of Settings (keep for ever, N days, or until
 * transcribed) applied in small batches that yield between them, so a
 * thousand files never hold the event loop. What a run removes can be undone
 * until the next start, when the trash is emptied for good.
 */
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Library } from '../library/library';
import type { RetentionRule, TrashEntry } from '../library/retention';
import type { Settings } from '../../../shared/settings';
import type { RetentionRun, StorageUsage } from '../../../shared/ipc/storage';
import { AppError } from '../../../shared/errors';

/** Recordings a batch lets go of before it yields to the event loop. */
const BATCH = 25;
/** How often the rule is applied again while the app runs. */
const EVERY_MS = 60 * 60 * 1000;

const yieldTurn = () => new Promise<void>((r) => setImmediate(r));

export interface StorageDeps {
  library: Library;
  settings: { get(): Settings };
  /** A run of the hourly clock that removed audio (the renderer offers Undo); a run asked for over IPC answers itself. */
  removed?: (run: RetentionRun) => void;
  log?: (line: string) => void;
}

export class StorageService {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<RetentionRun> | null = null;
  private last: RetentionRun | null = null;

  constructor(private readonly deps: StorageDeps) {}

  /** At start: empty what the last run left to undo, then apply the rule now and every hour. */
  start(): void {
    try {
      const n = this.deps.library.retention.purge();
      if (n) this.deps.log?.(`storage: deleted ${n} audio files removed before this start`);
    } catch (e) {
      this.deps.log?.(`storage: emptying the audio trash failed: ${(e as Error).message}`);
    }
    this.timer = setInterval(() => void this.apply(true).catch(() => undefined), EVERY_MS);
    this.timer.unref();
    void this.apply(true).catch(() => undefined);
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  rule(): RetentionRule {
    const r = this.deps.settings.get().audioRetention;
    if (!r || r.mode === 'forever') return { mode: 'forever' };
    return r.mode === 'days' ? { mode: 'days', days: r.days } : { mode: 'transcribed' };
  }

  /** Applies the rule now (one run at a time; a second call joins the running one). `own`: a run of the hourly clock, told to the renderer as an event. */
  apply(own = false): Promise<RetentionRun> {
    this.running ??= this.run(own).finally(() => {
      this.running = null;
    });
    return this.running;
  }

  private async run(own: boolean): Promise<RetentionRun> {
    const { library } = this.deps;
    const rule = this.rule();
    let batch: ReturnType<Library['retention']['open']> | null = null;
    let recordings = 0;
    let bytes = 0;
    for (;;) {
      const due = library.retention.due(rule, BATCH);
      if (due.length === 0) break;
      const entries: TrashEntry[] = [];
      for (const d of due) entries.push({ ...d, bytes: await this.sizeOf(d) });
      // One batch folder per run, so one Undo brings back all it removed.
      if (!batch) batch = library.retention.open(entries);
      else batch = library.retention.extend(batch, entries);
      for (const e of entries) {
        library.retention.trash(batch, e);
        recordings++;
        bytes += e.bytes;
      }
      library.context.changed(
        entries.map((e) => e.recordingId),
        'updated',
      );
      await yieldTurn();
    }
    const run: RetentionRun = { batchId: batch?.id ?? null, recordings, bytes };
    if (batch) {
      this.last = run;
      if (own) this.deps.removed?.(run);
    }
    return run;
  }

  /** Brings back what a run removed (until the next start). */
  async undo(batchId: string): Promise<{ recordings: number }> {
    if (this.running) await this.running;
    if (!this.deps.library.retention.batches().includes(batchId))
      throw new AppError('not_found', 'That audio can no longer be brought back: it was deleted for good when Verbatim last started.');
    const back = this.deps.library.retention.restore(batchId);
    if (this.last?.batchId === batchId) this.last = null;
    this.deps.library.context.changed(back, 'updated');
    return { recordings: back.length };
  }

  /** Room the library takes: its audio folder, its database (with its write-ahead log) and what waits in the trash. */
  async usage(): Promise<StorageUsage> {
    const { library } = this.deps;
    const audio = await this.folderBytes(library.audioDir);
    const trash = await this.folderBytes(library.retention.trashDir, true);
    let database = 0;
    for (const suffix of ['', '-wal', '-shm'])
      database += await stat(`${library.dbFile}${suffix}`).then(
        (s) => s.size,
        () => 0,
      );
    return { audioBytes: audio.bytes, audioFiles: audio.files, databaseBytes: database, trashBytes: trash.bytes, lastRun: this.last };
  }

  private async sizeOf(e: Omit<TrashEntry, 'bytes'>): Promise<number> {
    let n = 0;
    for (const name of [e.original, e.redacted])
      if (name)
        n += await stat(join(this.deps.library.audioDir, name)).then(
          (s) => s.size,
          () => 0,
        );
    return n;
  }

  private async folderBytes(dir: string, deep = false): Promise<{ bytes: number; files: number }> {
    let bytes = 0;
    let files = 0;
    const names = await readdir(dir, { withFileTypes: true }).catch(() => []);
    for (let i = 0; i < names.length; i++) {
      const d = names[i]!;
      const p = join(dir, d.name);
      // A trash batch's own list is not audio.
      if (d.isFile() && d.name !== 'batch.json') {
        bytes += await stat(p).then(
          (s) => s.size,
          () => 0,
        );
        files++;
      } else if (deep && d.isDirectory()) {
        const sub = await this.folderBytes(p);
        bytes += sub.bytes;
        files += sub.files;
      }
    }
    return { bytes, files };
  }
}
