/**
 * Live caption sessions in the library: a session is a recording (source kind
 * `live`) whose audio file grows while it runs, a live transcript written when
 * it stops, and any improved transcripts made later from the recording.
 */
import { randomUUID } from 'node:crypto';
import { appendFileSync, existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Database, Statement } from 'better-sqlite3';
import { AppError } from '../../../shared/errors';
import type { ServiceRegion } from '../../../shared/jobs';
import type { LiveSource } from '../../../shared/audio-frame';
import { liveTurnSchema, type LiveTurn } from '../../../shared/captions';
import { insertQueuedVersion, type NewVersion } from './transcripts';

/** What a store module of the library is handed (the data-layer's LibraryContext). */
export interface SessionContext {
  dataDir: string;
  audioDir: string;
  changed(ids: string[], reason: 'added' | 'updated' | 'deleted' | 'imported'): void;
}

export interface NewSession {
  title: string;
  sources: LiveSource[];
  recordOnly: boolean;
  recordingMime: string;
  region: ServiceRegion;
  baseUrl: string | null;
  options: Record<string, unknown>;
}

export interface SessionVersion {
  transcriptId: string;
  kind: 'live' | 'improved';
  status: string;
  createdAt: string;
  wordCount: number;
}

export interface SessionRow {
  recordingId: string;
  liveTranscriptId: string;
  sources: LiveSource[];
  recordOnly: boolean;
  recordingMime: string | null;
  startedAt: string;
  endedAt: string | null;
  lostMs: number;
  reconnects: number;
}

const EXT: Record<string, string> = { 'audio/webm': '.webm', 'audio/ogg': '.ogg', 'audio/mp4': '.m4a', 'audio/wav': '.wav' };

export class SessionStore {
  private sessionQuery: Statement | null = null;

  constructor(
    private readonly db: Database,
    private readonly ctx: SessionContext,
  ) {}

  /** A new session: its recording (audio file named now, filled as chunks arrive) and its live transcript, in progress. */
  create(s: NewSession, now = new Date().toISOString()): { recordingId: string; transcriptId: string; audioFile: string } {
    const recordingId = randomUUID();
    const transcriptId = randomUUID();
    const audioFile = `${recordingId}${EXT[s.recordingMime.split(';')[0]!.trim().toLowerCase()] ?? '.webm'}`;
    this.db
      .transaction(() => {
        this.db
          .prepare(
            `INSERT INTO recordings (id, title, source, source_kind, audio_file, size_bytes, created_at, updated_at) VALUES (?, ?, 'Live session', 'live', ?, 0, ?, ?)`,
          )
          .run(recordingId, s.title, audioFile, now, now);
        this.db
          .prepare(`INSERT INTO transcripts (id, recording_id, region, base_url, status, options, created_at) VALUES (?, ?, ?, ?, 'processing', ?, ?)`)
          .run(transcriptId, recordingId, s.region, s.baseUrl, JSON.stringify(s.options), now);
        this.db
          .prepare(`INSERT INTO live_sessions (recording_id, live_transcript_id, sources, record_only, recording_mime, started_at) VALUES (?, ?, ?, ?, ?, ?)`)
          .run(recordingId, transcriptId, JSON.stringify(s.sources), s.recordOnly ? 1 : 0, s.recordingMime, now);
      })
      .immediate();
    this.ctx.changed([recordingId], 'added');
    return { recordingId, transcriptId, audioFile };
  }

  /** Append a chunk of the recording to its file (written at once: a crash keeps what was recorded). */
  appendAudio(recordingId: string, chunk: Uint8Array): void {
    const row = this.db.prepare(`SELECT audio_file FROM recordings WHERE id = ?`).get(recordingId) as { audio_file: string | null } | undefined;
    if (!row?.audio_file) throw new AppError('not_found', 'This live session is no longer in the library.');
    appendFileSync(join(this.ctx.audioDir, row.audio_file), chunk);
  }

  /** A finished turn, written as it is shown: a crash before stop keeps it (the transcript is made from these at the next start). */
  saveTurn(recordingId: string, turn: LiveTurn): void {
    this.db.prepare(`INSERT OR REPLACE INTO live_turns (recording_id, key, turn) VALUES (?, ?, ?)`).run(recordingId, turn.key, JSON.stringify(turn));
  }

  /** The finished turns a session that did not stop saved (a damaged row is left out). */
  savedTurns(recordingId: string): LiveTurn[] {
    const rows = this.db.prepare(`SELECT turn FROM live_turns WHERE recording_id = ?`).all(recordingId) as { turn: string }[];
    return rows.flatMap((r) => {
      try {
        const t = liveTurnSchema.safeParse(JSON.parse(r.turn));
        return t.success ? [t.data] : [];
      } catch {
        return [];
      }
    });
  }

  /** The session ended: its length, size and what reconnects cost; its saved turns go (the live transcript, stored by Library.complete, holds them). */
  finish(recordingId: string, info: { durationMs: number; lostMs: number; reconnects: number }, now = new Date().toISOString()): void {
    const row = this.db.prepare(`SELECT audio_file FROM recordings WHERE id = ?`).get(recordingId) as { audio_file: string | null } | undefined;
    if (!row) throw new AppError('not_found', 'This live session is no longer in the library.');
    const path = row.audio_file ? join(this.ctx.audioDir, row.audio_file) : null;
    const size = path && existsSync(path) ? statSync(path).size : 0;
    this.db
      .transaction(() => {
        // No chunk ever arrived (the microphone gave nothing): there is no recording to play.
        this.db
          .prepare(
            `UPDATE recordings SET duration_ms = ?, size_bytes = ?, audio_file = CASE WHEN ? > 0 THEN audio_file ELSE NULL END, updated_at = ? WHERE id = ?`,
          )
          .run(Math.round(info.durationMs), size, size, now, recordingId);
        this.db
          .prepare(`UPDATE live_sessions SET ended_at = ?, lost_ms = ?, reconnects = ? WHERE recording_id = ?`)
          .run(now, Math.round(info.lostMs), info.reconnects, recordingId);
        this.db.prepare(`DELETE FROM live_turns WHERE recording_id = ?`).run(recordingId);
      })
      .immediate();
    this.ctx.changed([recordingId], 'updated');
  }

  session(recordingId: string): SessionRow | null {
    // Prepared once: People asks this of every recording a restore adds (50,000 preparations took ~0.7 s of main's CPU).
    this.sessionQuery ??= this.db.prepare(
      `SELECT recording_id AS recordingId, live_transcript_id AS liveTranscriptId, sources, record_only AS recordOnly, recording_mime AS recordingMime,
              started_at AS startedAt, ended_at AS endedAt, lost_ms AS lostMs, reconnects FROM live_sessions WHERE recording_id = ?`,
    );
    const r = this.sessionQuery.get(recordingId) as (Omit<SessionRow, 'sources' | 'recordOnly'> & { sources: string; recordOnly: number }) | undefined;
    return r ? { ...r, sources: JSON.parse(r.sources) as LiveSource[], recordOnly: r.recordOnly === 1 } : null;
  }

  /** Sessions a crash left open (no end written): closed at start with what their file holds. */
  unfinished(): string[] {
    return (this.db.prepare(`SELECT recording_id AS id FROM live_sessions WHERE ended_at IS NULL`).all() as { id: string }[]).map((r) => r.id);
  }

  /** A new, queued transcript of the session's recording (Improve accuracy); the older versions stay. */
  addVersion(recordingId: string, v: NewVersion): string {
    if (!this.session(recordingId)) throw new AppError('not_found', 'This live session is no longer in the library.');
    const transcriptId = insertQueuedVersion(this.db, recordingId, v);
    this.ctx.changed([recordingId], 'updated');
    return transcriptId;
  }

  /** The session's transcripts, newest first (the library shows the newest). */
  versions(recordingId: string): SessionVersion[] {
    const s = this.session(recordingId);
    if (!s) throw new AppError('not_found', 'This is not a live session, or it is no longer in the library.');
    const rows = this.db
      .prepare(
        `SELECT id, status, created_at AS createdAt, word_count AS wordCount FROM transcripts WHERE recording_id = ? ORDER BY created_at DESC, rowid DESC`,
      )
      .all(recordingId) as { id: string; status: string; createdAt: string; wordCount: number }[];
    return rows.map((r) => ({
      transcriptId: r.id,
      kind: r.id === s.liveTranscriptId ? 'live' : 'improved',
      status: r.status,
      createdAt: r.createdAt,
      wordCount: r.wordCount,
    }));
  }

  audioPath(recordingId: string): string | null {
    const row = this.db.prepare(`SELECT audio_file FROM recordings WHERE id = ?`).get(recordingId) as { audio_file: string | null } | undefined;
    if (!row?.audio_file) return null;
    const p = join(this.ctx.audioDir, row.audio_file);
    return existsSync(p) ? p : null;
  }
}
