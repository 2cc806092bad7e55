/** Where a child process's entry script is, for both child hosts (the native worker and the llama.cpp child): one rule, one place. */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, extname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** A child's entry: `<name>.ts` in `sourceDir` when running from source (through tsx, in development and tests). */
export interface ChildScript {
  name: string;
  sourceDir: string;
}

/**
 * The script to fork for `entry` and the Node arguments it needs: the TypeScript source through tsx when the
 * engine runs from source, else `<name>.js|.mjs` beside the bundle (a bundler may have put this code in a
 * chunk one folder down, so the folder above is looked in too). Throws when the bundle lacks it.
 */
export function childEntry(entry: ChildScript): { script: string; execArgv: string[] } {
  const self = fileURLToPath(import.meta.url);
  const ext = extname(self);
  if (ext === '.ts') {
    const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
    return { script: join(entry.sourceDir, `${entry.name}.ts`), execArgv: ['--import', tsx] };
  }
  const candidates = [dirname(self), dirname(dirname(self))].map((d) => join(d, `${entry.name}${ext}`));
  const script = candidates.find((c) => existsSync(c));
  if (!script) throw new Error(`the worker script ${entry.name} is missing (${candidates[0]}); reinstall or rebuild the app`);
  return { script, execArgv: [] };
}
