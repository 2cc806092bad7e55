/**
 * Making a backup, whole or not at all: every file is written under a
 * temporary name, synced and renamed, the audio first, then library.json,
 * and manifest.json last with each file's size and SHA-256 and each table's
 * row count. A backup cut short (a crash, a full disk, a copy that stopped)
 * therefore has no manifest, or files that do not match it, and a restore
 * refuses it (backup-manifest.ts). Rows are read from a snapshot on a second,
 * read-only connection, a slice at a time between turns of the event loop,
 * so the app stays responsive and the backup is one consistent moment.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, open, rename, rm, type FileHandle } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import type { Database } from './db';
import { isLibraryAudioName } from './audio';
import { MANIFEST_FILE, type BackupManifest } from './backup-manifest';

/** Main-thread work between two turns of the event loop. */
const SLICE_MS = 20;
/** library.json is written in pieces of about this many characters. */
const PIECE_CHARS = 1 << 20;

export interface WriteProgress {
  done: number;
  total: number;
}

const yieldTurn = () => new Promise<void>((r) => setImmediate(r));

/** A file written under a temporary name beside `path`, hashed as it goes; `commit` syncs and renames it into place. */
class PendingFile {
  readonly tmp: string;
  private readonly hash = createHash('sha256');
  bytes = 0;

  private constructor(
    readonly path: string,
    private readonly fh: FileHandle,
    tmp: string,
  ) {
    this.tmp = tmp;
  }

  static async create(path: string): Promise<PendingFile> {
    const tmp = join(dirname(path), `.${basename(path)}.${randomBytes(4).toString('hex')}.tmp`);
    return new PendingFile(path, await open(tmp, 'wx', 0o600), tmp);
  }

  async write(data: string | Buffer): Promise<void> {
    const buf = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
    this.hash.update(buf);
    for (let at = 0; at < buf.length;) {
      const { bytesWritten } = await this.fh.write(buf, at, buf.length - at);
      at += bytesWritten;
    }
    this.bytes += buf.length;
  }

  /** Synced to the disk, then renamed over `path`: the name only ever holds a whole file. */
  async commit(): Promise<{ bytes: number; sha256: string }> {
    await this.fh.sync();
    await this.fh.close();
    await rename(this.tmp, this.path);
    return { bytes: this.bytes, sha256: this.hash.digest('hex') };
  }

  async discard(): Promise<void> {
    await this.fh.close().catch(() => undefined);
    await rm(this.tmp, { force: true });
  }
}

/** A row as library.json holds it: blobs as {base64}. */
function rowJson(row: Record<string, unknown>): string {
  for (const k in row) {
    const v = row[k];
    if (Buffer.isBuffer(v)) row[k] = { base64: v.toString('base64') };
  }
  return JSON.stringify(row);
}

/** The folder's entry synced, so the renames in it survive a power loss (not possible on Windows: skipped). */
async function syncFolder(dir: string): Promise<void> {
  const fh = await open(dir, 'r').catch(() => null);
  if (!fh) return;
  await fh.sync().catch(() => undefined);
  await fh.close();
}

/**
 * Writes the backup of `tables` into `dir` (which exists and is empty).
 * `db` is the library's connection: its file is opened a second time
 * read-only for the snapshot (an in-memory database is read directly).
 */
export async function writeBackup(
  db: Database,
  audioDir: string,
  dir: string,
  tables: readonly string[],
  progress?: (p: WriteProgress) => void,
): Promise<{ items: number; audioFiles: number }> {
  const file = db.name;
  const snap = file && file !== ':memory:' ? new BetterSqlite3(file, { readonly: true, fileMustExist: true }) : db;
  const pending: PendingFile[] = [];
  try {
    snap.pragma('busy_timeout = 5000');
    // One read transaction: every table as it was at this moment, whatever main writes meanwhile.
    if (snap !== db) snap.exec('BEGIN');
    const counts: Record<string, number> = {};
    for (const t of tables) counts[t] = (snap.prepare(`SELECT count(*) AS n FROM ${t}`).get() as { n: number }).n;
    const audio: string[] = [];
    for (const r of snap.prepare(`SELECT id, audio_file, redacted_audio_file FROM recordings`).all() as {
      id: string;
      audio_file: string | null;
      redacted_audio_file: string | null;
    }[]) {
      if (isLibraryAudioName(r.audio_file, r.id, 'original')) audio.push(r.audio_file);
      if (isLibraryAudioName(r.redacted_audio_file, r.id, 'redacted')) audio.push(r.redacted_audio_file);
    }
    const total = Object.values(counts).reduce((a, b) => a + b, 0) + audio.length;
    let done = 0;
    let lastReport = 0;
    const report = (force = false) => {
      const now = performance.now();
      if (!force && now - lastReport < 100) return;
      lastReport = now;
      progress?.({ done, total });
    };
    report(true);
    const files: BackupManifest['files'] = {};
    await mkdir(join(dir, 'audio'), { recursive: true });
    // The audio first: library.json names only files already whole.
    const buf = Buffer.allocUnsafe(1 << 20);
    for (const name of audio) {
      const src = await open(join(audioDir, name), 'r').catch(() => null);
      done++;
      if (!src) continue; // The recording's file has gone: its row still comes, without audio.
      const out = await PendingFile.create(join(dir, 'audio', name));
      pending.push(out);
      try {
        for (;;) {
          const { bytesRead } = await src.read(buf, 0, buf.length, null);
          if (bytesRead === 0) break;
          await out.write(Buffer.from(buf.subarray(0, bytesRead)));
        }
      } finally {
        await src.close();
      }
      files[`audio/${name}`] = await out.commit();
      pending.pop();
      report();
    }
    const json = await PendingFile.create(join(dir, 'library.json'));
    pending.push(json);
    // Version 2: made with a manifest, and refused without one.
    let piece = `{"format":"verbatim-library","version":2,"exportedAt":${JSON.stringify(new Date().toISOString())},"tables":{`;
    let started = performance.now();
    for (const [ti, t] of tables.entries()) {
      piece += `${ti ? ',' : ''}${JSON.stringify(t)}:[`;
      let first = true;
      // An iterator keeps its connection busy until it ends: only the snapshot's own may stay open across turns
      // (an in-memory database has no second connection, and is read a table at a time).
      const select = snap.prepare(`SELECT * FROM ${t}`);
      const rows = (snap === db ? select.all() : select.iterate()) as Iterable<Record<string, unknown>>;
      for (const row of rows) {
        piece += (first ? '' : ',') + rowJson(row);
        first = false;
        done++;
        if (piece.length >= PIECE_CHARS) {
          await json.write(piece);
          piece = '';
        }
        if (performance.now() - started >= SLICE_MS) {
          await yieldTurn();
          report();
          started = performance.now();
        }
      }
      piece += ']';
    }
    piece += '}}';
    await json.write(piece);
    files['library.json'] = await json.commit();
    pending.pop();
    if (snap !== db) snap.exec('COMMIT');
    // Last: the manifest says the backup is whole.
    const manifest = await PendingFile.create(join(dir, MANIFEST_FILE));
    pending.push(manifest);
    await manifest.write(JSON.stringify({ format: 'verbatim-backup-manifest', version: 1, counts, files } satisfies BackupManifest));
    await manifest.commit();
    pending.pop();
    await syncFolder(join(dir, 'audio'));
    await syncFolder(dir);
    report(true);
    return { items: counts.recordings ?? 0, audioFiles: Object.keys(files).length - 1 };
  } catch (e) {
    for (const p of pending) await p.discard();
    throw e;
  } finally {
    if (snap !== db) snap.close();
  }
}
