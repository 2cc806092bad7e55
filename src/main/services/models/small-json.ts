/**
 * The models screen's small JSON files (defaults waiting for an install, speed tests, the first-run offer): each
 * write goes after the one before, lands whole by a rename, and never fails the action that wrote it.
 */
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';

export class SmallJsonFile {
  private writing: Promise<void> = Promise.resolve();

  constructor(readonly path: string) {}

  /** Writes `value` after any write still under way; resolves once it is on disk (or failed quietly). */
  write(value: unknown): Promise<void> {
    const text = JSON.stringify(value);
    this.writing = this.writing.then(async () => {
      // A convenience: a write that fails (a full disk) leaves the previous file; the value is kept in memory for this run.
      try {
        await mkdir(dirname(this.path), { recursive: true });
        await writeFile(`${this.path}.tmp`, text);
        await rename(`${this.path}.tmp`, this.path);
      } catch {
        // Kept in memory for this run.
      }
    });
    return this.writing;
  }

  /** Resolves once every write asked for so far has ended. */
  settled(): Promise<void> {
    return this.writing;
  }
}
