/**
 * What the manager keeps across restarts, in `<models>/.verbatim-state.json`:
 * the downloads under way (so one interrupted by a quit resumes) and the
 * SHA-256 and size recorded on the first download of an archive upstream
 * publishes none for. Written to a temporary name and renamed.
 */
import { readFileSync } from 'node:fs';
import { rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';

const stateSchema = z.object({
  downloads: z.record(z.string(), z.object({ state: z.enum(['downloading', 'paused']), url: z.string() })).catch(() => ({})),
  recorded: z.record(z.string(), z.object({ sha256: z.string().regex(/^[0-9a-f]{64}$/), bytes: z.number().int().positive() })).catch(() => ({})),
});
export type ManagerState = z.infer<typeof stateSchema>;

export class StateFile {
  private state: ManagerState;
  private writing: Promise<void> = Promise.resolve();

  constructor(private readonly dir: string) {
    let raw: unknown = {};
    try {
      raw = JSON.parse(readFileSync(this.path, 'utf8'));
    } catch {
      // none yet, or unreadable: start empty
    }
    const parsed = stateSchema.safeParse(raw);
    this.state = parsed.success ? parsed.data : { downloads: {}, recorded: {} };
  }

  private get path(): string {
    return join(this.dir, '.verbatim-state.json');
  }

  get(): Readonly<ManagerState> {
    return this.state;
  }

  update(fn: (s: ManagerState) => void): Promise<void> {
    fn(this.state);
    const text = JSON.stringify(this.state);
    this.writing = this.writing.then(async () => {
      const tmp = `${this.path}.tmp`;
      await writeFile(tmp, text);
      await rename(tmp, this.path);
    });
    return this.writing;
  }

  flushed(): Promise<void> {
    return this.writing;
  }
}
