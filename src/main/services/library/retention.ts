/**
 * Audio retention: which recordings' stored audio the user's rule lets go
 * (older than N days, or every finished one), and the letting go itself, in
 * a way that can be undone until the next start. A batch moves the files
 * into `<data>/audio-trash/<batch>/` and clears their columns; Undo moves
 * them back; the next start deletes what is left there. Transcripts, edits,
 * summaries and the recordings themselves are never touched.
 *
 * Crash safety: a batch's list is written (temporary name, fsync, rename)
 * before any file moves, so a start after a crash mid-batch finishes the
 * batch (clears the columns of files it had moved) before deleting.
 */
import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs';
import { join, resolve, sep } from 'node:path';
import { isLibraryAudioName } from './audio';
import type { Database, LibraryContext } from './db';

export type RetentionRule = { mode: 'forever' } | { mode: 'days'; days: number } | { mode: 'transcribed' };

export interface TrashEntry {
  recordingId: string;
  original: string | null;
  redacted: string | null;
  bytes: number;
}

export interface TrashBatch {
  id: string;
  at: string;
  entries: TrashEntry[];
}

const BATCH = /^[0-9]{13}-[0-9a-z]{1,12}$/;

export class RetentionStore {
  readonly trashDir: string;

  constructor(
    private readonly db: Database,
    private readonly ctx: LibraryContext,
  ) {
    this.trashDir = join(ctx.dataDir, 'audio-trash');
  }

  /**
   * Up to `limit` recordings whose stored audio the rule lets go, oldest first: finished
   * (a completed transcript, so never a job still running or a live session still recording)
   * and, with `days`, made before that many days ago.
   */
  due(rule: RetentionRule, limit: number, now = Date.now()): Omit<TrashEntry, 'bytes'>[] {
    if (rule.mode === 'forever') return [];
    const before = rule.mode === 'days' ? new Date(now - rule.days * 86_400_000).toISOString() : new Date(now + 86_400_000).toISOString();
    const rows = this.db
      .prepare(
        `SELECT r.id, r.audio_file, r.redacted_audio_file FROM recordings r
         WHERE (r.audio_file IS NOT NULL OR r.redacted_audio_file IS NOT NULL) AND r.created_at < ?
           AND EXISTS (SELECT 1 FROM transcripts t WHERE t.recording_id = r.id AND t.status = 'completed')
           AND NOT EXISTS (SELECT 1 FROM transcripts t WHERE t.recording_id = r.id AND t.status NOT IN ('completed', 'error', 'canceled'))
         ORDER BY r.created_at LIMIT ?`,
      )
      .all(before, limit) as { id: string; audio_file: string | null; redacted_audio_file: string | null }[];
    return rows.map((r) => ({ recordingId: r.id, original: r.audio_file, redacted: r.redacted_audio_file }));
  }

  /** A new batch's folder and list, written before any file moves. */
  open(entries: TrashEntry[], now = Date.now()): TrashBatch {
    const batch: TrashBatch = { id: `${now}-${Math.random().toString(36).slice(2, 10)}`, at: new Date(now).toISOString(), entries };
    mkdirSync(join(this.trashDir, batch.id), { recursive: true });
    this.writeList(batch);
    return batch;
  }

  /** The batch with more entries, its list written again before their files move. */
  extend(batch: TrashBatch, entries: TrashEntry[]): TrashBatch {
    const next = { ...batch, entries: [...batch.entries, ...entries] };
    this.writeList(next);
    return next;
  }

  private writeList(batch: TrashBatch): void {
    const list = join(this.trashDir, batch.id, 'batch.json');
    const fd = openSync(`${list}.tmp`, 'w');
    try {
      writeSync(fd, JSON.stringify(batch));
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(`${list}.tmp`, list);
  }

  /** Moves one recording's files into the batch's folder and clears their columns (a file already gone only clears). */
  trash(batch: TrashBatch, e: TrashEntry): void {
    for (const [kind, name] of [
      ['original', e.original],
      ['redacted', e.redacted],
    ] as const) {
      if (!name || !isLibraryAudioName(name, e.recordingId, kind)) continue;
      const from = this.inside(this.ctx.audioDir, name);
      const to = this.inside(join(this.trashDir, batch.id), name);
      if (from && to && existsSync(from)) renameSync(from, to);
    }
    this.db
      .prepare(
        `UPDATE recordings SET audio_file = CASE WHEN audio_file = ? THEN NULL ELSE audio_file END,
           redacted_audio_file = CASE WHEN redacted_audio_file = ? THEN NULL ELSE redacted_audio_file END WHERE id = ?`,
      )
      .run(e.original, e.redacted, e.recordingId);
  }

  /** Undo: each file back in the audio folder and its column set again, unless the recording was deleted or has new audio. */
  restore(batchId: string): string[] {
    const batch = this.read(batchId);
    if (!batch) return [];
    const back: string[] = [];
    for (const e of batch.entries) {
      const row = this.db.prepare(`SELECT audio_file, redacted_audio_file FROM recordings WHERE id = ?`).get(e.recordingId) as
        { audio_file: string | null; redacted_audio_file: string | null } | undefined;
      if (!row) continue;
      let moved = false;
      for (const [kind, name, col, now] of [
        ['original', e.original, 'audio_file', row.audio_file],
        ['redacted', e.redacted, 'redacted_audio_file', row.redacted_audio_file],
      ] as const) {
        if (!name || now !== null || !isLibraryAudioName(name, e.recordingId, kind)) continue;
        const from = this.inside(join(this.trashDir, batch.id), name);
        const to = this.inside(this.ctx.audioDir, name);
        if (!from || !to || !existsSync(from)) continue;
        renameSync(from, to);
        this.db.prepare(`UPDATE recordings SET ${col} = ? WHERE id = ?`).run(name, e.recordingId);
        moved = true;
      }
      if (moved) back.push(e.recordingId);
    }
    rmSync(join(this.trashDir, batch.id), { recursive: true, force: true });
    return back;
  }

  /** The batches still in the trash (undoable until purged). */
  batches(): string[] {
    if (!existsSync(this.trashDir)) return [];
    return readdirSync(this.trashDir).filter((n) => BATCH.test(n));
  }

  /**
   * At start: every batch left from before is finished (columns of moved files cleared, in
   * case a crash came between a move and its update) and deleted for good. Returns the files deleted.
   */
  purge(): number {
    let files = 0;
    for (const id of this.batches()) {
      const batch = this.read(id);
      const dir = join(this.trashDir, id);
      for (const e of batch?.entries ?? []) {
        for (const name of [e.original, e.redacted]) {
          const p = name ? this.inside(dir, name) : null;
          if (!p || !existsSync(p)) continue;
          this.db
            .prepare(
              `UPDATE recordings SET audio_file = CASE WHEN audio_file = ? THEN NULL ELSE audio_file END,
                 redacted_audio_file = CASE WHEN redacted_audio_file = ? THEN NULL ELSE redacted_audio_file END WHERE id = ?`,
            )
            .run(name, name, e.recordingId);
          files++;
        }
      }
      rmSync(dir, { recursive: true, force: true });
    }
    return files;
  }

  private read(batchId: string): TrashBatch | null {
    if (!BATCH.test(batchId)) return null;
    try {
      const b = JSON.parse(readFileSync(join(this.trashDir, batchId, 'batch.json'), 'utf8')) as TrashBatch;
      return b && b.id === batchId && Array.isArray(b.entries) ? b : null;
    } catch {
      return null;
    }
  }

  /** `name` inside `dir`, or null when it could escape it. */
  private inside(dir: string, name: string): string | null {
    const root = resolve(dir);
    const p = resolve(root, name);
    return p.startsWith(root + sep) && !name.includes('/') && !name.includes('\\') ? p : null;
  }
}
