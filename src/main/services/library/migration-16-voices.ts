/** Migration 16: voices — each transcript's turn voiceprints (re-clustering without recognition), its speaker note, and the voices a user named (People). */
import type { Database } from 'better-sqlite3';

// Shaped as migrations.ts's Migration, not typed by it: that file imports this one, and no import may go both ways.
export const migration16Voices = {
  version: 16,
  name: 'voices: turn voiceprints, remembered voices',
  up(db: Database): void {
    // Vectors are little-endian float32 blobs of one model's embedding (`model`): prints of different models never compare.
    db.exec(`
      CREATE TABLE turn_voices (
        transcript_id TEXT NOT NULL REFERENCES transcripts(id) ON DELETE CASCADE,
        idx INTEGER NOT NULL,
        first_word INTEGER NOT NULL,
        last_word INTEGER NOT NULL,
        start_ms INTEGER NOT NULL,
        end_ms INTEGER NOT NULL,
        model TEXT NOT NULL,
        vector BLOB,
        PRIMARY KEY (transcript_id, idx)
      ) WITHOUT ROWID;
      CREATE TABLE speaker_notes (
        transcript_id TEXT PRIMARY KEY REFERENCES transcripts(id) ON DELETE CASCADE,
        speakers INTEGER NOT NULL,
        merged INTEGER NOT NULL,
        asked TEXT NOT NULL
      ) WITHOUT ROWID;
      CREATE TABLE voices (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        model TEXT NOT NULL,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      );
      CREATE TABLE voice_prints (
        voice_id TEXT NOT NULL REFERENCES voices(id) ON DELETE CASCADE,
        recording_id TEXT NOT NULL REFERENCES recordings(id) ON DELETE CASCADE,
        speaker TEXT NOT NULL,
        ms INTEGER NOT NULL,
        vector BLOB NOT NULL
      );
      CREATE INDEX voice_prints_voice ON voice_prints(voice_id);
      CREATE INDEX voice_prints_recording ON voice_prints(recording_id);
      CREATE TABLE voice_matches (
        transcript_id TEXT NOT NULL REFERENCES transcripts(id) ON DELETE CASCADE,
        speaker TEXT NOT NULL,
        voice_id TEXT NOT NULL REFERENCES voices(id) ON DELETE CASCADE,
        similarity REAL NOT NULL,
        PRIMARY KEY (transcript_id, speaker)
      ) WITHOUT ROWID;
      CREATE INDEX voice_matches_voice ON voice_matches(voice_id);
    `);
  },
};
