/** Migration 17: watch folders and the files taken from them, remembered by path so a restart never takes a file twice. */
import type { Database } from 'better-sqlite3';

// Shaped as migrations.ts's Migration, not typed by it: that file imports this one, and no import may go both ways.
export const migration17Watch = {
  version: 17,
  name: 'watch folders',
  up(db: Database): void {
    // A file is remembered by its absolute path, not by folder: a folder removed and added again takes none of its old files.
    db.exec(`
      CREATE TABLE watch_folders (
        id TEXT PRIMARY KEY,
        path TEXT NOT NULL UNIQUE,
        options TEXT NOT NULL,
        paused INTEGER NOT NULL DEFAULT 0,
        created_at TEXT NOT NULL
      );
      CREATE TABLE watch_files (
        path TEXT PRIMARY KEY,
        folder_id TEXT REFERENCES watch_folders(id) ON DELETE SET NULL,
        size INTEGER NOT NULL,
        mtime_ms INTEGER NOT NULL,
        job_id TEXT,
        recording_id TEXT,
        error TEXT,
        subtitles_written INTEGER NOT NULL DEFAULT 0,
        taken_at TEXT NOT NULL
      );
      CREATE INDEX watch_files_job ON watch_files(job_id);
      CREATE INDEX watch_files_folder ON watch_files(folder_id);
    `);
  },
};
