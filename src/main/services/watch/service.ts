/**
 * Watch folders: audio and video files that appear in a folder the user chose are transcribed with
 * that folder's settings (model, language, speakers), and their subtitles written next to them.
 * A file is checked by the owner of the user's files (its real path, inside --folder in host mode), then
 * noted as taken in the same transaction as its job: a crash leaves both or neither, so a file is
 * neither lost nor taken twice. Host mode watches only inside the folders it was started with.
 */
import { realpath, stat } from 'node:fs/promises';
import { basename, isAbsolute } from 'node:path';
import { AppError } from '../../../shared/errors';
import type { WatchFolder, WatchOptions } from '../../../shared/ipc/watch';
import type { Job, TranscriptionOptions } from '../../../shared/jobs';
import type { CheckedFile } from '../jobs/service';
import type { Library } from '../library/library';
import type { WatchFolderRow } from '../library/watch-store';
import { FolderWatcher } from './folder-watcher';
import { writeSubtitlesBeside } from './subtitles';

export interface WatchDeps {
  library: Library;
  /** The file through the one check (JobService.checkPath: real path, inside --folder in host mode, a regular file). */
  check(path: string): Promise<CheckedFile>;
  /** Makes the job, running `within` in the same transaction (JobService.addChecked). */
  addChecked(file: CheckedFile, options: TranscriptionOptions, within: (job: Job) => void): Job;
  /** Whether files under this folder may be read (host mode: only under --folder). */
  folderAllowed(dir: string): boolean;
  changed(folderId: string | null): void;
  log(message: string): void;
  /** How long a file's size must hold still before it is taken (default 3 s), and how often folders are listed (default 1 s). */
  stableMs?: number;
  pollMs?: number;
  /** Test hooks: a slow copy is followed with `observed`; a restart's known file shows in `skipped`. */
  observed?(path: string, size: number): void;
  skipped?(path: string): void;
}

const HOST_REFUSAL =
  'Host mode watches only folders inside the ones it was started with (--folder). Start it with --folder naming this folder or one above it.';

/** A folder's settings as a job's options (absent = the Settings default). */
export function jobOptionsOf(o: WatchOptions): TranscriptionOptions {
  const out: TranscriptionOptions = {};
  if (o.speechModel) out.speechModels = [o.speechModel];
  if (o.languageCode) out.languageCode = o.languageCode;
  if (o.speakerLabels) {
    out.speakerLabels = true;
    if (o.speakersExpected) out.speakersExpected = o.speakersExpected;
  }
  return out;
}

export class WatchService {
  private readonly watchers = new Map<string, FolderWatcher>();
  private readonly problems = new Map<string, string>();
  private disposed = false;

  constructor(private readonly deps: WatchDeps) {}

  /** Watch every folder that is not paused; write subtitles a job finished while Verbatim was closed. */
  start(): void {
    for (const f of this.deps.library.watch.folders()) if (!f.paused) void this.open(f);
    for (const file of this.deps.library.watch.subtitlesPending()) {
      if (!file.jobId) continue;
      try {
        const job = this.deps.library.jobs.get(file.jobId);
        if (job.status === 'completed') void this.jobCompleted(job);
      } catch {
        // The job was removed from the queue: its transcript is in the library, but there is nothing to follow.
      }
    }
  }

  list(): { folders: WatchFolder[]; origins: Record<string, string> } {
    return { folders: this.deps.library.watch.folders().map((f) => this.view(f)), origins: this.deps.library.watch.origins() };
  }

  async add(path: string, options: WatchOptions): Promise<WatchFolder> {
    if (!isAbsolute(path)) throw new AppError('bad_request', 'Give the folder’s full path (starting at the top of the disk).');
    let real: string;
    try {
      real = await realpath(path);
      if (!(await stat(real)).isDirectory()) throw new Error('not a folder');
    } catch {
      throw new AppError('bad_request', `“${path}” is not a folder Verbatim can open. Check the path.`);
    }
    if (!this.deps.folderAllowed(real)) throw new AppError('forbidden', HOST_REFUSAL);
    const row = this.deps.library.watch.addFolder(real, options);
    await this.open(row);
    this.deps.changed(row.id);
    return this.view(row);
  }

  async update(id: string, change: { options?: WatchOptions; paused?: boolean }): Promise<WatchFolder> {
    const row = this.deps.library.watch.updateFolder(id, change);
    if (change.paused === true) await this.close(id);
    if (change.paused === false) await this.open(row);
    this.deps.changed(id);
    return this.view(row);
  }

  async pauseAll(paused: boolean): Promise<WatchFolder[]> {
    for (const f of this.deps.library.watch.folders()) {
      this.deps.library.watch.updateFolder(f.id, { paused });
      if (paused) await this.close(f.id);
      else await this.open({ ...f, paused });
    }
    this.deps.changed(null);
    return this.list().folders;
  }

  async remove(id: string): Promise<void> {
    this.deps.library.watch.folder(id);
    await this.close(id);
    this.deps.library.watch.removeFolder(id);
    this.problems.delete(id);
    this.deps.changed(id);
  }

  /** A job finished: a watched file's subtitles are written next to it. */
  async jobCompleted(job: Job): Promise<void> {
    const file = this.deps.library.watch.byJob(job.id);
    if (!file || file.subtitlesWritten || !file.folderId) return;
    let folder: WatchFolderRow;
    try {
      folder = this.deps.library.watch.folder(file.folderId);
    } catch {
      return;
    }
    try {
      await writeSubtitlesBeside(this.deps.library, job.recordingId, file.path, folder.options.subtitles, {
        watched: folder.path,
        allowsFolder: (real) => this.deps.folderAllowed(real),
      });
      this.deps.library.watch.markSubtitles(file.path);
    } catch (e) {
      this.deps.log(`watch: subtitles for ${file.path} were not written: ${e instanceof Error ? e.message : String(e)}`);
    }
  }

  private view(f: WatchFolderRow): WatchFolder {
    return {
      id: f.id,
      path: f.path,
      name: basename(f.path) || f.path,
      options: f.options,
      paused: f.paused,
      taken: this.deps.library.watch.takenCount(f.id),
      waiting: this.watchers.get(f.id)?.waiting ?? 0,
      empty: (this.watchers.get(f.id)?.empty ?? []).slice(0, 20).map((p) => basename(p)),
      problem: this.problems.get(f.id) ?? null,
    };
  }

  private async open(f: WatchFolderRow): Promise<void> {
    if (this.disposed || this.watchers.has(f.id)) return;
    // Host mode may start again with other --folder values: a folder outside them stays unwatched.
    if (!this.deps.folderAllowed(f.path)) {
      this.setProblem(f.id, HOST_REFUSAL);
      return;
    }
    const w = new FolderWatcher(
      f.path,
      { stableMs: this.deps.stableMs ?? 3000, pollMs: this.deps.pollMs ?? 1000 },
      {
        known: (paths) => this.deps.library.watch.knownOf(paths),
        take: (p, size, mtime) => this.take(f.id, p, size, mtime),
        observed: (p, size) => {
          this.deps.observed?.(p, size);
          // The folder's "waiting" count shows a copy on its way.
          if (size > 0) this.deps.changed(f.id);
        },
        skipped: (p) => this.deps.skipped?.(p),
        problem: (m) => this.setProblem(f.id, m),
        empty: () => this.deps.changed(f.id),
      },
    );
    this.watchers.set(f.id, w);
    w.start();
  }

  private setProblem(id: string, message: string | null): void {
    if ((this.problems.get(id) ?? null) === message) return;
    if (message) this.problems.set(id, message);
    else this.problems.delete(id);
    this.deps.changed(id);
  }

  private async close(id: string): Promise<void> {
    const w = this.watchers.get(id);
    this.watchers.delete(id);
    await w?.stop();
  }

  private async take(folderId: string, path: string, size: number, mtimeMs: number): Promise<void> {
    if (this.disposed) return;
    let folder: WatchFolderRow;
    try {
      folder = this.deps.library.watch.folder(folderId);
    } catch {
      return;
    }
    if (folder.paused) return;
    let checked: CheckedFile;
    try {
      // A link inside the folder may point anywhere: the check reads only what lies under --folder in host mode.
      checked = await this.deps.check(path);
    } catch (e) {
      const message = e instanceof Error ? e.message : String(e);
      this.deps.library.transaction(() => {
        this.deps.library.watch.remember(path, folderId, size, mtimeMs);
        this.deps.library.watch.setError(path, message);
      });
      this.deps.log(`watch: ${path} was not taken: ${message}`);
      this.deps.changed(folderId);
      return;
    }
    if (this.disposed) return;
    try {
      this.deps.addChecked(checked, jobOptionsOf(folder.options), (job) => {
        this.deps.library.watch.remember(path, folderId, size, mtimeMs);
        this.deps.library.watch.setJob(path, job.id, job.recordingId);
      });
    } catch (e) {
      const message = e instanceof Error ? e.message : String(e);
      this.deps.library.transaction(() => {
        this.deps.library.watch.remember(path, folderId, size, mtimeMs);
        this.deps.library.watch.setError(path, message);
      });
      this.deps.log(`watch: ${path} was not taken: ${message}`);
    }
    this.deps.changed(folderId);
  }

  async dispose(): Promise<void> {
    this.disposed = true;
    await Promise.all([...this.watchers.keys()].map((id) => this.close(id)));
  }
}
