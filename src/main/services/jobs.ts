/**
 * Durable transcription jobs (DESIGN.md §5). A job is a row in the library
 * database and a state machine: queued → uploading → submitted → processing →
 * completed | error | canceled. Every transition is written before it is acted
 * on, so a restart resumes: an upload starts again, a submitted job resumes
 * polling by its remote id. A create is never sent twice for one upload: when
 * its answer may have been lost, the service's list is searched first.
 */
import { randomUUID } from 'node:crypto';
import { existsSync, readdirSync, rmSync, statSync } from 'node:fs';
import { rename, rm, stat } from 'node:fs/promises';
import { basename, extname, join } from 'node:path';
import { SPEECH_MODELS } from '../../shared/api/transcript';
import { AppError, type ErrorCode } from '../../shared/errors';
import type { Job, JobError, JobProgress, JobStatus, ServiceRegion, TranscriptionOptions } from '../../shared/jobs';
import type { Word } from '../../shared/library';
import { backoffMs, RETRYABLE, sleep, withRetries, type RetryPolicy } from './client/http';
import { RestClient, type WireTranscript } from './client/rest';
import { remoteEndpoints } from './endpoints';
import type { EngineManager } from './local-engine';
import type { KeyVault } from './keys';
import { spansFromView } from './library/text';
import type { Library } from './library/library';
import type { SettingsService } from './settings';
import type { WebhookReceiver } from './webhooks';

interface JobRow {
  id: string;
  recording_id: string;
  transcript_id: string;
  source_kind: 'file' | 'url' | 'upload' | 'live';
  source: string;
  name: string;
  status: JobStatus;
  region: ServiceRegion;
  base_url: string;
  upload_url: string | null;
  remote_id: string | null;
  bytes_sent: number;
  bytes_total: number | null;
  error_code: string | null;
  error_message: string | null;
  error_retryable: number | null;
  attempts: number;
  options: string;
  created_at: string;
  updated_at: string;
  completed_at: string | null;
  resumed_at: string | null;
  /** From the job's recording. */
  duration_ms: number | null;
}

/** A job with its recording's length (the only column read from recordings). */
const JOB_SELECT = `SELECT j.*, r.duration_ms FROM jobs j LEFT JOIN recordings r ON r.id = j.recording_id`;

export interface JobEvents {
  changed(id: string, job: Job | null): void;
  progress(p: JobProgress): void;
}

export interface JobServiceOptions {
  /** Poll delays: first, cap (ms). */
  pollStartMs?: number;
  pollCapMs?: number;
  retry?: RetryPolicy;
  log?: (message: string) => void;
}

class Semaphore {
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

const FINAL: ReadonlySet<JobStatus> = new Set(['completed', 'error', 'canceled']);

export class JobService {
  private readonly running = new Map<string, { ac: AbortController; reason: 'cancel' | 'dispose' | null; done: Promise<void> }>();
  private readonly uploads: Semaphore;
  private disposed = false;
  private readonly retryPolicy: RetryPolicy;

  constructor(
    private readonly library: Library,
    private readonly settings: SettingsService,
    private readonly keys: KeyVault,
    private readonly engine: EngineManager,
    private readonly webhooks: WebhookReceiver | null,
    private readonly events: JobEvents,
    private readonly opts: JobServiceOptions = {},
  ) {
    this.uploads = new Semaphore(() => this.settings.get().uploadConcurrency);
    this.retryPolicy = opts.retry ?? { attempts: 8, baseMs: 500, capMs: 30_000 };
  }

  private get db() {
    return this.library.db;
  }

  /** Resume every unfinished job (call once at start); drop staged uploads no job uses. */
  resume(): number {
    this.sweepUploads();
    const unfinished = `status NOT IN ('completed','error','canceled')`;
    this.db.prepare(`UPDATE jobs SET resumed_at = ? WHERE ${unfinished}`).run(new Date().toISOString());
    const rows = this.db.prepare(`SELECT * FROM jobs WHERE ${unfinished} ORDER BY created_at`).all() as JobRow[];
    for (const r of rows) this.start(r.id);
    return rows.length;
  }

  /** Staged browser uploads older than an hour that no job refers to (the tab was closed before jobs.addUpload). */
  private sweepUploads(): void {
    const dir = this.uploadsDir();
    if (!existsSync(dir)) return;
    const used = new Set((this.db.prepare(`SELECT source FROM jobs WHERE source_kind = 'upload'`).all() as { source: string }[]).map((r) => r.source));
    for (const name of readdirSync(dir)) {
      const p = join(dir, name);
      try {
        if (!used.has(p) && Date.now() - statSync(p).mtimeMs > 3_600_000) rmSync(p, { force: true });
      } catch {
        // raced with another sweep or a finishing job
      }
    }
  }

  /** Which region a new job goes to: with no cloud key, the local engine. */
  private targetRegion(): ServiceRegion {
    const region = this.settings.get().region;
    if (region === 'local') return 'local';
    if (region !== 'custom' && !this.keys.get()) return 'local';
    return region;
  }

  async addFiles(paths: string[], options?: TranscriptionOptions, durationsMs?: (number | null)[]): Promise<Job[]> {
    const sizes: number[] = [];
    for (const p of paths) {
      try {
        const st = await stat(p);
        if (!st.isFile()) throw new Error('not a file');
        sizes.push(st.size);
      } catch (e) {
        throw new AppError('file_unreadable', `Verbatim cannot read “${p}”: it does not exist or is not a file. Nothing was added.`, { cause: e });
      }
    }
    return paths.map((p, i) => this.create({ kind: 'file', source: p, name: basename(p), size: sizes[i] ?? null, durationMs: durationsMs?.[i] ?? null, options }));
  }

  /** A file staged by the host-mode /upload route (data/uploads/<id>). */
  async addUpload(uploadId: string, name: string | undefined, options?: TranscriptionOptions, durationMs?: number): Promise<Job> {
    if (!/^[A-Za-z0-9_-]{8,64}$/.test(uploadId)) throw new AppError('bad_request', 'That upload id is not valid.');
    const path = join(this.uploadsDir(), uploadId);
    let size: number;
    try {
      size = (await stat(path)).size;
    } catch {
      throw new AppError('not_found', 'That upload is gone (already used, or Verbatim restarted). Drop the file again.');
    }
    const meta = this.db.prepare(`SELECT 1 FROM jobs WHERE source_kind = 'upload' AND source = ?`).get(path);
    if (meta) throw new AppError('conflict', 'That upload was already added.');
    return this.create({ kind: 'upload', source: path, name: name ?? 'Upload', size, durationMs: durationMs ?? null, options });
  }

  addUrl(url: string, name: string | undefined, options?: TranscriptionOptions): Job {
    return this.create({ kind: 'url', source: url, name: name || url, size: null, durationMs: null, options });
  }

  /** Transcribe a live session's recording again, as a pre-recorded job: a new transcript of the same item (both are kept). */
  async addLiveVersion(recordingId: string, name: string): Promise<Job> {
    const path = this.library.sessions.audioPath(recordingId);
    if (!path) throw new AppError('not_found', 'This session has no recording to transcribe again (nothing was recorded, or the file was removed).');
    const size = (await stat(path)).size;
    const region = this.targetRegion();
    const s = this.settings.get();
    const options = { ...s.transcriptionDefaults };
    const baseUrl = region === 'local' ? 'local' : (remoteEndpoints(region, s)?.rest ?? '');
    if (region === 'custom' && !baseUrl) throw new AppError('bad_request', 'Region “custom” needs a REST address (Settings → Transcription service).');
    const id = randomUUID();
    const now = new Date().toISOString();
    this.db.transaction(() => {
      const transcriptId = this.library.sessions.addVersion(recordingId, { region, baseUrl: region === 'local' ? null : baseUrl, options });
      this.db
        .prepare(
          `INSERT INTO jobs (id, recording_id, transcript_id, source_kind, source, name, status, region, base_url, bytes_total, options, created_at, updated_at)
           VALUES (?, ?, ?, 'live', ?, ?, 'queued', ?, ?, ?, ?, ?, ?)`,
        )
        .run(id, recordingId, transcriptId, path, name, region, baseUrl, size, JSON.stringify(options), now, now);
    })();
    const job = this.get(id);
    this.events.changed(id, job);
    this.start(id);
    return job;
  }

  uploadsDir(): string {
    return join(this.library.dataDir, 'uploads');
  }

  private create(spec: { kind: 'file' | 'url' | 'upload'; source: string; name: string; size: number | null; durationMs: number | null; options?: TranscriptionOptions }): Job {
    const region = this.targetRegion();
    const s = this.settings.get();
    const options = { ...s.transcriptionDefaults, ...spec.options };
    const baseUrl = region === 'local' ? 'local' : (remoteEndpoints(region, s)?.rest ?? '');
    if (region === 'custom' && !baseUrl) throw new AppError('bad_request', 'Region “custom” needs a REST address (Settings → Transcription service).');
    const id = randomUUID();
    const now = new Date().toISOString();
    this.db.transaction(() => {
      const { recordingId, transcriptId } = this.library.addRecording({
        title: stripExt(spec.name),
        source: spec.kind === 'url' ? spec.source : spec.name,
        sourceKind: spec.kind,
        sizeBytes: spec.size,
        durationMs: spec.durationMs,
        originalPath: spec.kind === 'file' ? spec.source : null,
        region,
        baseUrl: region === 'local' ? null : baseUrl,
        options,
      });
      this.db
        .prepare(
          `INSERT INTO jobs (id, recording_id, transcript_id, source_kind, source, name, status, region, base_url, bytes_total, options, created_at, updated_at)
           VALUES (?, ?, ?, ?, ?, ?, 'queued', ?, ?, ?, ?, ?, ?)`,
        )
        .run(id, recordingId, transcriptId, spec.kind, spec.source, spec.name, region, baseUrl, spec.size, JSON.stringify(options), now, now);
    })();
    const job = this.get(id);
    this.events.changed(id, job);
    this.library.changed([job.recordingId], 'added');
    this.start(id);
    return job;
  }

  get(id: string): Job {
    const row = this.row(id);
    if (!row) throw new AppError('not_found', 'This job no longer exists.');
    return toJob(row);
  }

  private row(id: string): JobRow | undefined {
    return this.db.prepare(`${JOB_SELECT} WHERE j.id = ?`).get(id) as JobRow | undefined;
  }

  list(includeFinished = true, limit = 200): Job[] {
    const rows = this.db
      .prepare(`${JOB_SELECT} ${includeFinished ? '' : `WHERE j.status NOT IN ('completed','error','canceled')`} ORDER BY j.created_at DESC, j.rowid DESC LIMIT ?`)
      .all(limit) as JobRow[];
    return rows.map(toJob);
  }

  /** Write a transition (and mirror it on the library item) before acting on it. */
  private transition(id: string, status: JobStatus, extra: { remoteId?: string; uploadUrl?: string | null; error?: JobError | null; bytes?: number; attempt?: boolean } = {}): Job {
    const row = this.row(id);
    if (!row) throw new AppError('not_found', 'This job no longer exists.');
    const now = new Date().toISOString();
    this.db.transaction(() => {
      this.db
        .prepare(
          `UPDATE jobs SET status = @status, updated_at = @now,
             remote_id = coalesce(@remoteId, remote_id),
             upload_url = CASE WHEN @setUpload THEN @uploadUrl ELSE upload_url END,
             bytes_sent = coalesce(@bytes, bytes_sent),
             attempts = attempts + @attempt,
             error_code = CASE WHEN @setError THEN @code ELSE error_code END,
             error_message = CASE WHEN @setError THEN @message ELSE error_message END,
             error_retryable = CASE WHEN @setError THEN @retryable ELSE error_retryable END,
             completed_at = CASE WHEN @status IN ('completed','error','canceled') THEN @now ELSE NULL END
           WHERE id = @id`,
        )
        .run({
          id,
          status,
          now,
          remoteId: extra.remoteId ?? null,
          setUpload: extra.uploadUrl !== undefined ? 1 : 0,
          uploadUrl: extra.uploadUrl ?? null,
          bytes: extra.bytes ?? null,
          attempt: extra.attempt ? 1 : 0,
          setError: extra.error !== undefined ? 1 : 0,
          code: extra.error?.code ?? null,
          message: extra.error?.message ?? null,
          retryable: extra.error ? (extra.error.retryable ? 1 : 0) : null,
        });
      if (status !== 'completed') this.library.setStatus(row.transcript_id, status, { remoteId: extra.remoteId, error: extra.error });
    })();
    const job = this.get(id);
    this.events.changed(id, job);
    this.library.changed([job.recordingId], 'updated');
    return job;
  }

  private start(id: string): void {
    if (this.disposed || this.running.has(id)) return;
    const ac = new AbortController();
    const entry = { ac, reason: null as 'cancel' | 'dispose' | null, done: Promise.resolve() };
    this.running.set(id, entry);
    entry.done = this.run(id, ac.signal)
      .catch((e: unknown) => {
        if (entry.reason !== null) return;
        const err = e instanceof AppError ? e : new AppError('internal', `Something went wrong inside Verbatim: ${e instanceof Error ? e.message : String(e)}`);
        this.opts.log?.(`job ${id} failed: ${err.code} ${err.message}`);
        if (this.row(id)) this.transition(id, 'error', { error: { code: err.code, message: err.message, retryable: isRetryable(err.code) } });
      })
      .finally(() => this.running.delete(id));
  }

  private async clientFor(row: JobRow, signal: AbortSignal): Promise<RestClient> {
    if (row.region === 'local') {
      const h = await this.engine.awaitRunning(signal);
      return new RestClient(h.url, h.key);
    }
    const key = this.keys.get();
    if (!key && row.region !== 'custom') throw new AppError('invalid_key', 'There is no API key for the cloud service. Add one in Settings → Transcription service, then retry.');
    return new RestClient(row.base_url, key ?? '');
  }

  /** Retries that re-resolve the client each time (the local engine may restart on another port). */
  private async call<T>(row: JobRow, signal: AbortSignal, fn: (c: RestClient) => Promise<T>): Promise<T> {
    return withRetries(async () => fn(await this.clientFor(row, signal)), signal, {
      ...this.retryPolicy,
      onRetry: (err, attempt, delay) => this.opts.log?.(`job ${row.id}: ${err.code}, retry ${attempt} in ${Math.round(delay)} ms`),
    });
  }

  private async run(id: string, signal: AbortSignal): Promise<void> {
    let row = this.row(id);
    if (!row || FINAL.has(row.status)) return;
    if (row.region === 'local') await this.engine.ensure();

    if (row.remote_id === null) {
      let audioUrl: string;
      const createdBefore = row.upload_url !== null || row.attempts > 0;
      if (row.source_kind === 'url') {
        audioUrl = row.source;
        // Written before the create: a restart knows a transcript may exist since this moment.
        this.transition(id, 'queued', { attempt: true });
      } else if (row.upload_url !== null) {
        audioUrl = row.upload_url;
      } else {
        const release = await this.uploads.acquire(signal);
        try {
          row = this.row(id)!;
          this.transition(id, 'uploading', { bytes: 0, attempt: true });
          audioUrl = await this.upload(row, signal);
        } finally {
          release();
        }
        this.transition(id, 'uploading', { uploadUrl: audioUrl, bytes: row.bytes_total ?? 0 });
      }
      row = this.row(id)!;
      if (row.region === 'local' && row.source_kind !== 'url') audioUrl = this.currentEngineOrigin(audioUrl);
      const remoteId = await this.createOnce(row, audioUrl, createdBefore, signal);
      this.transition(id, 'submitted', { remoteId });
      row = this.row(id)!;
    }
    await this.poll(row, signal);
  }

  /** An upload URL of the local engine, on the port the engine has now (it may have moved after a restart). */
  private currentEngineOrigin(uploadUrl: string): string {
    const h = this.engine.current();
    if (!h) return uploadUrl;
    try {
      const u = new URL(uploadUrl);
      const now = new URL(h.url);
      if (u.hostname !== '127.0.0.1' || u.host === now.host) return uploadUrl;
      u.host = now.host;
      return u.toString();
    } catch {
      return uploadUrl;
    }
  }

  private async upload(row: JobRow, signal: AbortSignal): Promise<string> {
    let lastEmit = 0;
    let lastWrite = Date.now();
    let rate = 0;
    let rateAt = Date.now();
    let rateBytes = 0;
    const startedAt = Date.now();
    return this.call(row, signal, (c) =>
      c.upload(row.source, {
        signal,
        onProgress: ({ bytes, total }) => {
          const now = Date.now();
          if (now - rateAt >= 250) {
            const inst = ((bytes - rateBytes) * 1000) / (now - rateAt);
            rate = rate === 0 ? inst : rate * 0.7 + inst * 0.3;
            rateAt = now;
            rateBytes = bytes;
          }
          if (now - lastEmit >= 100 || bytes === total) {
            lastEmit = now;
            const bps = rate || (bytes * 1000) / Math.max(1, now - startedAt);
            this.events.progress({ id: row.id, bytes, total, bytesPerSecond: Math.round(bps), etaSeconds: bps > 0 ? Math.max(0, (total - bytes) / bps) : null });
          }
          if (now - lastWrite >= 2000) {
            lastWrite = now;
            this.db.prepare(`UPDATE jobs SET bytes_sent = ? WHERE id = ?`).run(bytes, row.id);
          }
        },
      }),
    );
  }

  /**
   * Create the transcript exactly once for this audio URL. An upload URL is
   * unique to this job; a public URL may have been submitted by other jobs, so
   * only a transcript created since this job's last attempt counts.
   */
  private async createOnce(row: JobRow, audioUrl: string, maybeCreated: boolean, signal: AbortSignal): Promise<string> {
    const since = row.source_kind === 'url' ? Date.parse(row.updated_at) - 5000 : undefined;
    const find = () => this.call(row, signal, (c) => c.findByAudioUrl(audioUrl, signal, since));
    if (maybeCreated) {
      const found = await find();
      if (found) return found;
    }
    const params = await this.createParams(row, audioUrl);
    for (let attempt = 1; ; attempt++) {
      try {
        const client = await this.clientFor(row, signal);
        const t = await client.create(params, signal);
        return t.id;
      } catch (e) {
        const err = e instanceof AppError ? e : new AppError('network', String(e));
        if (!RETRYABLE.has(err.code) || attempt >= this.retryPolicy.attempts || signal.aborted) throw err;
        const delay = backoffMs(err, attempt, this.retryPolicy);
        this.opts.log?.(`job ${row.id}: create answered ${err.code}, retry ${attempt} in ${Math.round(delay)} ms`);
        await sleep(delay, signal);
        // A 429 means "not created"; after a 5xx or a dropped connection it may have been.
        if (err.code !== 'rate_limited') {
          const found = await find().catch(() => null);
          if (found) return found;
        }
      }
    }
  }

  private async createParams(row: JobRow, audioUrl: string): Promise<Record<string, unknown>> {
    const o = JSON.parse(row.options) as TranscriptionOptions;
    const p: Record<string, unknown> = { audio_url: audioUrl };
    const map: [keyof TranscriptionOptions, string][] = [
      ['speechModels', 'speech_models'],
      ['languageCode', 'language_code'],
      ['punctuate', 'punctuate'],
      ['formatText', 'format_text'],
      ['disfluencies', 'disfluencies'],
      ['filterProfanity', 'filter_profanity'],
      ['keytermsPrompt', 'keyterms_prompt'],
      ['speakerLabels', 'speaker_labels'],
      ['speakersExpected', 'speakers_expected'],
      ['redactPii', 'redact_pii'],
      ['redactPiiPolicies', 'redact_pii_policies'],
      ['redactPiiSub', 'redact_pii_sub'],
      ['redactPiiAudio', 'redact_pii_audio'],
      ['redactPiiAudioQuality', 'redact_pii_audio_quality'],
      ['audioStartFrom', 'audio_start_from'],
      ['audioEndAt', 'audio_end_at'],
    ];
    for (const [k, wire] of map) {
      const v = o[k];
      if (v === undefined || v === null) continue;
      if (Array.isArray(v) && v.length === 0) continue;
      if ((k === 'speakerLabels' || k === 'redactPii' || k === 'redactPiiAudio' || k === 'disfluencies' || k === 'filterProfanity') && v === false) continue;
      p[wire] = v;
    }
    if (!o.redactPii) {
      delete p.redact_pii_policies;
      delete p.redact_pii_sub;
      delete p.redact_pii_audio;
      delete p.redact_pii_audio_quality;
    }
    if (row.region === 'local') {
      // The local engine runs its one recognizer whatever is asked, but refuses names it does not know (slam-1…).
      const known = o.speechModels?.filter((m) => (SPEECH_MODELS as readonly string[]).includes(m)) ?? [];
      if (known.length) p.speech_models = known;
      else delete p.speech_models;
    }
    if (row.region === 'local' && this.webhooks) {
      await this.webhooks.start();
      Object.assign(p, this.webhooks.params(row.id));
    } else {
      const s = this.settings.get();
      if (s.webhookUrl) {
        this.library.setWebhook(row.transcript_id, s.webhookUrl);
        p.webhook_url = s.webhookUrl;
        if (s.webhookAuthHeaderName) {
          p.webhook_auth_header_name = s.webhookAuthHeaderName;
          p.webhook_auth_header_value = this.settings.webhookAuthHeaderValue();
        }
      }
    }
    return p;
  }

  private async poll(row: JobRow, signal: AbortSignal): Promise<void> {
    const remoteId = row.remote_id!;
    let delay = this.opts.pollStartMs ?? 500;
    const cap = this.opts.pollCapMs ?? 5000;
    const hook = row.region === 'local' && this.webhooks ? this.webhooks : null;
    for (;;) {
      // Subscribe before reading, so a delivery between the GET and the wait is not missed.
      const waiter = hook?.wait(remoteId, signal);
      const t = await this.call(row, signal, (c) => c.get(remoteId, signal));
      if (t.status === 'completed') {
        waiter?.cancel();
        await this.finish(row, t, signal);
        return;
      }
      if (t.status === 'error') {
        waiter?.cancel();
        const err = classifyTranscriptError(t.error ?? 'The service could not transcribe this file.');
        this.transition(row.id, 'error', { error: err });
        return;
      }
      const cur = this.row(row.id)!;
      if (t.status === 'processing' && cur.status !== 'processing') this.transition(row.id, 'processing');
      const jitter = delay * (0.8 + Math.random() * 0.4);
      await Promise.race([sleep(jitter, signal), waiter?.promise ?? new Promise(() => undefined)]);
      waiter?.cancel();
      delay = Math.min(cap, delay * 2);
    }
  }

  private async finish(row: JobRow, t: WireTranscript, signal: AbortSignal): Promise<void> {
    const words: Word[] = (t.words ?? []).map((w) => ({
      text: w.text,
      start: w.start,
      end: w.end,
      confidence: w.confidence,
      speaker: w.speaker ?? null,
    }));
    // Service views are best effort: the library builds its own spans when they fail.
    const [sv, pv] = await Promise.all([
      this.call(row, signal, (c) => c.sentences(t.id, signal)).catch(() => null),
      this.call(row, signal, (c) => c.paragraphs(t.id, signal)).catch(() => null),
    ]);
    const sentences = t.utterances?.length ? spansFromView(words, t.utterances) : sv?.sentences ? spansFromView(words, sv.sentences) : null;
    const paragraphs = pv?.paragraphs ? spansFromView(words, pv.paragraphs) : null;
    this.library.complete(row.transcript_id, {
      remoteId: t.id,
      text: t.text ?? '',
      words,
      sentences,
      paragraphs,
      confidence: t.confidence ?? null,
      language: t.language_code ?? null,
      model: t.speech_model_used ?? null,
      durationMs: typeof t.audio_duration === 'number' ? Math.round(t.audio_duration * 1000) : null,
    });
    await this.keepAudio(row).catch((e: unknown) => this.opts.log?.(`job ${row.id}: could not keep the audio copy: ${String(e)}`));
    if (t.redact_pii_audio) await this.fetchRedacted(row, t.id, signal).catch((e: unknown) => this.opts.log?.(`job ${row.id}: redacted audio: ${String(e)}`));
    this.transition(row.id, 'completed', { error: null });
  }

  private async keepAudio(row: JobRow): Promise<void> {
    // A live session's recording is already the library's copy.
    if (row.source_kind === 'url' || row.source_kind === 'live') return;
    if (row.source_kind === 'upload') {
      if (this.settings.get().keepAudioCopy) {
        const name = `${row.recording_id}${extname(row.name).slice(0, 10) || '.audio'}`;
        await rename(row.source, join(this.library.audioDir, name));
        this.library.setAudioFile(row.recording_id, name);
      } else {
        await rm(row.source, { force: true });
      }
      return;
    }
    if (this.settings.get().keepAudioCopy) this.library.storeAudio(row.recording_id, row.source);
  }

  private async fetchRedacted(row: JobRow, remoteId: string, signal: AbortSignal): Promise<void> {
    for (let i = 0; i < 30; i++) {
      try {
        const r = await this.call(row, signal, (c) => c.redactedAudio(remoteId));
        const quality = (JSON.parse(row.options) as TranscriptionOptions).redactPiiAudioQuality ?? 'mp3';
        const ext = `.${quality}`;
        const name = `${row.recording_id}.redacted${ext}`;
        await this.call(row, signal, (c) => c.download(r.redacted_audio_url, join(this.library.audioDir, name), signal));
        this.library.setAudioFile(row.recording_id, name, 'redacted');
        return;
      } catch (e) {
        if (!(e instanceof AppError) || e.code !== 'bad_request') throw e;
        await sleep(1000, signal);
      }
    }
  }

  async cancel(id: string): Promise<Job> {
    const row = this.row(id);
    if (!row) throw new AppError('not_found', 'This job no longer exists.');
    if (FINAL.has(row.status)) throw new AppError('conflict', `This job is already ${row.status}.`);
    this.transition(id, 'canceled', { error: null });
    const r = this.running.get(id);
    if (r) {
      r.reason = 'cancel';
      r.ac.abort();
      await r.done;
    }
    if (row.source_kind === 'upload') await rm(row.source, { force: true });
    const fresh = this.row(id)!;
    if (fresh.remote_id) {
      // Leave nothing behind on the service either.
      await this.clientFor(fresh, AbortSignal.timeout(10_000))
        .then((c) => c.delete(fresh.remote_id!))
        .catch((e: unknown) => this.opts.log?.(`job ${id}: remote delete after cancel failed: ${String(e)}`));
    }
    return this.get(id);
  }

  retry(id: string): Job {
    const row = this.row(id);
    if (!row) throw new AppError('not_found', 'This job no longer exists.');
    if (row.status !== 'error' && row.status !== 'canceled') throw new AppError('conflict', `Only failed or canceled jobs can be retried (this one is ${row.status}).`);
    const uploadGone = row.source_kind === 'upload' && row.upload_url === null;
    if (uploadGone) throw new AppError('file_unreadable', 'The uploaded copy of this file is gone. Drop the file again.');
    // Resubmit: a failed transcript gets a new remote id; a canceled upload starts over.
    this.db
      .prepare(`UPDATE jobs SET remote_id = NULL, upload_url = CASE WHEN status = 'canceled' THEN NULL ELSE upload_url END, bytes_sent = 0 WHERE id = ?`)
      .run(id);
    const job = this.transition(id, 'queued', { error: null });
    this.start(id);
    return job;
  }

  async remove(id: string): Promise<void> {
    const row = this.row(id);
    if (!row) return;
    if (!FINAL.has(row.status)) await this.cancel(id);
    this.db.prepare(`DELETE FROM jobs WHERE id = ?`).run(id);
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

  /** Wait for a job to reach a final state (tests, the CLI). */
  async waitFinal(id: string, timeoutMs = 60_000): Promise<Job> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const j = this.get(id);
      if (FINAL.has(j.status)) return j;
      if (Date.now() > deadline) throw new Error(`job ${id} still ${j.status} after ${timeoutMs} ms`);
      await sleep(25);
    }
  }
}

function isRetryable(code: ErrorCode): boolean {
  return RETRYABLE.has(code) || code === 'server_error' || code === 'engine_unavailable' || code === 'internal';
}

/** A transcript's `error` text to a typed error (API.md §4). */
export function classifyTranscriptError(message: string): JobError {
  const m = message.toLowerCase();
  if (m.includes('too short')) return { code: 'audio_too_short', message: `The recording is too short to transcribe (under 160 ms). ${message}`, retryable: false };
  if (m.includes('download error')) return { code: 'file_unreadable', message: `The service could not download the audio. ${message}`, retryable: true };
  if (/unsupported|corrupt|does not appear to contain audio|no audio|not an audio|html/.test(m))
    return { code: 'unsupported_media', message: `This file is not audio or video the service can read. ${message}`, retryable: false };
  if (/submit(ted)? again|try again|internal/.test(m)) return { code: 'server_error_retryable', message, retryable: true };
  return { code: 'server_error', message, retryable: true };
}

function toJob(r: JobRow): Job {
  return {
    id: r.id,
    recordingId: r.recording_id,
    name: r.name,
    source: r.source_kind,
    status: r.status,
    region: r.region,
    remoteId: r.remote_id,
    bytesSent: r.bytes_sent,
    bytesTotal: r.bytes_total,
    durationMs: r.duration_ms ?? null,
    error: r.error_code ? { code: r.error_code as ErrorCode, message: r.error_message ?? '', retryable: r.error_retryable === 1 } : null,
    attempts: r.attempts,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    completedAt: r.completed_at,
    resumedAt: r.resumed_at ?? null,
  };
}

function stripExt(name: string): string {
  const e = extname(name);
  return e && e.length < name.length ? name.slice(0, -e.length) : name;
}

