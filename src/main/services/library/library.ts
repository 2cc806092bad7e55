/**
 * The library (DESIGN.md §6): recordings and their transcripts in SQLite,
 * readable with no network. Jobs write into it; the IPC handlers read it.
 */
import { randomUUID } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import BetterSqlite3, { type Database } from 'better-sqlite3';
import type { z } from 'zod';
import { AppError } from '../../../shared/errors';
import type { JobError, ServiceRegion } from '../../../shared/jobs';
import {
  libraryListInputSchema,
  type Cue,
  type ExportFormat,
  type LibraryItem,
  type SearchHit,
  type Span,
  type Transcript,
  type TranscriptStatus,
  type WebhookStatus,
  type Word,
} from '../../../shared/library';
import { buildCues, toSrt, toVtt } from '../../../shared/captions/index';
import { migrate } from './migrations';
import { SessionStore } from './sessions';
import {
  ftsQuery,
  packWords,
  paragraphsFromSentences,
  sentencesFromWords,
  snippetParts,
  SNIPPET_CLOSE,
  SNIPPET_OPEN,
  span,
  unpackWords,
} from './text';

export function openDatabase(file: string): Database {
  const db = new BetterSqlite3(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  migrate(db);
  return db;
}

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

export interface CompletedTranscript {
  remoteId: string | null;
  text: string;
  words: Word[];
  /** From the service's sentences view when available; else built from words. */
  sentences: Span[] | null;
  paragraphs: Span[] | null;
  confidence: number | null;
  language: string | null;
  model: string | null;
  durationMs: number | null;
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

const ITEM_SELECT = `
  SELECT r.id, r.title, r.source, r.created_at, r.updated_at, r.duration_ms, r.audio_file, r.redacted_audio_file, r.original_path,
         t.id AS t_id, t.status, t.error_code, t.error_message, t.error_retryable, t.completed_at, t.region, t.remote_id, t.language, t.model,
         t.word_count, substr(t.text, 1, 200) AS preview,
         (SELECT json_group_array(name) FROM (SELECT name FROM tags WHERE recording_id = r.id ORDER BY name)) AS tags
  FROM recordings r
  JOIN transcripts t ON t.id = (SELECT id FROM transcripts WHERE recording_id = r.id ORDER BY created_at DESC, rowid DESC LIMIT 1)`;

/** How many of the newest matching sentences a search ranks (see search()). */
export const SEARCH_RANK_WINDOW = 1000;

const MARK = new RegExp(`${SNIPPET_OPEN}[^${SNIPPET_CLOSE}]*${SNIPPET_CLOSE}`, 'g');

/** BM25 term-frequency part (k1 1.2, b 0.75, average sentence 15 words) from highlight() marks. */
function bm25NoIdf(marked: string): number {
  const tf = marked.match(MARK)?.length ?? 0;
  const len = marked.split(/\s+/).length;
  const k1 = 1.2;
  const norm = k1 * (1 - 0.75 + (0.75 * len) / 15);
  return (tf * (k1 + 1)) / (tf + norm);
}

/** About `tokens` words around the first mark, with … where text was cut. */
function cutSnippet(marked: string, tokens: number): string {
  const words = marked.split(' ');
  if (words.length <= tokens) return marked;
  const first = Math.max(0, words.findIndex((w) => w.includes(SNIPPET_OPEN)));
  const from = Math.max(0, Math.min(first - Math.floor(tokens / 3), words.length - tokens));
  const to = from + tokens;
  return `${from > 0 ? '…' : ''}${words.slice(from, to).join(' ')}${to < words.length ? '…' : ''}`;
}

export interface RemoteRef {
  transcriptId: string;
  region: ServiceRegion;
  baseUrl: string | null;
  remoteId: string | null;
  completedAt: string | null;
  webhookUrl: string | null;
  webhookSettled: boolean;
}

export type LibraryChange = { ids: string[]; reason: 'added' | 'updated' | 'deleted' | 'imported' };

export class Library {
  readonly db: Database;
  readonly audioDir: string;
  /** Live caption sessions (recordings of kind `live`, their versions). */
  readonly sessions: SessionStore;
  private readonly listeners = new Set<(c: LibraryChange) => void>();

  constructor(readonly dataDir: string, db?: Database) {
    mkdirSync(dataDir, { recursive: true });
    this.db = db ?? openDatabase(join(dataDir, 'library.sqlite'));
    this.audioDir = join(dataDir, 'audio');
    mkdirSync(this.audioDir, { recursive: true });
    this.sessions = new SessionStore(this.db, { dataDir, audioDir: this.audioDir, changed: (ids, reason) => this.changed(ids, reason) });
  }

  close(): void {
    this.db.close();
  }

  onChange(listener: (c: LibraryChange) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  changed(ids: string[], reason: LibraryChange['reason']): void {
    for (const l of this.listeners) l({ ids, reason });
  }

  /** A new recording with a queued transcript. Returns both ids. */
  addRecording(rec: NewRecording, ids?: { recordingId?: string; transcriptId?: string; now?: string }): { recordingId: string; transcriptId: string } {
    const recordingId = ids?.recordingId ?? randomUUID();
    const transcriptId = ids?.transcriptId ?? randomUUID();
    const now = ids?.now ?? new Date().toISOString();
    this.db
      .prepare(
        `INSERT INTO recordings (id, title, source, source_kind, size_bytes, duration_ms, original_path, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(recordingId, rec.title, rec.source, rec.sourceKind, rec.sizeBytes, rec.durationMs ?? null, rec.originalPath ?? null, now, now);
    this.db
      .prepare(`INSERT INTO transcripts (id, recording_id, region, base_url, status, options, created_at) VALUES (?, ?, ?, ?, 'queued', ?, ?)`)
      .run(transcriptId, recordingId, rec.region, rec.baseUrl, JSON.stringify(rec.options), now);
    return { recordingId, transcriptId };
  }

  setStatus(transcriptId: string, status: TranscriptStatus, extra: { remoteId?: string | null; error?: JobError | null } = {}): void {
    const now = new Date().toISOString();
    const sets = ['status = @status'];
    if (extra.remoteId !== undefined) sets.push('remote_id = @remoteId');
    if (status === 'submitted') sets.push('submitted_at = coalesce(submitted_at, @now)');
    if (extra.error !== undefined) sets.push('error_code = @code', 'error_message = @message', 'error_retryable = @retryable');
    this.db.prepare(`UPDATE transcripts SET ${sets.join(', ')} WHERE id = @id`).run({
      id: transcriptId,
      status,
      now,
      remoteId: extra.remoteId ?? null,
      code: extra.error?.code ?? null,
      message: extra.error?.message ?? null,
      retryable: extra.error ? (extra.error.retryable ? 1 : 0) : null,
    });
    this.touch(this.recordingOf(transcriptId));
  }

  /** Store a finished transcript: words, spans, search rows, in one transaction. */
  complete(transcriptId: string, t: CompletedTranscript): void {
    const sentences = t.sentences ?? sentencesFromWords(t.words);
    const paragraphs = t.paragraphs ?? paragraphsFromSentences(t.words, sentences);
    const recordingId = this.recordingOf(transcriptId);
    const now = new Date().toISOString();
    this.db.transaction(() => {
      this.db
        .prepare(
          `UPDATE transcripts SET status = 'completed', remote_id = coalesce(@remoteId, remote_id), text = @text, confidence = @confidence,
             language = @language, model = @model, word_count = @count, sentences = @sentences, paragraphs = @paragraphs,
             error_code = NULL, error_message = NULL, error_retryable = NULL, completed_at = @now WHERE id = @id`,
        )
        .run({
          id: transcriptId,
          remoteId: t.remoteId,
          text: t.text,
          confidence: t.confidence,
          language: t.language,
          model: t.model,
          count: t.words.length,
          sentences: JSON.stringify(sentences.map(stripSpan)),
          paragraphs: JSON.stringify(paragraphs.map(stripSpan)),
          now,
        });
      this.db.prepare(`INSERT OR REPLACE INTO words (transcript_id, count, data) VALUES (?, ?, ?)`).run(transcriptId, t.words.length, packWords(t.words));
      this.indexSentences(transcriptId, sentences);
      const speakers = [...new Set(t.words.map((w) => w.speaker).filter((s): s is string => s !== null))];
      const insSpeaker = this.db.prepare(`INSERT OR IGNORE INTO speakers (transcript_id, speaker) VALUES (?, ?)`);
      for (const s of speakers) insSpeaker.run(transcriptId, s);
      // The service reports whole seconds: a length measured before upload that agrees within a second is the more precise one.
      this.db
        .prepare(
          `UPDATE recordings SET duration_ms = CASE WHEN duration_ms IS NOT NULL AND abs(duration_ms - @d) < 1000 THEN duration_ms ELSE coalesce(@d, duration_ms) END,
             updated_at = @now WHERE id = @id`,
        )
        .run({ id: recordingId, d: t.durationMs, now });
    })();
  }

  private indexSentences(transcriptId: string, sentences: Span[]): void {
    this.db.prepare(`DELETE FROM sentences WHERE transcript_id = ?`).run(transcriptId);
    const ins = this.db.prepare(`INSERT INTO sentences (transcript_id, start_ms, text) VALUES (?, ?, ?)`);
    for (const s of sentences) ins.run(transcriptId, s.start, s.text);
  }

  setAudioFile(recordingId: string, file: string | null, kind: 'original' | 'redacted' = 'original'): void {
    const col = kind === 'original' ? 'audio_file' : 'redacted_audio_file';
    this.db.prepare(`UPDATE recordings SET ${col} = ? WHERE id = ?`).run(file, recordingId);
  }

  setDuration(recordingId: string, durationMs: number): void {
    this.db.prepare(`UPDATE recordings SET duration_ms = ? WHERE id = ?`).run(durationMs, recordingId);
  }

  /**
   * Absolute path of a recording's audio: the library's copy, else (original
   * only) the file it came from if it is still there; null when neither.
   */
  audioPath(recordingId: string, kind: 'original' | 'redacted' = 'original'): string | null {
    const row = this.db.prepare(`SELECT audio_file, redacted_audio_file, original_path FROM recordings WHERE id = ?`).get(recordingId) as
      | { audio_file: string | null; redacted_audio_file: string | null; original_path: string | null }
      | undefined;
    const name = kind === 'original' ? row?.audio_file : row?.redacted_audio_file;
    if (name) {
      const path = join(this.audioDir, name);
      if (existsSync(path)) return path;
    }
    if (kind === 'original' && row?.original_path && existsSync(row.original_path)) return row.original_path;
    return null;
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
    const from = `FROM recordings r JOIN transcripts t ON t.id = (SELECT id FROM transcripts WHERE recording_id = r.id ORDER BY created_at DESC, rowid DESC LIMIT 1) ${whereSql}`;
    // Every recording has a transcript: without a status filter, ids and count need no join.
    const narrow = q.status?.length ? from : `FROM recordings r ${whereSql}`;
    const ids = (
      this.db.prepare(`SELECT r.id ${narrow} ORDER BY ${order} ${dir}, r.rowid ${dir} LIMIT @limit OFFSET @offset`).all({ ...params, limit: q.limit, offset: q.offset }) as {
        id: string;
      }[]
    ).map((r) => r.id);
    const total = (this.db.prepare(`SELECT count(*) AS n ${narrow}`).get(params) as { n: number }).n;
    if (ids.length === 0) return { items: [], total };
    const byId = new Map(
      (this.db.prepare(`${ITEM_SELECT} WHERE r.id IN (${ids.map(() => '?').join(',')})`).all(...ids) as ItemRow[]).map((r) => [r.id, r]),
    );
    const rows = ids.flatMap((id) => {
      const r = byId.get(id);
      return r ? [r] : [];
    });
    return { items: rows.map(toItem), total };
  }

  item(recordingId: string): LibraryItem {
    const row = this.db.prepare(`${ITEM_SELECT} WHERE r.id = ?`).get(recordingId) as ItemRow | undefined;
    if (!row) throw new AppError('not_found', 'This recording is no longer in the library.');
    return toItem(row);
  }

  /** A recording with its latest transcript, or with `transcriptId` (an older version of a live session). */
  get(recordingId: string, transcriptId?: string): Transcript {
    const item = this.item(recordingId);
    const t = (
      transcriptId
        ? this.db.prepare(`SELECT * FROM transcripts WHERE recording_id = ? AND id = ?`).get(recordingId, transcriptId)
        : this.db.prepare(`SELECT * FROM transcripts WHERE recording_id = ? ORDER BY created_at DESC, rowid DESC LIMIT 1`).get(recordingId)
    ) as {
      id: string;
      text: string;
      confidence: number | null;
      sentences: string;
      paragraphs: string;
      options: string;
      status: string;
      word_count: number;
      completed_at: string | null;
    } & WebhookColumns;
    if (!t) throw new AppError('not_found', 'This version of the transcript is no longer in the library.');
    // An older version is shown with its own state, not the newest one's.
    const shown = transcriptId ? { ...item, status: t.status as TranscriptStatus, wordCount: t.word_count, completedAt: t.completed_at } : item;
    const words = this.words(t.id);
    const cuesRow = this.db.prepare(`SELECT data FROM cues WHERE transcript_id = ?`).get(t.id) as { data: string } | undefined;
    const speakers = this.db.prepare(`SELECT speaker AS id, name FROM speakers WHERE transcript_id = ? ORDER BY speaker`).all(t.id) as {
      id: string;
      name: string | null;
    }[];
    return {
      item: shown,
      transcriptId: t.id,
      text: t.text,
      confidence: t.confidence,
      words,
      sentences: expandSpans(words, JSON.parse(t.sentences) as StoredSpan[]),
      paragraphs: expandSpans(words, JSON.parse(t.paragraphs) as StoredSpan[]),
      speakers,
      cues: cuesRow ? (JSON.parse(cuesRow.data) as Cue[]) : null,
      options: JSON.parse(t.options) as Record<string, unknown>,
      webhook: toWebhookStatus(t),
    };
  }

  /** The transcript was submitted with the user's webhook (cloud and custom services). */
  setWebhook(transcriptId: string, url: string): void {
    this.db
      .prepare(`UPDATE transcripts SET webhook_url = ?, webhook_status_code = NULL, webhook_checked_at = NULL, webhook_settled = 0 WHERE id = ?`)
      .run(url, transcriptId);
  }

  /**
   * What the service says its last webhook delivery got (`webhook_status_code`).
   * `settled`: nothing more will change (delivered, refused, or retries over).
   * Returns true when the stored state changed.
   */
  recordWebhookCheck(transcriptId: string, statusCode: number | null, settled: boolean): boolean {
    const before = this.db.prepare(`SELECT webhook_status_code AS code, webhook_settled AS settled FROM transcripts WHERE id = ?`).get(transcriptId) as
      | { code: number | null; settled: number }
      | undefined;
    if (!before) return false;
    this.db
      .prepare(`UPDATE transcripts SET webhook_status_code = ?, webhook_settled = ?, webhook_checked_at = ? WHERE id = ?`)
      .run(statusCode, settled ? 1 : 0, new Date().toISOString(), transcriptId);
    const changed = before.code !== statusCode || before.settled !== (settled ? 1 : 0);
    if (changed) {
      const recordingId = this.recordingOf(transcriptId);
      this.touch(recordingId);
      this.changed([recordingId], 'updated');
    }
    return changed;
  }

  /** Recordings whose completed transcript's webhook outcome is not settled yet (to follow after a restart). */
  unsettledWebhooks(): string[] {
    const rows = this.db
      .prepare(`SELECT recording_id AS id FROM transcripts WHERE webhook_url IS NOT NULL AND webhook_settled = 0 AND status = 'completed' AND remote_id IS NOT NULL`)
      .all() as { id: string }[];
    return rows.map((r) => r.id);
  }

  /** Where to ask about a recording's latest transcript (its region, service address, remote id) and its webhook state. */
  remoteRef(recordingId: string): RemoteRef {
    const row = this.db
      .prepare(
        `SELECT id AS transcriptId, region, base_url AS baseUrl, remote_id AS remoteId, completed_at AS completedAt,
                webhook_url AS webhookUrl, webhook_settled AS webhookSettled
         FROM transcripts WHERE recording_id = ? ORDER BY created_at DESC, rowid DESC LIMIT 1`,
      )
      .get(recordingId) as (Omit<RemoteRef, 'webhookSettled'> & { webhookSettled: number }) | undefined;
    if (!row) throw new AppError('not_found', 'This recording is no longer in the library.');
    return { ...row, webhookSettled: row.webhookSettled === 1 };
  }

  /** The webhook state of a recording's latest transcript, without reading its words. */
  webhookStatus(recordingId: string): WebhookStatus | null {
    const row = this.db
      .prepare(`SELECT webhook_url, webhook_status_code, webhook_checked_at, webhook_settled FROM transcripts WHERE recording_id = ? ORDER BY created_at DESC, rowid DESC LIMIT 1`)
      .get(recordingId) as WebhookColumns | undefined;
    return row ? toWebhookStatus(row) : null;
  }

  words(transcriptId: string): Word[] {
    const row = this.db.prepare(`SELECT data FROM words WHERE transcript_id = ?`).get(transcriptId) as { data: Buffer } | undefined;
    const words = row ? unpackWords(row.data) : [];
    const corrections = this.db.prepare(`SELECT word_index, original FROM word_corrections WHERE transcript_id = ?`).all(transcriptId) as {
      word_index: number;
      original: string;
    }[];
    for (const c of corrections) {
      const w = words[c.word_index];
      if (w) w.original = c.original;
    }
    return words;
  }

  rename(recordingId: string, title: string): LibraryItem {
    const r = this.db.prepare(`UPDATE recordings SET title = ?, updated_at = ? WHERE id = ?`).run(title, new Date().toISOString(), recordingId);
    if (r.changes === 0) throw new AppError('not_found', 'This recording is no longer in the library.');
    this.changed([recordingId], 'updated');
    return this.item(recordingId);
  }

  setTags(recordingId: string, tags: string[]): LibraryItem {
    this.item(recordingId);
    const unique = [...new Set(tags.map((t) => t.trim()).filter(Boolean))];
    this.db.transaction(() => {
      this.db.prepare(`DELETE FROM tags WHERE recording_id = ?`).run(recordingId);
      const ins = this.db.prepare(`INSERT INTO tags (recording_id, name) VALUES (?, ?)`);
      for (const t of unique) ins.run(recordingId, t);
      this.touch(recordingId);
    })();
    this.changed([recordingId], 'updated');
    return this.item(recordingId);
  }

  tags(): { name: string; count: number }[] {
    return this.db.prepare(`SELECT name, count(*) AS count FROM tags GROUP BY name ORDER BY name COLLATE NOCASE`).all() as { name: string; count: number }[];
  }

  /** Transcripts of these recordings that exist on a service: what a remote delete needs. */
  remoteRefs(recordingIds: string[]): { recordingId: string; region: ServiceRegion; baseUrl: string | null; remoteId: string }[] {
    const stmt = this.db.prepare(`SELECT recording_id AS recordingId, region, base_url AS baseUrl, remote_id AS remoteId FROM transcripts WHERE recording_id = ? AND remote_id IS NOT NULL`);
    return recordingIds.flatMap((id) => stmt.all(id) as { recordingId: string; region: ServiceRegion; baseUrl: string | null; remoteId: string }[]);
  }

  delete(recordingIds: string[]): number {
    let n = 0;
    const files: string[] = [];
    this.db.transaction(() => {
      for (const id of recordingIds) {
        const row = this.db.prepare(`SELECT audio_file, redacted_audio_file FROM recordings WHERE id = ?`).get(id) as
          | { audio_file: string | null; redacted_audio_file: string | null }
          | undefined;
        if (!row) continue;
        if (row.audio_file) files.push(row.audio_file);
        if (row.redacted_audio_file) files.push(row.redacted_audio_file);
        n += this.db.prepare(`DELETE FROM recordings WHERE id = ?`).run(id).changes;
      }
    })();
    for (const f of files) rmSync(join(this.audioDir, f), { force: true });
    if (n) this.changed(recordingIds, 'deleted');
    return n;
  }

  correctWords(recordingId: string, edits: { index: number; text: string }[]): Transcript {
    const current = this.get(recordingId);
    const words = current.words.map((w) => ({ ...w }));
    for (const e of edits) {
      const w = words[e.index];
      if (!w) throw new AppError('bad_request', `There is no word number ${e.index} in this transcript.`);
      // The first original is kept; correcting back to it removes the mark.
      const original = w.original ?? w.text;
      w.original = e.text === original ? null : original;
      w.text = e.text;
    }
    const stored = JSON.parse(
      (this.db.prepare(`SELECT sentences, paragraphs FROM transcripts WHERE id = ?`).get(current.transcriptId) as { sentences: string }).sentences,
    ) as StoredSpan[];
    const sentences = stored.map((s) => ({ ...span(words, s.firstWord, s.lastWord), start: s.start, end: s.end }));
    const paragraphs = current.paragraphs.map((p) => ({ ...span(words, p.firstWord, p.lastWord), start: p.start, end: p.end }));
    const text = paragraphs.map((p) => p.text).join(' ');
    this.db.transaction(() => {
      this.db.prepare(`UPDATE words SET data = ? WHERE transcript_id = ?`).run(packWords(words), current.transcriptId);
      const keep = this.db.prepare(`INSERT OR REPLACE INTO word_corrections (transcript_id, word_index, original) VALUES (?, ?, ?)`);
      const drop = this.db.prepare(`DELETE FROM word_corrections WHERE transcript_id = ? AND word_index = ?`);
      for (const e of edits) {
        const original = words[e.index]?.original;
        if (original) keep.run(current.transcriptId, e.index, original);
        else drop.run(current.transcriptId, e.index);
      }
      this.db
        .prepare(`UPDATE transcripts SET text = ?, sentences = ?, paragraphs = ? WHERE id = ?`)
        .run(text, JSON.stringify(sentences.map(stripSpan)), JSON.stringify(paragraphs.map(stripSpan)), current.transcriptId);
      this.indexSentences(current.transcriptId, sentences);
      this.touch(recordingId);
    })();
    this.changed([recordingId], 'updated');
    return this.get(recordingId);
  }

  renameSpeaker(recordingId: string, speaker: string, name: string | null): Transcript {
    const t = this.get(recordingId);
    this.db
      .prepare(`INSERT INTO speakers (transcript_id, speaker, name) VALUES (?, ?, ?) ON CONFLICT (transcript_id, speaker) DO UPDATE SET name = excluded.name`)
      .run(t.transcriptId, speaker, name === '' ? null : name);
    this.touch(recordingId);
    this.changed([recordingId], 'updated');
    return this.get(recordingId);
  }

  saveCues(recordingId: string, cues: Cue[] | null): void {
    const t = this.get(recordingId);
    if (cues === null) this.db.prepare(`DELETE FROM cues WHERE transcript_id = ?`).run(t.transcriptId);
    else
      this.db
        .prepare(`INSERT OR REPLACE INTO cues (transcript_id, data, updated_at) VALUES (?, ?, ?)`)
        .run(t.transcriptId, JSON.stringify(cues), new Date().toISOString());
    this.touch(recordingId);
    this.changed([recordingId], 'updated');
  }

  export(recordingId: string, format: ExportFormat, charsPerCaption?: number): { filename: string; mime: string; content: string } {
    const t = this.get(recordingId);
    const base = safeFileName(t.item.title);
    const names = new Map(t.speakers.map((s) => [s.id, s.name ?? `Speaker ${s.id}`]));
    const speakerLabel = names.size ? (id: string) => names.get(id) ?? `Speaker ${id}` : undefined;
    // Edited cues are the user's own words; otherwise cues of one 42-character line, named at each change of speaker.
    const cues = () => (t.cues && charsPerCaption === undefined ? t.cues : buildCues(t.words, { charsPerCaption: charsPerCaption ?? 42, speakerLabel }));
    switch (format) {
      case 'txt': {
        const paras = t.paragraphs.length ? t.paragraphs : [{ text: t.text, speaker: null }];
        const content = paras.map((p) => (p.speaker && names.has(p.speaker) ? `${names.get(p.speaker)}: ${p.text}` : p.text)).join('\n\n');
        return { filename: `${base}.txt`, mime: 'text/plain; charset=utf-8', content: `${content}\n` };
      }
      case 'srt':
        return { filename: `${base}.srt`, mime: 'application/x-subrip; charset=utf-8', content: toSrt(cues()) };
      case 'vtt':
        return { filename: `${base}.vtt`, mime: 'text/vtt; charset=utf-8', content: toVtt(cues()) };
      case 'json':
        return { filename: `${base}.json`, mime: 'application/json', content: `${JSON.stringify(t, null, 2)}\n` };
    }
  }

  /**
   * Ranked full-text search. FTS5's bm25 needs, for every query, a count of
   * all rows holding each term: a pass over the whole index for a common word
   * (seconds at 10,000 transcripts). So the newest SEARCH_RANK_WINDOW matching
   * sentences are taken in rowid order (cheap), FTS5 marks the matched tokens
   * (highlight(), stemming included), and they are scored here as BM25 without
   * the IDF factor: every hit holds every term, so IDF only reweighs terms.
   * Exact over everything for queries with fewer matches than the window.
   */
  search(query: string, opts: { tag?: string; limit?: number; offset?: number } = {}): SearchHit[] {
    const match = ftsQuery(query);
    if (match === null) return [];
    const limit = opts.limit ?? 50;
    const offset = opts.offset ?? 0;
    const tagSql =
      opts.tag === undefined
        ? ''
        : `AND rowid IN (SELECT s.id FROM sentences s JOIN transcripts t ON t.id = s.transcript_id JOIN tags g ON g.recording_id = t.recording_id WHERE g.name = @tag)`;
    const candidates = this.db
      .prepare(
        `SELECT rowid AS id, highlight(sentences_fts, 0, '${SNIPPET_OPEN}', '${SNIPPET_CLOSE}') AS h
         FROM sentences_fts WHERE sentences_fts MATCH @match ${tagSql} ORDER BY rowid DESC LIMIT ${SEARCH_RANK_WINDOW}`,
      )
      .all({ match, tag: opts.tag }) as { id: number; h: string }[];
    if (candidates.length === 0) return [];
    const scored = candidates.map((c) => ({ ...c, score: bm25NoIdf(c.h) })).sort((a, b) => b.score - a.score || b.id - a.id);
    const page = scored.slice(offset, offset + limit);
    if (page.length === 0) return [];
    const meta = new Map(
      (
        this.db
          .prepare(
            `SELECT s.id, s.start_ms AS startMs, r.id AS recordingId, r.title FROM sentences s
             JOIN transcripts t ON t.id = s.transcript_id JOIN recordings r ON r.id = t.recording_id
             WHERE s.id IN (${page.map(() => '?').join(',')})`,
          )
          .all(...page.map((p) => p.id)) as { id: number; startMs: number; recordingId: string; title: string }[]
      ).map((m) => [m.id, m]),
    );
    return page.flatMap((p) => {
      const m = meta.get(p.id);
      return m ? [{ recordingId: m.recordingId, title: m.title, startMs: m.startMs, rank: -p.score, snippet: snippetParts(cutSnippet(p.h, 16)) }] : [];
    });
  }

  /** Back up everything into an empty folder: library.json (all rows) + audio/. */
  exportAll(dir: string): { dir: string; items: number; audioFiles: number } {
    if (existsSync(dir) && readdirSync(dir).length > 0) throw new AppError('conflict', `The folder ${dir} is not empty. Choose an empty or new folder for the backup.`);
    mkdirSync(join(dir, 'audio'), { recursive: true });
    const tables = ['recordings', 'transcripts', 'words', 'tags', 'speakers', 'cues', 'chats', 'messages'] as const;
    const dump: Record<string, unknown[]> = {};
    for (const t of tables) {
      dump[t] = (this.db.prepare(`SELECT * FROM ${t}`).all() as Record<string, unknown>[]).map((row) =>
        Object.fromEntries(Object.entries(row).map(([k, v]) => [k, Buffer.isBuffer(v) ? { base64: v.toString('base64') } : v])),
      );
    }
    let audioFiles = 0;
    for (const r of dump.recordings as { audio_file: string | null; redacted_audio_file: string | null }[]) {
      for (const f of [r.audio_file, r.redacted_audio_file]) {
        if (f && existsSync(join(this.audioDir, f))) {
          copyFileSync(join(this.audioDir, f), join(dir, 'audio', f));
          audioFiles++;
        }
      }
    }
    writeFileSync(join(dir, 'library.json'), JSON.stringify({ format: 'verbatim-library', version: 1, exportedAt: new Date().toISOString(), tables: dump }));
    return { dir, items: dump.recordings?.length ?? 0, audioFiles };
  }

  importAll(dir: string): { imported: number; skipped: number } {
    const file = join(dir, 'library.json');
    if (!existsSync(file)) throw new AppError('file_unreadable', `${dir} does not contain a Verbatim backup (library.json is missing).`);
    let parsed: { format?: string; tables?: Record<string, Record<string, unknown>[]> };
    try {
      parsed = JSON.parse(readFileSync(file, 'utf8')) as typeof parsed;
    } catch {
      throw new AppError('file_unreadable', `The backup in ${dir} is damaged (library.json is not valid JSON).`);
    }
    if (parsed.format !== 'verbatim-library' || !parsed.tables) throw new AppError('file_unreadable', `${dir} is not a Verbatim library backup.`);
    const tables = parsed.tables;
    const recordings = tables.recordings ?? [];
    const existing = new Set((this.db.prepare(`SELECT id FROM recordings`).all() as { id: string }[]).map((r) => r.id));
    const fresh = new Set(recordings.map((r) => String(r.id)).filter((id) => !existing.has(id)));
    const transcriptIds = new Set((tables.transcripts ?? []).filter((t) => fresh.has(String(t.recording_id))).map((t) => String(t.id)));
    const keep: Record<string, (row: Record<string, unknown>) => boolean> = {
      recordings: (r) => fresh.has(String(r.id)),
      transcripts: (r) => fresh.has(String(r.recording_id)),
      words: (r) => transcriptIds.has(String(r.transcript_id)),
      tags: (r) => fresh.has(String(r.recording_id)),
      speakers: (r) => transcriptIds.has(String(r.transcript_id)),
      cues: (r) => transcriptIds.has(String(r.transcript_id)),
      chats: (r) => r.recording_id === null || fresh.has(String(r.recording_id)),
    };
    const chatIds = new Set<string>();
    this.db.transaction(() => {
      for (const table of ['recordings', 'transcripts', 'words', 'tags', 'speakers', 'cues', 'chats', 'messages']) {
        for (const row of tables[table] ?? []) {
          if (table === 'messages' ? !chatIds.has(String(row.chat_id)) : !keep[table]!(row)) continue;
          if (table === 'chats') chatIds.add(String(row.id));
          const cols = Object.keys(row).filter((c) => !(table === 'messages' && c === 'id'));
          const values = cols.map((c) => {
            const v = row[c];
            return v !== null && typeof v === 'object' && 'base64' in v ? Buffer.from(String((v as { base64: string }).base64), 'base64') : v;
          });
          this.db.prepare(`INSERT OR IGNORE INTO ${table} (${cols.join(', ')}) VALUES (${cols.map(() => '?').join(', ')})`).run(...values);
        }
      }
      for (const t of transcriptIds) {
        const row = this.db.prepare(`SELECT sentences FROM transcripts WHERE id = ?`).get(t) as { sentences: string };
        this.indexSentences(t, expandSpans(this.words(t), JSON.parse(row.sentences) as StoredSpan[]));
      }
    })();
    for (const r of recordings) {
      if (!fresh.has(String(r.id))) continue;
      for (const f of [r.audio_file, r.redacted_audio_file]) {
        if (typeof f === 'string' && existsSync(join(dir, 'audio', f))) copyFileSync(join(dir, 'audio', f), join(this.audioDir, f));
      }
    }
    if (fresh.size) this.changed([...fresh], 'imported');
    return { imported: fresh.size, skipped: recordings.length - fresh.size };
  }

  /** Copy a source file into the library's audio folder; returns the stored name. */
  storeAudio(recordingId: string, sourcePath: string, kind: 'original' | 'redacted' = 'original'): string {
    const ext = extname(sourcePath).slice(0, 10) || '.audio';
    const name = `${recordingId}${kind === 'redacted' ? '.redacted' : ''}${ext}`;
    copyFileSync(sourcePath, join(this.audioDir, name));
    this.setAudioFile(recordingId, name, kind);
    return name;
  }

  audioFileSize(recordingId: string): number | null {
    const p = this.audioPath(recordingId);
    return p ? statSync(p).size : null;
  }

  private recordingOf(transcriptId: string): string {
    const row = this.db.prepare(`SELECT recording_id FROM transcripts WHERE id = ?`).get(transcriptId) as { recording_id: string } | undefined;
    if (!row) throw new AppError('not_found', 'This transcript is no longer in the library.');
    return row.recording_id;
  }

  private touch(recordingId: string): void {
    this.db.prepare(`UPDATE recordings SET updated_at = ? WHERE id = ?`).run(new Date().toISOString(), recordingId);
  }
}

type StoredSpan = Omit<Span, 'text'>;

function stripSpan(s: Span): StoredSpan {
  return { start: s.start, end: s.end, firstWord: s.firstWord, lastWord: s.lastWord, speaker: s.speaker };
}

function expandSpans(words: Word[], spans: StoredSpan[]): Span[] {
  return spans.map((s) => ({ ...span(words, s.firstWord, s.lastWord), start: s.start, end: s.end, speaker: s.speaker }));
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
    error:
      r.error_code !== null
        ? { code: r.error_code as JobError['code'], message: r.error_message ?? '', retryable: r.error_retryable === 1 }
        : null,
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

interface WebhookColumns {
  webhook_url: string | null;
  webhook_status_code: number | null;
  webhook_checked_at: string | null;
  webhook_settled: number;
}

function toWebhookStatus(t: WebhookColumns): WebhookStatus | null {
  if (!t.webhook_url) return null;
  const code = t.webhook_status_code;
  const ok = code !== null && code >= 200 && code < 300;
  const refused = code !== null && code >= 400 && code < 500;
  // No code yet and none after a timed-out attempt look the same on the wire: both are pending.
  const state = ok ? 'delivered' : refused || t.webhook_settled ? 'failed' : code === null ? 'pending' : 'retrying';
  return { url: withoutQuery(t.webhook_url), state, statusCode: code, checkedAt: t.webhook_checked_at };
}

function withoutQuery(url: string): string {
  try {
    const u = new URL(url);
    return `${u.origin}${u.pathname}`;
  } catch {
    return url.split('?')[0] ?? url;
  }
}

function safeFileName(title: string): string {
  const cleaned = [...title].map((c) => (c.charCodeAt(0) < 32 || '\\/:*?"<>|'.includes(c) ? ' ' : c)).join('').replace(/\s+/g, ' ').trim().slice(0, 120);
  return cleaned || 'transcript';
}
