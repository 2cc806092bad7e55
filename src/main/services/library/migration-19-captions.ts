/** Schema version 19: what a live session keeps besides its turns: each final turn's translation, and the "What did I miss?" summaries asked during it. */
import type { Database } from 'better-sqlite3';

// Shaped as migrations.ts's Migration, not typed by it: that file imports this one, and no import may go both ways.
export const migration19Captions = {
  version: 19,
  name: 'live translations and summaries',
  up(db: Database): void {
    // Kept after the session ends (live_turns is emptied then): the SRT/VTT export can take the translation, and the summaries stay with the session.
    db.exec(`
      CREATE TABLE live_translations (
        recording_id TEXT NOT NULL REFERENCES recordings(id) ON DELETE CASCADE,
        key TEXT NOT NULL,
        start_ms INTEGER NOT NULL,
        end_ms INTEGER NOT NULL,
        original TEXT NOT NULL,
        language TEXT NOT NULL,
        text TEXT NOT NULL,
        PRIMARY KEY (recording_id, key)
      ) WITHOUT ROWID;
      CREATE TABLE live_summaries (
        id TEXT PRIMARY KEY,
        recording_id TEXT NOT NULL REFERENCES recordings(id) ON DELETE CASCADE,
        from_ms INTEGER NOT NULL,
        to_ms INTEGER NOT NULL,
        status TEXT NOT NULL,
        content TEXT NOT NULL,
        citations TEXT NOT NULL DEFAULT '[]',
        model TEXT,
        extractive INTEGER NOT NULL DEFAULT 0,
        error TEXT,
        created_at TEXT NOT NULL
      );
      CREATE INDEX live_summaries_recording ON live_summaries(recording_id, created_at);
    `);
  },
};
