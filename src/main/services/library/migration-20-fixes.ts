/** Schema version 20: the journal of Fix everywhere, so a fix (or its Undo) that runs in slices is whole or absent after a crash. */
import type { Database } from 'better-sqlite3';

// Shaped as migrations.ts's Migration, not typed by it: that file imports this one, and no import may go both ways.
export const migration20Fixes = {
  version: 20,
  name: 'Fix everywhere journal',
  up(db: Database): void {
    // A fix runs a few recordings per transaction; each notes here, in that transaction, the words it changed (fix-store.ts).
    db.exec(`
      CREATE TABLE fix_batches (
        id TEXT PRIMARY KEY,
        state TEXT NOT NULL CHECK (state IN ('applying', 'done', 'undoing')),
        created_at TEXT NOT NULL
      );
      CREATE TABLE fix_batch_words (
        batch_id TEXT NOT NULL REFERENCES fix_batches(id) ON DELETE CASCADE,
        recording_id TEXT NOT NULL,
        transcript_id TEXT NOT NULL,
        words TEXT NOT NULL,
        PRIMARY KEY (batch_id, recording_id)
      ) WITHOUT ROWID;
    `);
  },
};
