/** Recordings as library items: add one (with its queued transcript), list, read, rename, tag, delete. */
import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import { AppError } from '../../../shared/errors';
import type { JobError, ServiceRegion } from '../../../shared/jobs';
import { libraryListInputSchema, type LibraryItem, type TranscriptStatus } from '../../../shared/library';
import { AudioStore } from './audio';
import { LATEST_TRANSCRIPT_OF_R, touch, type Database, type LibraryContext } from './db';

export interface NewRecording {
  title: string;
  source: string;
  sourceKind: 'file' | 'url' | 'upload' | 'live' | 'import';
  sizeBytes: number | null;
  /** Length measured before transcription, when known. */
  durationMs?: number | null;
  /** The file on this computer it came from (desktop drops and picks): played when no copy is kept. */
  originalPath?: string | null;
  region: ServiceRegion;
  baseUrl: string | null;
  options: Record<string, unknown>;
}

type ListInput = z.input<typeof libraryListInputSchema>;

interface ItemRow {
  id: string;
  title: string;
  source: string;
  created_at: string;
  updated_at: string;
  duration_ms: number | null;
  audio_file: string | null;
  redacted_audio_file: string | null;
  original_path: string | null;
  t_id: string;
  status: string;
  error_code: string | null;
  error_message: string | null;
  error_retryable: number | null;
  completed_at: string | null;
  region: string;
  remote_id: string | null;
  language: string | null;
  model: string | null;
  word_count: number;
  preview: string | null;
  tags: string | null;
}

export const ITEM_SELECT = `
  SELECT r.id, r.title, r.source, r.created_at, r.updated_at, r.duration_ms, r.audio_file, r.redacted_audio_file, r.original_path,
         t.id AS t_id, t.status, t.error_code, t.error_message, t.error_retryable, t.completed_at, t.region, t.remote_id, t.language, t.model,
         t.word_count, substr(t.text, 1, 200) AS preview,
         (SELECT json_group_array(name) FROM (SELECT name FROM tags WHERE recording_id = r.id ORDER BY name)) AS tags
  FROM recordings r
  JOIN transcripts t ON t.id = ${LATEST_TRANSCRIPT_OF_R}`;

/** One library item by recording id; not_found when it is gone. */
export function readItem(db: Database, recordingId: string): LibraryItem {
  const row = db.prepare(`${ITEM_SELECT} WHERE r.id = ?`).get(recordingId) as ItemRow | undefined;
  if (!row) throw new AppError('not_found', 'This recording is no longer in the library.');
  return toItem(row);
}

/** A new recording with a queued transcript. Returns both ids. */
export function insertRecording(
  db: Database,
  rec: NewRecording,
  ids?: { recordingId?: string; transcriptId?: string; now?: string },
): { recordingId: string; transcriptId: string } {
  const recordingId = ids?.recordingId ?? randomUUID();
  const transcriptId = ids?.transcriptId ?? randomUUID();
  const now = ids?.now ?? new Date().toISOString();
  db.prepare(
    `INSERT INTO recordings (id, title, source, source_kind, size_bytes, duration_ms, original_path, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(recordingId, rec.title, rec.source, rec.sourceKind, rec.sizeBytes, rec.durationMs ?? null, rec.originalPath ?? null, now, now);
  db.prepare(`INSERT INTO transcripts (id, recording_id, region, base_url, status, options, created_at) VALUES (?, ?, ?, ?, 'queued', ?, ?)`).run(
    transcriptId,
    recordingId,
    rec.region,
    rec.baseUrl,
    JSON.stringify(rec.options),
    now,
  );
  return { recordingId, transcriptId };
}

export class RecordingStore {
  private readonly audio: AudioStore;

  constructor(
    private readonly db: Database,
    private readonly ctx: LibraryContext,
  ) {
    this.audio = new AudioStore(db, ctx);
  }

  /** A new recording with a queued transcript. Returns both ids. */
  add(rec: NewRecording, ids?: { recordingId?: string; transcriptId?: string; now?: string }): { recordingId: string; transcriptId: string } {
    return insertRecording(this.db, rec, ids);
  }

  setDuration(recordingId: string, durationMs: number): void {
    this.db.prepare(`UPDATE recordings SET duration_ms = ? WHERE id = ?`).run(durationMs, recordingId);
  }

  list(input: ListInput = {}): { items: LibraryItem[]; total: number } {
    const q = libraryListInputSchema.parse(input);
    const where: string[] = [];
    const params: Record<string, unknown> = {};
    if (q.status?.length) {
      where.push(`t.status IN (${q.status.map((_, i) => `@s${i}`).join(', ')})`);
      q.status.forEach((s, i) => (params[`s${i}`] = s));
    }
    if (q.tag !== undefined) {
      where.push(`EXISTS (SELECT 1 FROM tags g WHERE g.recording_id = r.id AND g.name = @tag)`);
      params.tag = q.tag;
    }
    if (q.from !== undefined) {
      where.push(`r.created_at >= @from`);
      params.from = q.from;
    }
    if (q.to !== undefined) {
      where.push(`r.created_at <= @to`);
      params.to = q.to.length === 10 ? `${q.to}T99` : q.to;
    }
    if (q.title !== undefined && q.title !== '') {
      where.push(`r.title LIKE @title ESCAPE '\\'`);
      params.title = `%${q.title.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    }
    const order = { created: 'r.created_at', updated: 'r.updated_at', title: 'r.title COLLATE NOCASE', duration: 'r.duration_ms' }[q.sort];
    const dir = q.order === 'asc' ? 'ASC' : 'DESC';
    const whereSql = where.length ? `WHERE ${where.join(' AND ')}` : '';
    // Page ids and the count from the narrow join only; the wide columns
    // (preview, tags) are read for the page's rows alone.
    const from = `FROM recordings r JOIN transcripts t ON t.id = ${LATEST_TRANSCRIPT_OF_R} ${whereSql}`;
    // Every recording has a transcript: without a status filter, ids and count need no join.
    const narrow = q.status?.length ? from : `FROM recordings r ${whereSql}`;
    const ids = (
      this.db
        .prepare(`SELECT r.id ${narrow} ORDER BY ${order} ${dir}, r.rowid ${dir} LIMIT @limit OFFSET @offset`)
        .all({ ...params, limit: q.limit, offset: q.offset }) as {
        id: string;
      }[]
    ).map((r) => r.id);
    const total = (this.db.prepare(`SELECT count(*) AS n ${narrow}`).get(params) as { n: number }).n;
    if (ids.length === 0) return { items: [], total };
    const byId = new Map((this.db.prepare(`${ITEM_SELECT} WHERE r.id IN (${ids.map(() => '?').join(',')})`).all(...ids) as ItemRow[]).map((r) => [r.id, r]));
    const rows = ids.flatMap((id) => {
      const r = byId.get(id);
      return r ? [r] : [];
    });
    return { items: rows.map(toItem), total };
  }

  item(recordingId: string): LibraryItem {
    return readItem(this.db, recordingId);
  }

  rename(recordingId: string, title: string): LibraryItem {
    const r = this.db.prepare(`UPDATE recordings SET title = ?, updated_at = ? WHERE id = ?`).run(title, new Date().toISOString(), recordingId);
    if (r.changes === 0) throw new AppError('not_found', 'This recording is no longer in the library.');
    this.ctx.changed([recordingId], 'updated');
    return readItem(this.db, recordingId);
  }

  setTags(recordingId: string, tags: string[]): LibraryItem {
    readItem(this.db, recordingId);
    const unique = [...new Set(tags.map((t) => t.trim()).filter(Boolean))];
    this.db
      .transaction(() => {
        this.db.prepare(`DELETE FROM tags WHERE recording_id = ?`).run(recordingId);
        const ins = this.db.prepare(`INSERT INTO tags (recording_id, name) VALUES (?, ?)`);
        for (const t of unique) ins.run(recordingId, t);
        touch(this.db, recordingId);
      })
      .immediate();
    this.ctx.changed([recordingId], 'updated');
    return readItem(this.db, recordingId);
  }

  tags(): { name: string; count: number }[] {
    return this.db.prepare(`SELECT name, count(*) AS count FROM tags GROUP BY name ORDER BY name COLLATE NOCASE`).all() as { name: string; count: number }[];
  }

  /** Delete recordings (their transcripts, words, tags follow by cascade) and their stored audio. */
  delete(recordingIds: string[]): number {
    let n = 0;
    const files: { id: string; original: string | null; redacted: string | null }[] = [];
    this.db
      .transaction(() => {
        for (const id of recordingIds) {
          const row = this.db.prepare(`SELECT audio_file, redacted_audio_file FROM recordings WHERE id = ?`).get(id) as
            { audio_file: string | null; redacted_audio_file: string | null } | undefined;
          if (!row) continue;
          files.push({ id, original: row.audio_file, redacted: row.redacted_audio_file });
          n += this.db.prepare(`DELETE FROM recordings WHERE id = ?`).run(id).changes;
        }
      })
      .immediate();
    for (const f of files) this.audio.remove(f.id, f);
    if (n) this.ctx.changed(recordingIds, 'deleted');
    return n;
  }
}

function toItem(r: ItemRow): LibraryItem {
  return {
    id: r.id,
    title: r.title,
    source: r.source,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    completedAt: r.completed_at,
    durationMs: r.duration_ms,
    status: r.status as TranscriptStatus,
    error: r.error_code !== null ? { code: r.error_code as JobError['code'], message: r.error_message ?? '', retryable: r.error_retryable === 1 } : null,
    region: r.region as ServiceRegion,
    remoteId: r.remote_id,
    language: r.language,
    model: r.model,
    wordCount: r.word_count,
    tags: r.tags ? (JSON.parse(r.tags) as string[]) : [],
    // A copy, or the original file (not checked on disk here: the player says so if it moved).
    hasAudio: r.audio_file !== null || r.original_path !== null,
    hasRedactedAudio: r.redacted_audio_file !== null,
    preview: r.preview ?? '',
  };
}
