/**
 * `npm run serve -- --port 5180 --data DIR`: Verbatim in host mode.
 * Prints exactly one line, the URL to open, as soon as the page can be served.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { Core } from '../core';
import type { Platform } from '../platform/types';
import { createHostPlatform, defaultDataDir } from '../platform/host';
import { newToken, startHostServer } from './server';
import { installLazyStackMaps } from './stack-maps';

/** The project folder: the nearest one above us with a package.json (we run from src/main/host or, bundled, from out/host). */
function projectRoot(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    if (dirname(dir) === dir) throw new Error(`no package.json above ${from}`);
  }
}

const here = dirname(fileURLToPath(import.meta.url));
const root = projectRoot(here);
// Traces from the bundles (out/host and its chunks) name src/…, each map read when first needed.
installLazyStackMaps(here);

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      port: { type: 'string', default: process.env.VERBATIM_PORT ?? '5180' },
      data: { type: 'string' },
      renderer: { type: 'string' },
      folder: { type: 'string', multiple: true },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    process.stdout.write(
      'Usage: npm run serve -- [--port 5180] [--data DIR] [--folder DIR]...\n  --data (or VERBATIM_DATA) chooses the library folder.\n  --folder lets the browser add files by path from inside DIR (otherwise only uploaded files are transcribed).\n',
    );
    return;
  }
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`--port must be a port number, got ${values.port}`);
  const dataDir = resolve(values.data ?? process.env.VERBATIM_DATA ?? defaultDataDir());
  const version = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }).version;

  const platform = createHostPlatform({ dataDir, version });
  // The server listens and the address is printed before the services load (zod's schemas, SQLite,
  // the library, jobs: most of a start). The server starts them once it has answered the page's
  // scripts, so they load while the browser runs those, and the bridge answers once they are up
  // (issue 29: cold start). Nobody opening the page within 2 s starts them too (jobs resume).
  // A failure to start them ends the process, as before.
  let core: Promise<Core> | null = null;
  let started!: (c: Promise<Core>) => void;
  const whenStarted = new Promise<Core>((r) => (started = r));
  const startCore = (): Promise<Core> => {
    if (!core) started((core = loadCore(platform, values.folder ?? [])));
    return core;
  };
  const host = await startHostServer({
    core: startCore,
    token: newToken(),
    rendererDir: values.renderer ?? join(root, 'out', 'renderer'),
    port,
  });
  process.stdout.write(`Verbatim is running in host mode: ${host.url}\n`);
  void prepare();
  setTimeout(() => void host.startServices(), 2000);

  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    await host.close();
    await (await core?.catch(() => null))?.dispose();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());
  await whenStarted;
}

/** A turn of the event loop: the HTTP requests (the page's files) that came in meanwhile are answered first. */
const turn = () => new Promise<void>((r) => setImmediate(r));

/**
 * The first modules the services need, loaded as soon as the address is printed: zod with main's settings
 * (zod-setup.ts: before any schema is built) and the bridge's socket server. Between the address and the
 * page's scripts the process waits on the browser (~40 ms: its navigation, then index.html), and
 * these two steps (~10 ms each, a turn apart) fit in that wait; the larger ones (the contract's schemas,
 * the services) would hold back the page's scripts, and load once they have gone out (loadCore).
 */
let prepared: Promise<void> | null = null;
function prepare(): Promise<void> {
  prepared ??= (async () => {
    await import('../zod-setup');
    await turn();
    await import('ws');
    await turn();
  })();
  return prepared;
}

/**
 * Loads and starts the services in steps, with a turn of the event loop between: each step holds
 * the loop while it runs (loading a module graph and running it is synchronous), and the page's
 * requests are answered in between.
 */
async function loadCore(platform: Platform, folders: string[]): Promise<Core> {
  // zod with main's settings (zod-setup.ts), before the contract's schemas are built.
  await prepare();
  await import('../../shared/ipc');
  await turn();
  const { createCore } = await import('../core');
  await turn();
  // Folders the user named when starting host mode count as picked this session: paths inside them may be added by path.
  // They are known before the core starts anything (a watch folder inside one is watched at once, after a restart too).
  return createCore(platform, (s) => s.kind === 'host' && s.tokenValid, {
    onlyPickedPaths: true,
    hostFolders: folders.map((f) => resolve(f)),
    captions: { silenceMinuteMs: testMinuteMs(process.env.VERBATIM_TEST_SILENCE_MINUTE_MS) },
    watch: testWatchTiming(process.env.VERBATIM_TEST_WATCH_STABLE_MS),
    models: { retryBaseMs: testMs(process.env.VERBATIM_TEST_MODELS_RETRY_MS, 10, 1000) },
  });
}

/** The hostile-mirror test's host sets VERBATIM_TEST_MODELS_RETRY_MS (10 to 1,000 ms): a download's first retry waits that long instead of 1 s. */
function testMs(value: string | undefined, min: number, max: number): number | undefined {
  const ms = Number(value);
  return value && Number.isInteger(ms) && ms >= min && ms <= max ? ms : undefined;
}

/**
 * The power-loss tests' host sets VERBATIM_TEST_WATCH_STABLE_MS (a whole number of milliseconds, 100 to 3,000) so that
 * a watch folder takes a file that held still that long (listed a third as often) instead of 3 s; unset or anything else: 3 s.
 */
function testWatchTiming(value: string | undefined): { stableMs: number; pollMs: number } | undefined {
  const ms = Number(value);
  return value && Number.isInteger(ms) && ms >= 100 && ms <= 3000 ? { stableMs: ms, pollMs: Math.round(ms / 3) } : undefined;
}

/**
 * The end-to-end tests' host sets VERBATIM_TEST_SILENCE_MINUTE_MS (a whole number of milliseconds, 1,000 to
 * 60,000) so that "Still recording?" comes within seconds; unset or anything else: a real minute.
 */
function testMinuteMs(value: string | undefined): number | undefined {
  const ms = Number(value);
  return value && Number.isInteger(ms) && ms >= 1000 && ms <= 60_000 ? ms : undefined;
}

main().catch((err: unknown) => {
  const message = err instanceof Error ? err.message : String(err);
  if ((err as NodeJS.ErrnoException).code === 'EADDRINUSE') {
    process.stderr.write(`Verbatim: port already in use. Pick another with --port.\n`);
  } else {
    process.stderr.write(`Verbatim could not start: ${message}\n`);
  }
  process.exit(1);
});
