/** Watch folders and the files taken from them (migration 17): what the watch service remembers across restarts. */
import { randomUUID } from 'node:crypto';
import { AppError } from '../../../shared/errors';
import type { WatchOptions } from '../../../shared/ipc/watch';
import type { Database, LibraryContext } from './db';

export interface WatchFolderRow {
  id: string;
  path: string;
  options: WatchOptions;
  paused: boolean;
  createdAt: string;
}

export interface WatchFileRow {
  path: string;
  folderId: string | null;
  jobId: string | null;
  recordingId: string | null;
  subtitlesWritten: boolean;
}

type FolderSql = { id: string; path: string; options: string; paused: number; created_at: string };
type FileSql = { path: string; folder_id: string | null; job_id: string | null; recording_id: string | null; subtitles_written: number };

const folderOf = (r: FolderSql): WatchFolderRow => ({
  id: r.id,
  path: r.path,
  options: JSON.parse(r.options) as WatchOptions,
  paused: r.paused === 1,
  createdAt: r.created_at,
});
const fileOf = (r: FileSql): WatchFileRow => ({
  path: r.path,
  folderId: r.folder_id,
  jobId: r.job_id,
  recordingId: r.recording_id,
  subtitlesWritten: r.subtitles_written === 1,
});

export class WatchStore {
  constructor(
    private readonly db: Database,
    // Kept for the store's shape (every store gets the context); watch rows are not library items.
    readonly ctx: LibraryContext,
  ) {}

  folders(): WatchFolderRow[] {
    return (this.db.prepare(`SELECT * FROM watch_folders ORDER BY created_at, rowid`).all() as FolderSql[]).map(folderOf);
  }

  folder(id: string): WatchFolderRow {
    const r = this.db.prepare(`SELECT * FROM watch_folders WHERE id = ?`).get(id) as FolderSql | undefined;
    if (!r) throw new AppError('not_found', 'That watch folder is no longer watched.');
    return folderOf(r);
  }

  addFolder(path: string, options: WatchOptions): WatchFolderRow {
    if (this.db.prepare(`SELECT 1 FROM watch_folders WHERE path = ?`).get(path)) throw new AppError('conflict', `“${path}” is already watched.`);
    const id = randomUUID();
    this.db
      .prepare(`INSERT INTO watch_folders (id, path, options, paused, created_at) VALUES (?, ?, ?, 0, ?)`)
      .run(id, path, JSON.stringify(options), new Date().toISOString());
    return this.folder(id);
  }

  updateFolder(id: string, change: { options?: WatchOptions; paused?: boolean }): WatchFolderRow {
    const f = this.folder(id);
    this.db
      .prepare(`UPDATE watch_folders SET options = ?, paused = ? WHERE id = ?`)
      .run(JSON.stringify(change.options ?? f.options), (change.paused ?? f.paused) ? 1 : 0, id);
    return this.folder(id);
  }

  removeFolder(id: string): void {
    this.db.prepare(`DELETE FROM watch_folders WHERE id = ?`).run(id);
  }

  /** Whether this file was taken before (by any folder, in any launch). */
  known(path: string): boolean {
    return this.db.prepare(`SELECT 1 FROM watch_files WHERE path = ?`).get(path) !== undefined;
  }

  /** Which of these files were taken before (by any folder, in any launch): one query for a batch. */
  knownOf(paths: string[]): Set<string> {
    if (paths.length === 0) return new Set();
    const rows = this.db.prepare(`SELECT path FROM watch_files WHERE path IN (${paths.map(() => '?').join(',')})`).all(...paths) as { path: string }[];
    return new Set(rows.map((r) => r.path));
  }

  /** Noted in the same transaction as its job (services/watch): a crash leaves both or neither. */
  remember(path: string, folderId: string, size: number, mtimeMs: number): void {
    this.db
      .prepare(`INSERT OR IGNORE INTO watch_files (path, folder_id, size, mtime_ms, taken_at) VALUES (?, ?, ?, ?, ?)`)
      .run(path, folderId, size, Math.round(mtimeMs), new Date().toISOString());
  }

  setJob(path: string, jobId: string, recordingId: string): void {
    this.db.prepare(`UPDATE watch_files SET job_id = ?, recording_id = ?, error = NULL WHERE path = ?`).run(jobId, recordingId, path);
  }

  setError(path: string, message: string): void {
    this.db.prepare(`UPDATE watch_files SET error = ? WHERE path = ?`).run(message.slice(0, 2000), path);
  }

  byJob(jobId: string): WatchFileRow | null {
    const r = this.db.prepare(`SELECT * FROM watch_files WHERE job_id = ?`).get(jobId) as FileSql | undefined;
    return r ? fileOf(r) : null;
  }

  markSubtitles(path: string): void {
    this.db.prepare(`UPDATE watch_files SET subtitles_written = 1 WHERE path = ?`).run(path);
  }

  /** Files whose subtitles are still to be written (their job may have finished while Verbatim was closed). */
  subtitlesPending(): WatchFileRow[] {
    return (this.db.prepare(`SELECT * FROM watch_files WHERE subtitles_written = 0 AND job_id IS NOT NULL`).all() as FileSql[]).map(fileOf);
  }

  takenCount(folderId: string): number {
    return (this.db.prepare(`SELECT count(*) AS n FROM watch_files WHERE folder_id = ?`).get(folderId) as { n: number }).n;
  }

  /** Job id → folder id, for the newest `limit` files taken. */
  origins(limit = 1000): Record<string, string> {
    const rows = this.db
      .prepare(`SELECT job_id, folder_id FROM watch_files WHERE job_id IS NOT NULL AND folder_id IS NOT NULL ORDER BY taken_at DESC LIMIT ?`)
      .all(limit) as { job_id: string; folder_id: string }[];
    return Object.fromEntries(rows.map((r) => [r.job_id, r.folder_id]));
  }
}
