/**
 * The job store: durable transcription jobs as rows (DESIGN.md §5). Every
 * write of the job state machine (services/jobs/) lands here, mirrored on the
 * job's transcript in the same transaction, so the library list and the queue
 * never disagree and a restart reads back exactly where a job stood.
 */
import { randomUUID } from 'node:crypto';
import { AppError, type ErrorCode } from '../../../shared/errors';
import { FINAL_JOB_STATUSES, type Job, type JobError, type JobStatus, type ServiceRegion } from '../../../shared/jobs';
import { type Database, type LibraryContext } from './db';
import { insertRecording, type NewRecording } from './recordings';
import { setTranscriptStatus } from './transcripts';

/** `live`: a live session's own recording transcribed again (Improve accuracy), a new transcript of the same item. */
export type JobSourceKind = 'file' | 'url' | 'upload' | 'live';

export interface JobRow {
  id: string;
  recording_id: string;
  transcript_id: string;
  source_kind: JobSourceKind;
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

export interface NewJob {
  kind: JobSourceKind;
  source: string;
  name: string;
  size: number | null;
  region: ServiceRegion;
  /** 'local' for the local engine (its address changes per launch), else the REST address. */
  baseUrl: string;
  options: Record<string, unknown>;
  recording: NewRecording;
}

/** What a transition writes beside the status. */
export interface TransitionExtra {
  remoteId?: string;
  uploadUrl?: string | null;
  error?: JobError | null;
  bytes?: number;
  /** Count one more attempt at the service (a create may exist since). */
  attempt?: boolean;
}

/** A job with its recording's length (the only column read from recordings). */
const JOB_SELECT = `SELECT j.*, r.duration_ms FROM jobs j LEFT JOIN recordings r ON r.id = j.recording_id`;
const UNFINISHED = `status NOT IN (${FINAL_JOB_STATUSES.map((s) => `'${s}'`).join(',')})`;

export class JobStore {
  constructor(
    private readonly db: Database,
    private readonly ctx: LibraryContext,
  ) {}

  /** A new queued job with its recording and transcript, in one transaction. */
  create(spec: NewJob): Job {
    const id = randomUUID();
    const now = new Date().toISOString();
    let recordingId = '';
    this.db
      .transaction(() => {
        const ids = insertRecording(this.db, spec.recording);
        recordingId = ids.recordingId;
        this.db
          .prepare(
            `INSERT INTO jobs (id, recording_id, transcript_id, source_kind, source, name, status, region, base_url, bytes_total, options, created_at, updated_at)
           VALUES (?, ?, ?, ?, ?, ?, 'queued', ?, ?, ?, ?, ?, ?)`,
          )
          .run(
            id,
            ids.recordingId,
            ids.transcriptId,
            spec.kind,
            spec.source,
            spec.name,
            spec.region,
            spec.baseUrl,
            spec.size,
            JSON.stringify(spec.options),
            now,
            now,
          );
      })
      .immediate();
    this.ctx.changed([recordingId], 'added');
    return this.get(id);
  }

  /** A queued job for a transcript that already exists (a new version of a live session); call inside the caller's transaction. */
  createForTranscript(recordingId: string, transcriptId: string, spec: Omit<NewJob, 'recording'>): Job {
    const id = randomUUID();
    const now = new Date().toISOString();
    this.db
      .prepare(
        `INSERT INTO jobs (id, recording_id, transcript_id, source_kind, source, name, status, region, base_url, bytes_total, options, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, 'queued', ?, ?, ?, ?, ?, ?)`,
      )
      .run(id, recordingId, transcriptId, spec.kind, spec.source, spec.name, spec.region, spec.baseUrl, spec.size, JSON.stringify(spec.options), now, now);
    return this.get(id);
  }

  row(id: string): JobRow | undefined {
    return this.db.prepare(`${JOB_SELECT} WHERE j.id = ?`).get(id) as JobRow | undefined;
  }

  /** The row, or not_found. */
  must(id: string): JobRow {
    const row = this.row(id);
    if (!row) throw new AppError('not_found', 'This job no longer exists.');
    return row;
  }

  get(id: string): Job {
    return toJob(this.must(id));
  }

  list(includeFinished = true, limit = 200): Job[] {
    const rows = this.db
      .prepare(`${JOB_SELECT} ${includeFinished ? '' : `WHERE j.${UNFINISHED}`} ORDER BY j.created_at DESC, j.rowid DESC LIMIT ?`)
      .all(limit) as JobRow[];
    return rows.map(toJob);
  }

  /** Every unfinished job, oldest first, stamped as resumed now (the queue shows "Resumed"). */
  resumeUnfinished(): JobRow[] {
    this.db.prepare(`UPDATE jobs SET resumed_at = ? WHERE ${UNFINISHED}`).run(new Date().toISOString());
    return this.db.prepare(`${JOB_SELECT} WHERE j.${UNFINISHED} ORDER BY j.created_at`).all() as JobRow[];
  }

  /** Staged upload files some job still names. */
  uploadSources(): Set<string> {
    return new Set((this.db.prepare(`SELECT source FROM jobs WHERE source_kind = 'upload'`).all() as { source: string }[]).map((r) => r.source));
  }

  /** Write a transition (and mirror it on the transcript) before acting on it. Fires a library change. */
  transition(id: string, status: JobStatus, extra: TransitionExtra = {}): Job {
    const row = this.must(id);
    const now = new Date().toISOString();
    this.db
      .transaction(() => {
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
             completed_at = CASE WHEN ${FINAL_JOB_STATUSES.map((s) => `@status = '${s}'`).join(' OR ')} THEN @now ELSE NULL END
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
        // A completed transcript is written whole by TranscriptStore.complete first.
        if (status !== 'completed') setTranscriptStatus(this.db, row.transcript_id, status, { remoteId: extra.remoteId, error: extra.error });
      })
      .immediate();
    this.ctx.changed([row.recording_id], 'updated');
    return this.get(id);
  }

  /** Upload progress, written every few seconds (not a transition). */
  saveBytes(id: string, bytes: number): void {
    this.db.prepare(`UPDATE jobs SET bytes_sent = ? WHERE id = ?`).run(bytes, id);
  }

  /** Before a retry: a failed transcript gets a new remote id; a canceled upload starts over. */
  resetForRetry(id: string): void {
    this.db
      .prepare(`UPDATE jobs SET remote_id = NULL, upload_url = CASE WHEN status = 'canceled' THEN NULL ELSE upload_url END, bytes_sent = 0 WHERE id = ?`)
      .run(id);
  }

  delete(id: string): void {
    this.db.prepare(`DELETE FROM jobs WHERE id = ?`).run(id);
  }
}

export function toJob(r: JobRow): Job {
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
