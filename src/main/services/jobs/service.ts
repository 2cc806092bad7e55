/**
 * The jobs service (DESIGN.md §5): what the IPC handlers call. It adds jobs
 * (files, host-mode uploads, URLs), starts the machine for each, cancels,
 * retries, removes, and resumes every unfinished job at start.
 */
import { rm, stat } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { AppError } from '../../../shared/errors';
import type { FileRef } from '../../../shared/ipc/files';
import type { Job, ServiceRegion, TranscriptionOptions } from '../../../shared/jobs';
import { asAppError, realClock } from '../client/http';
import { remoteEndpoints } from '../endpoints';
import type { Library } from '../library/library';
import type { JobSourceKind } from '../library/jobs';
import { JobContext, type EngineAccess, type JobEvents, type JobServiceOptions, type KeyAccess, type SettingsAccess, type WebhookAccess } from './context';
import { isRetryable, runJob, type UploadSlots } from './machine';
import { isFinalJobStatus } from './states';
import type { UserFiles, OpenedFile } from '../files/refs';
import { unconfinedFiles } from '../files/unconfined';

class Semaphore implements UploadSlots {
  private active = 0;
  private readonly queue: (() => void)[] = [];
  constructor(private readonly limit: () => number) {}
  async acquire(signal?: AbortSignal): Promise<() => void> {
    if (this.active >= this.limit()) {
      await new Promise<void>((resolve, reject) => {
        const go = () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        };
        const onAbort = () => {
          const i = this.queue.indexOf(go);
          if (i >= 0) this.queue.splice(i, 1);
          reject(new AppError('canceled', 'Canceled.'));
        };
        signal?.addEventListener('abort', onAbort, { once: true });
        this.queue.push(go);
      });
    }
    this.active++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.active--;
      this.queue.shift()?.();
    };
  }
}

/** A file for a job: its path, and whether the user picked it on the desktop (only then is the original played, DESIGN.md §6). */
export interface FileSource {
  path: string;
  picked: boolean;
  durationMs?: number | null;
}

/** A file checked for a job (services/files), its job still to be made. */
export interface CheckedFile {
  kind: 'file' | 'upload';
  /** The real path (links resolved), or the staged upload. */
  path: string;
  name: string;
  size: number;
  durationMs: number | null;
  /** Played from where it is (a desktop pick). */
  originalPath: string | null;
}

export class JobService {
  private readonly ctx: JobContext;
  private readonly running = new Map<string, { ac: AbortController; reason: 'cancel' | 'dispose' | null; done: Promise<void> }>();
  private readonly slots: Semaphore;
  private disposed = false;
  /** The one check every file a job reads goes through. */
  readonly files: UserFiles;

  constructor(
    private readonly library: Library,
    private readonly settings: SettingsAccess,
    private readonly keys: KeyAccess,
    engine: EngineAccess,
    webhooks: WebhookAccess | null,
    private readonly events: JobEvents,
    opts: JobServiceOptions = {},
  ) {
    this.files = opts.files ?? unconfinedFiles(join(library.dataDir, 'uploads'), () => library.jobs.uploadSources());
    this.ctx = new JobContext(this.files, library, settings, keys, engine, webhooks, events, opts.clock ?? realClock, opts);
    this.slots = new Semaphore(() => this.settings.get().uploadConcurrency);
  }

  /** Resume every unfinished job (call once at start); drop staged uploads no job uses. */
  resume(): number {
    this.sweepUploads();
    const rows = this.library.jobs.resumeUnfinished();
    for (const r of rows) this.start(r.id);
    return rows.length;
  }

  /** Staged browser uploads older than an hour that no job refers to (the tab was closed before a job named them). */
  private sweepUploads(): void {
    this.files.staged.sweep();
  }

  /** Which region a new job goes to: with no cloud key, the local engine. */
  private targetRegion(): ServiceRegion {
    const region = this.settings.get().region;
    if (region === 'local') return 'local';
    if (region !== 'custom' && !this.keys.get()) return 'local';
    return region;
  }

  /** Files the user named (paths or uploads), each through the check, then one job each; nothing is added when one is refused. */
  async add(files: { file: FileRef; durationMs?: number | null }[], options?: TranscriptionOptions): Promise<Job[]> {
    const checked: CheckedFile[] = [];
    for (const { file, durationMs } of files) {
      if (file.kind === 'upload') checked.push(await this.checkUpload(file.uploadId, file.name, durationMs ?? null));
      else checked.push(await this.checkPath({ path: file.path, picked: this.files.picked.has(file.path), durationMs }));
    }
    return this.addChecked(checked, options);
  }

  async addFiles(files: FileSource[], options?: TranscriptionOptions): Promise<Job[]> {
    const checked: CheckedFile[] = [];
    for (const f of files) checked.push(await this.checkPath(f));
    return this.addChecked(checked, options);
  }

  /** A path through the one check (real path, inside --folder in host mode, a regular file), read no further here. */
  async checkPath(f: FileSource): Promise<CheckedFile> {
    const opened = await this.files.openPath(f.path, { nothing: 'Nothing was added.' });
    return { kind: 'file', ...(await closed(opened)), durationMs: f.durationMs ?? null, originalPath: f.picked ? opened.path : null };
  }

  private async checkUpload(uploadId: string, name: string | undefined, durationMs: number | null): Promise<CheckedFile> {
    const opened = await this.files.openUpload(uploadId, { name: name ?? 'Upload', nothing: 'Nothing was added.' });
    await opened.close();
    if (this.files.staged.inUse(opened.path)) throw new AppError('conflict', 'That upload was already added.');
    return { kind: 'upload', path: opened.path, name: name ?? 'Upload', size: opened.size, durationMs, originalPath: null };
  }

  /**
   * The jobs of files already checked, made in one transaction; `within` runs in the same one (a watched
   * file's "taken" mark), so a crash leaves both or neither. They start once it has committed.
   */
  addChecked(files: CheckedFile[], options?: TranscriptionOptions, within?: (jobs: Job[]) => void): Job[] {
    const jobs = this.library.transaction(() => {
      const made = files.map((f) =>
        this.create({ kind: f.kind, source: f.path, name: f.name, size: f.size, durationMs: f.durationMs, originalPath: f.originalPath, options }),
      );
      within?.(made);
      return made;
    });
    for (const job of jobs) {
      this.events.changed(job.id, job);
      this.start(job.id);
    }
    return jobs;
  }

  /** A file staged by the host-mode /upload route (data/uploads/<id>). */
  async addUpload(uploadId: string, name: string | undefined, options?: TranscriptionOptions, durationMs?: number): Promise<Job> {
    return this.addChecked([await this.checkUpload(uploadId, name, durationMs ?? null)], options)[0]!;
  }

  addUrl(url: string, name: string | undefined, options?: TranscriptionOptions): Job {
    const job = this.library.transaction(() =>
      this.create({ kind: 'url', source: url, name: name || url, size: null, durationMs: null, originalPath: null, options }),
    );
    this.events.changed(job.id, job);
    this.start(job.id);
    return job;
  }

  /** Transcribe a live session's recording again, as a pre-recorded job: a new transcript of the same item (both are kept). */
  async addLiveVersion(recordingId: string, name: string, extra: TranscriptionOptions = {}): Promise<Job> {
    const path = this.library.sessions.audioPath(recordingId);
    if (!path) throw new AppError('not_found', 'This session has no recording to transcribe again (nothing was recorded, or the file was removed).');
    const size = (await stat(path)).size;
    const region = this.targetRegion();
    const s = this.settings.get();
    const options = { ...s.transcriptionDefaults, ...extra };
    const baseUrl = region === 'local' ? 'local' : (remoteEndpoints(region, s)?.rest ?? '');
    if (region === 'custom' && !baseUrl) throw new AppError('bad_request', 'Region “custom” needs a REST address (Settings → Transcription service).');
    const job = this.library.transaction(() => {
      const transcriptId = this.library.sessions.addVersion(recordingId, { region, baseUrl: region === 'local' ? null : baseUrl, options });
      return this.library.jobs.createForTranscript(recordingId, transcriptId, { kind: 'live', source: path, name, size, region, baseUrl, options });
    });
    this.events.changed(job.id, job);
    this.start(job.id);
    return job;
  }

  /**
   * Speaker labels for a finished transcript without choosing the file again: the recording's audio (the
   * library's copy, the original file, or a live session's recording) is transcribed again with
   * speaker_labels, as a new version of the same item, with the options of the version it had.
   */
  async addSpeakers(recordingId: string): Promise<Job> {
    const item = this.library.recordings.item(recordingId);
    const before = this.library.transcripts.get(recordingId);
    if (before.speakers.length > 0) throw new AppError('conflict', 'This transcript has speakers already; rename them in the transcript.');
    const options = { ...(before.options as TranscriptionOptions), speakerLabels: true };
    if (this.library.sessions.session(recordingId)) return this.addLiveVersion(recordingId, item.title, options);
    const path = this.library.audio.path(recordingId);
    if (!path)
      throw new AppError(
        'not_found',
        'The audio of this recording is not in the library and its original file is gone: transcribe the file again with “Speaker labels” on (Settings → Defaults).',
      );
    const size = (await stat(path)).size;
    const region = this.targetRegion();
    const s = this.settings.get();
    const baseUrl = region === 'local' ? 'local' : (remoteEndpoints(region, s)?.rest ?? '');
    if (region === 'custom' && !baseUrl) throw new AppError('bad_request', 'Region “custom” needs a REST address (Settings → Transcription service).');
    // The library's own copy is not copied in again when the job completes; an original file may be (Settings).
    const kind: JobSourceKind = this.library.audio.isLibraryCopy(path) ? 'live' : 'file';
    const job = this.library.transaction(() => {
      const transcriptId = this.library.transcripts.addVersion(recordingId, { region, baseUrl: region === 'local' ? null : baseUrl, options });
      return this.library.jobs.createForTranscript(recordingId, transcriptId, { kind, source: path, name: item.title, size, region, baseUrl, options });
    });
    this.events.changed(job.id, job);
    this.start(job.id);
    return job;
  }

  private create(spec: {
    kind: JobSourceKind;
    source: string;
    name: string;
    size: number | null;
    durationMs: number | null;
    originalPath: string | null;
    options?: TranscriptionOptions;
  }): Job {
    // Made inside addChecked's transaction: the caller tells the renderer and starts it once that has committed.
    const region = this.targetRegion();
    const s = this.settings.get();
    const options = { ...s.transcriptionDefaults, ...spec.options };
    const baseUrl = region === 'local' ? 'local' : (remoteEndpoints(region, s)?.rest ?? '');
    if (region === 'custom' && !baseUrl) throw new AppError('bad_request', 'Region “custom” needs a REST address (Settings → Transcription service).');
    const job = this.library.jobs.create({
      kind: spec.kind,
      source: spec.source,
      name: spec.name,
      size: spec.size,
      region,
      baseUrl,
      options,
      recording: {
        title: stripExt(spec.name),
        source: spec.kind === 'url' ? spec.source : spec.name,
        sourceKind: spec.kind,
        sizeBytes: spec.size,
        durationMs: spec.durationMs,
        originalPath: spec.originalPath,
        region,
        baseUrl: region === 'local' ? null : baseUrl,
        options,
      },
    });
    return job;
  }

  get(id: string): Job {
    return this.library.jobs.get(id);
  }

  list(includeFinished = true, limit = 200): Job[] {
    return this.library.jobs.list(includeFinished, limit);
  }

  private start(id: string): void {
    if (this.disposed || this.running.has(id)) return;
    const ac = new AbortController();
    const entry = { ac, reason: null as 'cancel' | 'dispose' | null, done: Promise.resolve() };
    this.running.set(id, entry);
    entry.done = runJob(this.ctx, id, this.slots, ac.signal)
      .catch((e: unknown) => {
        if (entry.reason !== null) return;
        const err = e instanceof AppError ? e : new AppError('internal', `Something went wrong inside Verbatim: ${e instanceof Error ? e.message : String(e)}`);
        this.ctx.log(`job ${id} failed: ${err.code} ${err.message}`);
        const row = this.library.jobs.row(id);
        if (row && !isFinalJobStatus(row.status))
          this.ctx.transition(id, 'error', { error: { code: err.code, message: err.message, retryable: isRetryable(err.code) } });
      })
      .finally(() => this.running.delete(id));
  }

  async cancel(id: string): Promise<Job> {
    const row = this.library.jobs.must(id);
    if (isFinalJobStatus(row.status)) throw new AppError('conflict', `This job is already ${row.status}.`);
    this.ctx.transition(id, 'canceled', { error: null });
    const r = this.running.get(id);
    if (r) {
      r.reason = 'cancel';
      r.ac.abort();
      await r.done;
    }
    if (row.source_kind === 'upload') await rm(row.source, { force: true });
    const fresh = this.library.jobs.must(id);
    if (fresh.remote_id) {
      // Leave nothing behind on the service either.
      await this.ctx
        .client(fresh, AbortSignal.timeout(10_000))
        .then((c) => c.delete(fresh.remote_id!))
        .catch((e: unknown) => this.ctx.log(`job ${id}: remote delete after cancel failed: ${asAppError(e).message}`));
    }
    return this.get(id);
  }

  retry(id: string): Job {
    const row = this.library.jobs.must(id);
    if (row.status !== 'error' && row.status !== 'canceled')
      throw new AppError('conflict', `Only failed or canceled jobs can be retried (this one is ${row.status}).`);
    const uploadGone = row.source_kind === 'upload' && row.upload_url === null;
    if (uploadGone) throw new AppError('file_unreadable', 'The uploaded copy of this file is gone. Drop the file again.');
    this.library.jobs.resetForRetry(id);
    const job = this.ctx.transition(id, 'queued', { error: null });
    this.start(id);
    return job;
  }

  async remove(id: string): Promise<void> {
    const row = this.library.jobs.row(id);
    if (!row) return;
    if (!isFinalJobStatus(row.status)) await this.cancel(id);
    this.library.jobs.delete(id);
    this.events.changed(id, null);
  }

  /** Stop work without changing any job's state (a restart resumes it). */
  async dispose(): Promise<void> {
    this.disposed = true;
    const all = [...this.running.values()];
    for (const r of all) {
      r.reason = 'dispose';
      r.ac.abort();
    }
    await Promise.all(all.map((r) => r.done));
  }
}

/** The checked file's facts; its descriptor is closed (the job reads it again through the check when it uploads). */
async function closed(f: OpenedFile): Promise<{ path: string; name: string; size: number }> {
  await f.close();
  return { path: f.path, name: f.name, size: f.size };
}

function stripExt(name: string): string {
  const e = extname(name);
  return e && e.length < name.length ? name.slice(0, -e.length) : name;
}
