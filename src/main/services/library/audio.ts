/**
 * The library's audio folder: the one way files enter it (attach), the only
 * answer to "where is this recording's audio" (path), and removal. Every name
 * is one the library made itself (`<recording id>[.redacted].<ext>`) and every
 * path is resolved inside the folder, whatever the database or a backup says.
 */
import { copyFileSync, existsSync, renameSync, rmSync, statSync } from 'node:fs';
import { extname, resolve, sep } from 'node:path';
import type { Database, LibraryContext } from './db';

export type AudioKind = 'original' | 'redacted';

const ID = '[0-9A-Za-z-]{1,64}';
const EXT = '[0-9A-Za-z_+-]{1,9}';
const NAME = new RegExp(`^(${ID})(\\.redacted)?\\.${EXT}$`);

/** The name the library gives a recording's audio. */
export function audioName(recordingId: string, kind: AudioKind, sourceName: string): string {
  const ext =
    extname(sourceName)
      .slice(1, 10)
      .replace(/[^0-9A-Za-z_+-]/g, '') || 'audio';
  return `${recordingId}${kind === 'redacted' ? '.redacted' : ''}.${ext}`;
}

/** True for a name this library could have made for this recording and kind (backups are checked with it). */
export function isLibraryAudioName(name: unknown, recordingId: string, kind: AudioKind): name is string {
  if (typeof name !== 'string') return false;
  const m = NAME.exec(name);
  return m !== null && m[1] === recordingId && (m[2] !== undefined) === (kind === 'redacted');
}

export class AudioStore {
  constructor(
    private readonly db: Database,
    private readonly ctx: LibraryContext,
  ) {}

  /** Whether `path` is one of the library's own copies (inside the audio folder). */
  isLibraryCopy(path: string): boolean {
    return resolve(path).startsWith(resolve(this.ctx.audioDir) + sep);
  }

  /** A path inside the audio folder for a stored name, or null when the name could escape it. */
  private inside(name: string): string | null {
    if (name !== name.trim() || name.includes('/') || name.includes('\\') || name === '.' || name === '..') return null;
    const root = resolve(this.ctx.audioDir);
    const p = resolve(root, name);
    return p.startsWith(root + sep) ? p : null;
  }

  /**
   * Put a file into the library as a recording's audio (copied, or moved when
   * it is the library's own staged file) and record it. The extension comes
   * from `name` (the file the user dropped) or the source. Returns the stored name.
   */
  attach(recordingId: string, sourcePath: string, kind: AudioKind = 'original', opts: { move?: boolean; name?: string } = {}): string {
    const name = audioName(recordingId, kind, opts.name ?? sourcePath);
    const dest = this.inside(name);
    if (!dest || !isLibraryAudioName(name, recordingId, kind)) throw new Error(`not a library audio name: ${name}`);
    if (opts.move) {
      try {
        renameSync(sourcePath, dest);
      } catch {
        // Another device: copy, then drop the staged file.
        copyFileSync(sourcePath, dest);
        rmSync(sourcePath, { force: true });
      }
    } else copyFileSync(sourcePath, dest);
    const col = kind === 'original' ? 'audio_file' : 'redacted_audio_file';
    this.db.prepare(`UPDATE recordings SET ${col} = ? WHERE id = ?`).run(name, recordingId);
    return name;
  }

  /**
   * Absolute path of a recording's audio: the library's copy, else (original
   * only) the desktop-picked file it came from if it is still there; null when neither.
   */
  path(recordingId: string, kind: AudioKind = 'original'): string | null {
    const row = this.db.prepare(`SELECT audio_file, redacted_audio_file, original_path FROM recordings WHERE id = ?`).get(recordingId) as
      { audio_file: string | null; redacted_audio_file: string | null; original_path: string | null } | undefined;
    if (!row) return null;
    const name = kind === 'original' ? row.audio_file : row.redacted_audio_file;
    if (name && isLibraryAudioName(name, recordingId, kind)) {
      const p = this.inside(name);
      if (p && existsSync(p)) return p;
    }
    // original_path is written only for files the user picked on the desktop (never from a backup or a typed path).
    if (kind === 'original' && row.original_path && existsSync(row.original_path) && statSync(row.original_path).isFile()) return row.original_path;
    return null;
  }

  fileSize(recordingId: string): number | null {
    const p = this.path(recordingId);
    return p ? statSync(p).size : null;
  }

  /** Remove a recording's stored files; names that are not the library's own are left alone. */
  remove(recordingId: string, files: { original: string | null; redacted: string | null }): void {
    for (const [kind, name] of [
      ['original', files.original],
      ['redacted', files.redacted],
    ] as const) {
      if (!isLibraryAudioName(name, recordingId, kind)) continue;
      const p = this.inside(name);
      if (p) rmSync(p, { force: true });
    }
  }
}
