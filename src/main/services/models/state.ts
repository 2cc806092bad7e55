/**
 * What the manager keeps across restarts, in `<models>/.verbatim-state.json`:
 * the downloads under way (so one interrupted by a quit resumes) and, per
 * model id, the SHA-256 its archive was verified against (upstream's
 * published list, the catalog's, or the first download's where upstream
 * publishes none). Written to a temporary name and renamed; a write that
 * fails (a full disk) is logged, never thrown at the download it serves.
 */
import { rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { readSmallJsonSync } from './regular-file';

const sha256Schema = z.string().regex(/^[0-9a-f]{64}$/);

/** Where a verified SHA-256 came from: upstream's list, the catalog, or trust on first use. */
export const trustSourceSchema = z.enum(['published', 'catalog', 'first']);

const stateSchema = z.object({
  downloads: z.record(z.string(), z.object({ state: z.enum(['downloading', 'paused']), url: z.string() })).catch(() => ({})),
  // Keyed by model id. (Older files kept `recorded`, keyed by archive name, which two models can share: dropped on load.)
  verified: z.record(z.string(), z.object({ sha256: sha256Schema, bytes: z.number().int().positive(), source: trustSourceSchema })).catch(() => ({})),
});
export type ManagerState = z.infer<typeof stateSchema>;
export type Verified = ManagerState['verified'][string];

export class StateFile {
  private state: ManagerState;
  private writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly dir: string,
    private readonly log: (m: string) => void = () => undefined,
  ) {
    // None yet, or unreadable (or not a regular file): start empty.
    const parsed = stateSchema.safeParse(readSmallJsonSync(this.path) ?? {});
    this.state = parsed.success ? parsed.data : { downloads: {}, verified: {} };
  }

  private get path(): string {
    return join(this.dir, '.verbatim-state.json');
  }

  get(): Readonly<ManagerState> {
    return this.state;
  }

  /** Change the state in memory at once and write it behind; resolves when written or when the write failed (logged). */
  update(fn: (s: ManagerState) => void): Promise<void> {
    fn(this.state);
    const text = JSON.stringify(this.state);
    this.writing = this.writing.then(async () => {
      const tmp = `${this.path}.tmp`;
      try {
        await writeFile(tmp, text);
        await rename(tmp, this.path);
      } catch (err) {
        this.log(`models: could not save the download state (${err instanceof Error ? err.message : String(err)})`);
      }
    });
    return this.writing;
  }

  flushed(): Promise<void> {
    return this.writing;
  }
}
