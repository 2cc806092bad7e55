/**
 * The engine's SQLite store (better-sqlite3, WAL): transcripts, which double
 * as the durable job queue (status queued/processing), uploads, and pending
 * webhook deliveries. Files live under `<dataDir>/uploads` and `<dataDir>/audio`.
 * Everything here is private to the user running the engine (uploads,
 * transcripts, webhook auth values): folders 0700, files 0600.
 */
import Database from 'better-sqlite3';
import { chmodSync, closeSync, existsSync, mkdirSync, openSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { PiiPolicy, RedactPiiAudioOptions, Sentence, SpeakerOptions, Transcript, TranscriptStatus, Utterance, Word } from '../shared/api/transcript';

/** A create request as stored: the validated request with its defaults, without the webhook secret. */
export type TranscriptParams = Pick<Transcript, 'audio_url' | 'audio_start_from' | 'audio_end_at' | 'webhook_url' | 'webhook_auth_header_name'> & {
  /** Null when the request named the older single `speech_model`. */
  speech_models: string[] | null;
  /** The older single-model field, when the request used it (rows stored before it existed lack it). */
  speech_model?: string | null;
  language_code: string;
  keyterms_prompt: string[] | null;
  punctuate: boolean;
  format_text: boolean;
  disfluencies: boolean;
  filter_profanity: boolean;
  redact_pii: boolean;
  redact_pii_policies: PiiPolicy[] | null;
  redact_pii_sub: 'hash' | 'entity_name' | null;
  redact_pii_audio: boolean;
  redact_pii_audio_quality: 'mp3' | 'wav' | null;
  /** Rows stored before it existed lack it. */
  redact_pii_audio_options?: RedactPiiAudioOptions | null;
  speech_understanding: Record<string, unknown> | null;
  /** Speaker diarization (rows stored before it existed lack these). */
  speaker_labels?: boolean;
  speakers_expected?: number | null;
  speaker_options?: SpeakerOptions | null;
};

/** What a finished job stores; the wire transcript (routes/wire.ts) is built from it. */
export type TranscriptResult = Pick<Transcript, 'confidence' | 'audio_duration' | 'translated_texts'> & {
  text: string;
  words: Word[];
  sentences: Sentence[];
  speech_model_used: string;
  warnings: string[];
  /** With speaker_labels: turns of one speaker (words carry `speaker` too). */
  utterances?: Utterance[];
  /** Inline speech understanding (API.md §9), when the request asked for it. */
  speech_understanding?: { request: Record<string, unknown>; response: Record<string, unknown> };
};

export type { TranscriptStatus } from '../shared/api/transcript';

export interface TranscriptRow {
  seq: number;
  id: string;
  status: TranscriptStatus;
  created: string;
  completed: string | null;
  params: TranscriptParams;
  result: TranscriptResult | null;
  error: string | null;
  webhookStatusCode: number | null;
  /** Secret; never sent to clients. */
  webhookAuthValue: string | null;
  deleted: boolean;
  redactedAudioPath: string | null;
  attempts: number;
}

export interface WebhookRow {
  id: number;
  transcriptId: string;
  url: string;
  body: string;
  attempts: number;
  nextAt: number;
}

interface RawTranscript {
  seq: number;
  id: string;
  status: TranscriptStatus;
  created: string;
  completed: string | null;
  params: string;
  result: string | null;
  error: string | null;
  webhook_status_code: number | null;
  webhook_auth_value: string | null;
  deleted: number;
  redacted_audio_path: string | null;
  attempts: number;
}

/** `2026-03-02T10:14:05.118274` (UTC, no zone), as the service writes it. */
export function serviceTime(d = new Date()): string {
  return `${d.toISOString().slice(0, 23)}000`;
}

/** The WHERE clauses of GET /v2/transcript's status and created_on filters. */
function listFilters(q: Pick<ListQuery, 'status' | 'createdOn'>): { where: string[]; args: (string | number)[] } {
  const where: string[] = [];
  const args: (string | number)[] = [];
  if (q.status) {
    where.push('status = ?');
    args.push(q.status);
  }
  if (q.createdOn) {
    where.push('substr(created, 1, 10) = ?');
    args.push(q.createdOn);
  }
  return { where, args };
}

function toRow(r: RawTranscript): TranscriptRow {
  return {
    seq: r.seq,
    id: r.id,
    status: r.status,
    created: r.created,
    completed: r.completed,
    params: JSON.parse(r.params) as TranscriptParams,
    result: r.result ? (JSON.parse(r.result) as TranscriptResult) : null,
    error: r.error,
    webhookStatusCode: r.webhook_status_code,
    webhookAuthValue: r.webhook_auth_value,
    deleted: r.deleted === 1,
    redactedAudioPath: r.redacted_audio_path,
    attempts: r.attempts,
  };
}

export interface ListQuery {
  limit: number;
  status?: TranscriptStatus;
  createdOn?: string;
  beforeSeq?: number;
  afterSeq?: number;
}

export class Store {
  readonly db: Database.Database;
  readonly uploadsDir: string;
  readonly audioDir: string;

  constructor(readonly dataDir: string) {
    this.uploadsDir = join(dataDir, 'uploads');
    this.audioDir = join(dataDir, 'audio');
    // chmod as well as mode: folders made by an older engine (or under a lax umask) are tightened too.
    for (const dir of [dataDir, this.uploadsDir, this.audioDir]) {
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      chmodSync(dir, 0o700);
    }
    const dbPath = join(dataDir, 'engine.db');
    // SQLite gives the -wal and -shm files the database file's mode, so the file is made 0600 before it opens.
    closeSync(openSync(dbPath, 'a', 0o600));
    for (const f of [dbPath, `${dbPath}-wal`, `${dbPath}-shm`]) if (existsSync(f)) chmodSync(f, 0o600);
    this.db = new Database(dbPath);
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = NORMAL');
    this.db.pragma('busy_timeout = 5000');
    this.db.exec(`
      CREATE TABLE IF NOT EXISTS transcripts (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        id TEXT NOT NULL UNIQUE,
        status TEXT NOT NULL,
        created TEXT NOT NULL,
        completed TEXT,
        params TEXT NOT NULL,
        result TEXT,
        error TEXT,
        webhook_status_code INTEGER,
        webhook_auth_value TEXT,
        deleted INTEGER NOT NULL DEFAULT 0,
        redacted_audio_path TEXT,
        attempts INTEGER NOT NULL DEFAULT 0
      );
      CREATE INDEX IF NOT EXISTS transcripts_status ON transcripts(status, seq);
      CREATE TABLE IF NOT EXISTS uploads (
        id TEXT PRIMARY KEY,
        path TEXT NOT NULL,
        size INTEGER NOT NULL,
        created TEXT NOT NULL
      );
      CREATE TABLE IF NOT EXISTS webhooks (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        transcript_id TEXT NOT NULL,
        url TEXT NOT NULL,
        body TEXT NOT NULL,
        attempts INTEGER NOT NULL DEFAULT 0,
        next_at INTEGER NOT NULL
      );
    `);
  }

  close(): void {
    if (this.db.open) this.db.close();
  }

  // ---- transcripts -------------------------------------------------------

  insertTranscript(id: string, params: TranscriptParams, webhookAuthValue: string | null): TranscriptRow {
    this.db
      .prepare('INSERT INTO transcripts (id, status, created, params, webhook_auth_value) VALUES (?, ?, ?, ?, ?)')
      .run(id, 'queued', serviceTime(), JSON.stringify(params), webhookAuthValue);
    return this.getTranscript(id) as TranscriptRow;
  }

  getTranscript(id: string): TranscriptRow | null {
    const r = this.db.prepare('SELECT * FROM transcripts WHERE id = ?').get(id) as RawTranscript | undefined;
    return r ? toRow(r) : null;
  }

  /** What the LLM gateway needs: a completed transcript's text, words and sentences, or null. */
  getCompletedTranscript(id: string): { id: string; text: string; words: TranscriptResult['words']; sentences: TranscriptResult['sentences'] } | null {
    const t = this.getTranscript(id);
    if (!t || t.deleted || t.status !== 'completed' || !t.result) return null;
    return { id: t.id, text: t.result.text, words: t.result.words, sentences: t.result.sentences };
  }

  /**
   * Moves jobs a killed engine left in `processing` back to the queue; a job
   * that was already interrupted `maxAttempts` times fails instead (it may be
   * what brings the engine down).
   */
  requeueInterrupted(maxAttempts = 3): number {
    this.db
      .prepare("UPDATE transcripts SET status = 'error', completed = ?, error = ? WHERE status = 'processing' AND attempts >= ?")
      .run(
        serviceTime(),
        `The local engine stopped ${maxAttempts} times while transcribing this file. This is a fault of the engine, not necessarily of the file: it may be submitted again.`,
        maxAttempts,
      );
    return this.db.prepare("UPDATE transcripts SET status = 'queued' WHERE status = 'processing'").run().changes;
  }

  /** Atomically takes the oldest queued job. */
  claimNextJob(): TranscriptRow | null {
    const r = this.db
      .prepare(
        "UPDATE transcripts SET status = 'processing', attempts = attempts + 1 WHERE seq = (SELECT seq FROM transcripts WHERE status = 'queued' AND deleted = 0 ORDER BY seq LIMIT 1) RETURNING *",
      )
      .get() as RawTranscript | undefined;
    return r ? toRow(r) : null;
  }

  /** Puts a job back (used when draining cannot wait for it). */
  requeue(id: string): void {
    this.db.prepare("UPDATE transcripts SET status = 'queued' WHERE id = ? AND status = 'processing'").run(id);
  }

  complete(id: string, result: TranscriptResult, redactedAudioPath: string | null): boolean {
    return (
      this.db
        .prepare("UPDATE transcripts SET status = 'completed', completed = ?, result = ?, error = NULL, redacted_audio_path = ? WHERE id = ? AND deleted = 0")
        .run(serviceTime(), JSON.stringify(result), redactedAudioPath, id).changes > 0
    );
  }

  fail(id: string, error: string, partial: TranscriptResult | null = null): boolean {
    return (
      this.db
        .prepare("UPDATE transcripts SET status = 'error', completed = ?, error = ?, result = ? WHERE id = ? AND deleted = 0")
        .run(serviceTime(), error, partial ? JSON.stringify(partial) : null, id).changes > 0
    );
  }

  setWebhookStatus(id: string, code: number | null): void {
    this.db.prepare('UPDATE transcripts SET webhook_status_code = ? WHERE id = ?').run(code, id);
  }

  /** Scrubs a transcript as the service does; returns the files to remove. */
  markDeleted(id: string): TranscriptRow | null {
    const t = this.getTranscript(id);
    if (!t) return null;
    const params: TranscriptParams = { ...t.params, audio_url: 'http://deleted_by_user', webhook_url: t.params.webhook_url ? 'http://deleted_by_user' : null };
    this.db
      .prepare(
        "UPDATE transcripts SET deleted = 1, params = ?, result = NULL, webhook_auth_value = NULL, redacted_audio_path = NULL, status = CASE WHEN status IN ('queued','processing') THEN 'error' ELSE status END, error = CASE WHEN status IN ('queued','processing') THEN 'Deleted by user.' ELSE error END WHERE id = ?",
      )
      .run(JSON.stringify(params), id);
    this.db.prepare('DELETE FROM webhooks WHERE transcript_id = ?').run(id);
    return this.getTranscript(id);
  }

  list(q: ListQuery): TranscriptRow[] {
    const { where, args } = listFilters(q);
    if (q.beforeSeq !== undefined) {
      where.push('seq < ?');
      args.push(q.beforeSeq);
    }
    if (q.afterSeq !== undefined) {
      where.push('seq > ?');
      args.push(q.afterSeq);
    }
    const w = where.length ? `WHERE ${where.join(' AND ')}` : '';
    // after_id pages towards newer items: take the nearest newer ones, then show newest first.
    const order = q.afterSeq !== undefined && q.beforeSeq === undefined ? 'ASC' : 'DESC';
    const rows = (this.db.prepare(`SELECT * FROM transcripts ${w} ORDER BY seq ${order} LIMIT ?`).all(...args, q.limit) as RawTranscript[]).map(toRow);
    return order === 'ASC' ? rows.reverse() : rows;
  }

  /** Whether any transcript matching the filters lies strictly before/after `seq`. */
  hasBeyond(seq: number, direction: 'older' | 'newer', q: Pick<ListQuery, 'status' | 'createdOn'>): boolean {
    const { where, args } = listFilters(q);
    where.push(direction === 'older' ? 'seq < ?' : 'seq > ?');
    args.push(seq);
    return this.db.prepare(`SELECT 1 FROM transcripts WHERE ${where.join(' AND ')} LIMIT 1`).get(...args) !== undefined;
  }

  countActive(): number {
    return (this.db.prepare("SELECT count(*) AS n FROM transcripts WHERE status IN ('queued','processing') AND deleted = 0").get() as { n: number }).n;
  }

  // ---- uploads -----------------------------------------------------------

  uploadPath(id: string): string {
    return join(this.uploadsDir, id);
  }

  insertUpload(id: string, size: number): void {
    this.db.prepare('INSERT INTO uploads (id, path, size, created) VALUES (?, ?, ?, ?)').run(id, this.uploadPath(id), size, serviceTime());
  }

  getUpload(id: string): { id: string; path: string; size: number } | null {
    return (this.db.prepare('SELECT id, path, size FROM uploads WHERE id = ?').get(id) as { id: string; path: string; size: number } | undefined) ?? null;
  }

  deleteUpload(id: string): void {
    const u = this.getUpload(id);
    if (u) rmSync(u.path, { force: true });
    this.db.prepare('DELETE FROM uploads WHERE id = ?').run(id);
  }

  /** Uploads created before `before` (service time) that no kept transcript names in its audio_url. */
  unreferencedUploads(before: string): string[] {
    return (
      this.db
        .prepare(
          "SELECT id FROM uploads u WHERE created < ? AND NOT EXISTS (SELECT 1 FROM transcripts t WHERE t.deleted = 0 AND instr(t.params, '/v2/files/' || u.id) > 0)",
        )
        .all(before) as { id: string }[]
    ).map((r) => r.id);
  }

  /** Whether an upload id is recorded (its file finished arriving). */
  hasUpload(id: string): boolean {
    return this.db.prepare('SELECT 1 FROM uploads WHERE id = ?').get(id) !== undefined;
  }

  /** Files derived from a transcript (decoded audio, redacted audio). */
  transcriptDir(id: string): string {
    return join(this.audioDir, id);
  }

  // ---- webhooks ----------------------------------------------------------

  enqueueWebhook(transcriptId: string, url: string, body: string, nextAt: number): number {
    return Number(
      this.db.prepare('INSERT INTO webhooks (transcript_id, url, body, next_at) VALUES (?, ?, ?, ?)').run(transcriptId, url, body, nextAt).lastInsertRowid,
    );
  }

  pendingWebhooks(): WebhookRow[] {
    return this.db.prepare('SELECT id, transcript_id AS transcriptId, url, body, attempts, next_at AS nextAt FROM webhooks ORDER BY id').all() as WebhookRow[];
  }

  updateWebhook(id: number, attempts: number, nextAt: number): void {
    this.db.prepare('UPDATE webhooks SET attempts = ?, next_at = ? WHERE id = ?').run(attempts, nextAt, id);
  }

  removeWebhook(id: number): void {
    this.db.prepare('DELETE FROM webhooks WHERE id = ?').run(id);
  }
}
