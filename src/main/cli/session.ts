/**
 * How the command line opens a data folder: beside the app, never instead of it. The library is a
 * second connection to the same SQLite file (WAL: readers never wait; each write is a short
 * transaction that waits up to busy_timeout for the app's), opened as a guest (core.ts: it undoes
 * no backup import, resumes none of the app's jobs, sweeps none of its downloads). The local engine
 * the command line starts keeps its work in a folder of its own for the run: an engine starting on
 * the app's engine folder would take the app engine's unfinished jobs as its own.
 */
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Core } from '../core';
import { createHostPlatform, defaultDataDir } from '../platform/host';
import type { EngineLauncher } from '../platform/types';
import type { Library } from '../services/library/library';
import { CliError } from './errors';

/** Where the desktop app keeps its library (Electron's userData for the product name Verbatim). */
export function desktopDataDir(): string {
  if (process.platform === 'darwin') return join(homedir(), 'Library', 'Application Support', 'Verbatim');
  if (process.platform === 'win32') return join(process.env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'), 'Verbatim');
  return join(process.env.XDG_CONFIG_HOME ?? join(homedir(), '.config'), 'Verbatim');
}

/** --data, else VERBATIM_DATA, else host mode's folder, unless only the desktop app's has a library. */
export function dataDirOf(flag: string | undefined): string {
  const given = flag ?? process.env.VERBATIM_DATA;
  if (given) return resolve(given);
  const host = defaultDataDir();
  const desktop = desktopDataDir();
  return !existsSync(join(host, 'library.sqlite')) && existsSync(join(desktop, 'library.sqlite')) ? desktop : host;
}

/** The project folder: the nearest one above this module with a package.json (src/main/cli or out/host). */
export function projectRoot(): string {
  for (let dir = dirname(fileURLToPath(import.meta.url)); ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    if (dirname(dir) === dir) return process.cwd();
  }
}

export function appVersion(): string {
  try {
    return (JSON.parse(readFileSync(join(projectRoot(), 'package.json'), 'utf8')) as { version: string }).version;
  } catch {
    return '0.0.0';
  }
}

/** The library alone (search, export, the MCP server's reading): no engine, no jobs. */
export async function openLibrary(dataDir: string): Promise<Library> {
  const file = join(dataDir, 'library.sqlite');
  if (!existsSync(file)) throw new CliError(`There is no Verbatim library in ${dataDir}. Name the app's data folder with --data DIR (or VERBATIM_DATA).`);
  await import('../zod-setup');
  const [{ Library }, { openDatabase }] = await Promise.all([import('../services/library/library'), import('../services/library/db')]);
  return busyAsInUse(dataDir, () => new Library(dataDir, openDatabase(file)));
}

/** An engine launcher whose engine keeps its jobs in `dir` instead of the app engine's folder. */
function ownEngineFolder(inner: EngineLauncher, dir: string): EngineLauncher {
  return {
    launch(args, env) {
      const i = args.indexOf('--data');
      const own = i >= 0 ? [...args.slice(0, i + 1), dir, ...args.slice(i + 2)] : args;
      // Its jobs are over when the command line stops it (each has its answer): nothing to wait for.
      return inner.launch([...own, '--drain-seconds', '0'], env);
    },
  };
}

export interface CliCore {
  core: Core;
  close(): Promise<void>;
}

/** Every service, as the app has them, as a guest on `dataDir`. */
export async function openCore(dataDir: string, log: (m: string) => void): Promise<CliCore> {
  const platform = createHostPlatform({ dataDir, version: appVersion() });
  const engineDir = join(dataDir, 'engine-cli', String(process.pid));
  mkdirSync(engineDir, { recursive: true });
  platform.engine = ownEngineFolder(platform.engine, engineDir);
  await import('../zod-setup');
  const { createCore } = await import('../core');
  const core = busyAsInUse(dataDir, () => createCore(platform, () => false, { guest: true, log }));
  return {
    core,
    async close() {
      await core.dispose();
      rmSync(engineDir, { recursive: true, force: true });
    },
  };
}

/** SQLite's "busy" past its wait: the app holds the library (a backup restore, a large import). */
export function busyAsInUse<T>(dataDir: string, fn: () => T): T {
  try {
    return fn();
  } catch (e) {
    throw inUse(dataDir, e) ?? e;
  }
}

export function inUse(dataDir: string, e: unknown): CliError | null {
  const code = (e as { code?: string } | null)?.code ?? '';
  if (!code.startsWith('SQLITE_BUSY') && !code.startsWith('SQLITE_LOCKED')) return null;
  return new CliError(
    `The library in ${dataDir} is in use: the Verbatim app has held it for over 5 seconds (restoring a backup or importing a large file?). Try again when it is done.`,
  );
}
