/** Schema version 21: the user's summary templates (built-in ones ship with the app and are not stored), and which live summaries are the session's summary at Stop. */
import type { Database } from 'better-sqlite3';

// Shaped as migrations.ts's Migration, not typed by it: that file imports this one, and no import may go both ways.
export const migration21Templates = {
  version: 21,
  name: 'summary templates, summary at Stop',
  up(db: Database): void {
    db.exec(`
      CREATE TABLE summary_templates (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        sections TEXT NOT NULL,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      );
      ALTER TABLE live_summaries ADD COLUMN kind TEXT NOT NULL DEFAULT 'missed';
    `);
  },
};
