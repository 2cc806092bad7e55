/**
 * Changes another process made to the library (the command line beside the app): SQLite's
 * `data_version` moves when another connection commits, so a cheap check finds them, and the
 * recordings they touched are told to listeners as if changed here (the library list refetches,
 * the notes folder writes the new transcript).
 */
import type { Database, LibraryContext } from './db';

export class OutsideChanges {
  private version: number;
  private since: string;
  /** Recordings already told with updated_at equal to `since` (two commits can share a millisecond). */
  private atSince = new Set<string>();

  constructor(
    private readonly db: Database,
    private readonly ctx: LibraryContext,
  ) {
    this.version = this.dataVersion();
    this.since = this.newest();
    const at = this.db.prepare(`SELECT id FROM recordings WHERE updated_at = ?`).all(this.since) as { id: string }[];
    this.atSince = new Set(at.map((r) => r.id));
  }

  private dataVersion(): number {
    return this.db.pragma('data_version', { simple: true }) as number;
  }

  private newest(): string {
    return (this.db.prepare(`SELECT max(updated_at) AS t FROM recordings`).get() as { t: string | null }).t ?? '';
  }

  /** Tells the recordings changed by another connection since the last check; answers their ids. */
  check(): string[] {
    const v = this.dataVersion();
    if (v === this.version) return [];
    this.version = v;
    const found = this.db.prepare(`SELECT id, updated_at AS t FROM recordings WHERE updated_at >= ? ORDER BY updated_at LIMIT 1000`).all(this.since) as {
      id: string;
      t: string;
    }[];
    let rows = found.filter((r) => r.t !== this.since || !this.atSince.has(r.id));
    // Another commit and nothing newer: a recording already told was changed again within the same millisecond
    // (its updated_at did not move), so those at the boundary are told again rather than the change missed.
    if (!rows.length) rows = found.filter((r) => r.t === this.since);
    if (!rows.length) return [];
    const last = rows[rows.length - 1]!.t;
    if (last !== this.since) this.atSince = new Set();
    this.since = last;
    for (const r of rows) if (r.t === last) this.atSince.add(r.id);
    const ids = rows.map((r) => r.id);
    this.ctx.changed(ids, 'updated');
    return ids;
  }
}
