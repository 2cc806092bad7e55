// `npm run serve`: builds the renderer and host mode (out/host) when missing or
// older than their sources, then starts host mode with the arguments given after `--`.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureHost, newest } from './build-host.mjs';
import { HOST_NODE_FLAGS } from './host-flags.mjs';

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
  const child = spawn(process.execPath, [...HOST_NODE_FLAGS, join(root, 'out', 'host', 'cli.mjs'), ...args], { cwd: root, stdio: 'inherit' });
  for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => child.kill(sig));
  child.on('exit', (code) => process.exit(code ?? 0));
}

if (import.meta.url === `file://${process.argv[1]}`) await runHost(process.argv.slice(2));
