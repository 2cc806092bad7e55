/**
 * Host mode's staged uploads (`<data>/uploads/<id>`): what `/upload` writes (a browser cannot give a
 * path), and the one lifecycle every use of them shares. An upload is named by its id only
 * (shared/ipc/files.ts UPLOAD_ID: no dot, no slash). A job keeps its upload as its source until it
 * ends; every other use takes it once (read or moved, then gone); one no job uses is swept after an hour.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { AppError } from '../../../shared/errors';
import { UPLOAD_ID } from '../../../shared/ipc/files';

/** A staged upload no job uses is removed after this long (the tab was closed before it named the upload). */
const UNUSED_MS = 3_600_000;

export class StagedUploads {
  constructor(
    readonly dir: string,
    /** The staged paths jobs use as their source (never taken, never swept). */
    private readonly jobSources: () => Set<string>,
  ) {}

  /** A new upload's id and the two names it is written under: `part` while it arrives, `path` once whole. */
  create(): { id: string; part: string; path: string } {
    mkdirSync(this.dir, { recursive: true });
    const id = randomBytes(12).toString('base64url');
    return { id, part: join(this.dir, `${id}.part`), path: join(this.dir, id) };
  }

  /** Where an upload id's file lies; `bad_request` for an id `/upload` never issues. */
  path(uploadId: string): string {
    if (!UPLOAD_ID.test(uploadId)) throw new AppError('bad_request', 'That upload id is not one Verbatim issued. Choose the file again.');
    return join(this.dir, uploadId);
  }

  /** Whether a job has this staged file as its source. */
  inUse(path: string): boolean {
    return this.jobSources().has(path);
  }

  /** Whether a path names a staged upload (a job's source of kind upload). */
  holds(path: string): boolean {
    return path.startsWith(join(this.dir, '/'));
  }

  /** Remove staged uploads older than an hour that no job uses. */
  sweep(now = Date.now()): void {
    if (!existsSync(this.dir)) return;
    const used = this.jobSources();
    for (const name of readdirSync(this.dir)) {
      const p = join(this.dir, name);
      try {
        if (!used.has(p) && now - statSync(p).mtimeMs > UNUSED_MS) rmSync(p, { force: true });
      } catch {
        // raced with another sweep or a finishing job
      }
    }
  }
}
