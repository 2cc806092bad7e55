/**
 * What a live session keeps besides its transcript: each final turn's
 * translation (written as it arrives, so a crash keeps it) and the "What did
 * I miss?" summaries asked during the session.
 */
import type { Database } from 'better-sqlite3';
import { missedCitationSchema, type MissedSummary } from '../../../shared/captions-extras';
import type { LiveTurn } from '../../../shared/captions';
import type { Cue } from '../../../shared/subtitles/index';

export interface SavedTranslation {
  key: string;
  startMs: number;
  endMs: number;
  original: string;
  language: string;
  text: string;
}

export class LiveExtrasStore {
  constructor(private readonly db: Database) {}

  saveTranslation(recordingId: string, turn: Pick<LiveTurn, 'key' | 'startMs' | 'endMs' | 'text'>, language: string, text: string): void {
    this.db
      .prepare(`INSERT OR REPLACE INTO live_translations (recording_id, key, start_ms, end_ms, original, language, text) VALUES (?, ?, ?, ?, ?, ?, ?)`)
      .run(recordingId, turn.key, turn.startMs, turn.endMs, turn.text, language, text);
  }

  /** The session's translated turns in time order. */
  translations(recordingId: string): SavedTranslation[] {
    return this.db
      .prepare(
        `SELECT key, start_ms AS startMs, end_ms AS endMs, original, language, text FROM live_translations WHERE recording_id = ? ORDER BY start_ms, key`,
      )
      .all(recordingId) as SavedTranslation[];
  }

  saveSummary(s: MissedSummary): void {
    this.db
      .prepare(
        `INSERT OR REPLACE INTO live_summaries (id, recording_id, from_ms, to_ms, status, content, citations, model, extractive, error, created_at, kind)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        s.id,
        s.recordingId,
        s.fromMs,
        s.toMs,
        s.status,
        s.content,
        JSON.stringify(s.citations),
        s.model,
        s.extractive ? 1 : 0,
        s.error,
        s.createdAt,
        s.kind ?? 'missed',
      );
  }

  summaries(recordingId: string): MissedSummary[] {
    const rows = this.db
      .prepare(
        `SELECT id, recording_id AS recordingId, from_ms AS fromMs, to_ms AS toMs, status, content, citations, model, extractive, error, created_at AS createdAt, kind
         FROM live_summaries WHERE recording_id = ? ORDER BY created_at, id`,
      )
      .all(recordingId) as (Omit<MissedSummary, 'citations' | 'extractive' | 'kind'> & { citations: string; extractive: number; kind: string })[];
    return rows.map((r) => {
      let citations: MissedSummary['citations'] = [];
      try {
        const parsed = missedCitationSchema.array().safeParse(JSON.parse(r.citations));
        if (parsed.success) citations = parsed.data;
      } catch {
        // a damaged row keeps its text
      }
      const { kind, ...rest } = r;
      // "What did I miss?" summaries read as they always have; the summary at Stop says what it is.
      return { ...rest, citations, extractive: r.extractive === 1, ...(kind === 'meeting' ? { kind: 'meeting' as const } : {}) };
    });
  }
}

/** Cues of a session's translated turns, one a turn: the translation alone, or under the original. */
export function liveCaptionCues(rows: SavedTranslation[], text: 'translation' | 'both'): Cue[] {
  return rows.map((r) => ({
    start: r.startMs,
    // A cue shorter than the eye can read is held for a second at least.
    end: Math.max(r.endMs, r.startMs + 1000),
    text: text === 'both' ? `${r.original}\n${r.text}` : r.text,
  }));
}
