// `npm run serve`: builds the renderer and host mode (out/host) when missing or
// older than their sources, then starts host mode with the arguments given after `--`.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureHost, newest } from './build-host.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const bin = (name) => join(root, 'node_modules', '.bin', process.platform === 'win32' ? `${name}.cmd` : name);

export function ensureRenderer() {
  const built = join(root, 'out', 'renderer', 'index.html');
  const stale = !existsSync(built) || statSync(built).mtimeMs < Math.max(newest(join(root, 'src', 'renderer')), newest(join(root, 'src', 'shared')));
  if (!stale) return;
  process.stderr.write('Building the interface (once per change)…\n');
  const r = spawnSync(bin('vite'), ['build', '--config', 'vite.renderer.config.ts', '--logLevel', 'warn'], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

export async function runHost(args) {
  ensureRenderer();
  await ensureHost();
  // --min-semi-space-size: a 32 MB young generation from the start, so loading the services (modules and schemas;
  // the heap reaches ~27 MB) runs without a scavenge: with the default there were a dozen (~20 ms of CPU before
  // the page is answered: cold start), with 16 MB one of ~7 ms. The resident size 4 s after the start is no larger
  // (~102 MB, against ~107 MB with 16). tests/e2e/host.ts starts host mode with the same flags.
  const flags = ['--enable-source-maps', '--min-semi-space-size=32'];
  const child = spawn(process.execPath, [...flags, join(root, 'out', 'host', 'cli.mjs'), ...args], { cwd: root, stdio: 'inherit' });
  for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => child.kill(sig));
  child.on('exit', (code) => process.exit(code ?? 0));
}

if (import.meta.url === `file://${process.argv[1]}`) await runHost(process.argv.slice(2));
