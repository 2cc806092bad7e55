/** Schema step 18: the words a user accepted in review (doubtful, checked, kept as heard), so the count of words left survives a reload. */
import type { Database } from 'better-sqlite3';

// Shaped as migrations.ts's Migration without importing it: that file imports this one.
export const migration18 = {
  version: 18,
  name: 'review: accepted words',
  up(db: Database): void {
    // By word index, as word_corrections keeps corrections: a correction never adds or removes words, so the indexes hold.
    db.exec(`
      CREATE TABLE review_accepted (
        transcript_id TEXT NOT NULL REFERENCES transcripts(id) ON DELETE CASCADE,
        word_index INTEGER NOT NULL,
        PRIMARY KEY (transcript_id, word_index)
      ) WITHOUT ROWID;
    `);
  },
};
