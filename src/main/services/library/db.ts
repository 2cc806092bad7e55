/** The library's one database: opened with its pragmas and migrations, and the context (folders, change events) every store is built with. */
import BetterSqlite3, { type Database } from 'better-sqlite3';
import { AppError } from '../../../shared/errors';
import { migrate } from './migrations';

export type { Database };

export function openDatabase(file: string): Database {
  const db = new BetterSqlite3(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  migrate(db);
  return db;
}

export type LibraryChangeReason = 'added' | 'updated' | 'deleted' | 'imported';
export type LibraryChange = { ids: string[]; reason: LibraryChangeReason };

/** What every store is handed beside the database: `new XStore(db, ctx)`. */
export interface LibraryContext {
  dataDir: string;
  /** The only folder audio is kept in; files enter it through AudioStore.attach. */
  audioDir: string;
  /** Tell listeners (the renderer's library view) which recordings changed. */
  changed(ids: string[], reason: LibraryChangeReason): void;
}

/** The listeners of `library.onChange`. */
export class ChangeFeed {
  private readonly listeners = new Set<(c: LibraryChange) => void>();

  on(listener: (c: LibraryChange) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  emit(ids: string[], reason: LibraryChangeReason): void {
    for (const l of this.listeners) l({ ids, reason });
  }
}

/** SQL for "the newest transcript of recording r" (a recording may be transcribed again). */
export const LATEST_TRANSCRIPT_OF_R = `(SELECT id FROM transcripts WHERE recording_id = r.id ORDER BY created_at DESC, rowid DESC LIMIT 1)`;

export function recordingOf(db: Database, transcriptId: string): string {
  const row = db.prepare(`SELECT recording_id FROM transcripts WHERE id = ?`).get(transcriptId) as { recording_id: string } | undefined;
  if (!row) throw new AppError('not_found', 'This transcript is no longer in the library.');
  return row.recording_id;
}

export function touch(db: Database, recordingId: string): void {
  db.prepare(`UPDATE recordings SET updated_at = ? WHERE id = ?`).run(new Date().toISOString(), recordingId);
}
