// `npm run build:renderer`: the renderer's production build into out/renderer (vite.renderer.config.ts),
// skipped when nothing it is made from changed since the last build: a hash of every file under
// src/renderer and src/shared, the Vite config, package-lock.json and the Node version is kept in
// out/renderer.inputs-hash. `--force` builds anyway. Plain Node ESM with no dependencies.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const out = join(root, 'out', 'renderer');
// Beside out/renderer, not in it: host mode serves every file in out/renderer.
const stamp = join(root, 'out', 'renderer.inputs-hash');

/** Every file below `dir`, sorted, so the hash does not depend on the directory's order. */
function files(dir) {
  return readdirSync(dir, { withFileTypes: true })
    .sort((a, b) => (a.name < b.name ? -1 : 1))
    .flatMap((e) => (e.isDirectory() ? files(join(dir, e.name)) : [join(dir, e.name)]));
}

export function rendererInputsHash() {
  const h = createHash('sha256');
  h.update(process.version);
  const inputs = [
    ...files(join(root, 'src/renderer')),
    ...files(join(root, 'src/shared')),
    join(root, 'vite.renderer.config.ts'),
    join(root, 'package-lock.json'),
  ];
  for (const f of inputs) {
    h.update(relative(root, f));
    h.update('\0');
    h.update(readFileSync(f));
    h.update('\0');
  }
  return h.digest('hex');
}

const hash = rendererInputsHash();
if (!process.argv.includes('--force') && existsSync(join(out, 'index.html')) && existsSync(stamp) && readFileSync(stamp, 'utf8') === hash) {
  console.log('out/renderer is up to date (its sources have not changed since it was built).');
  process.exit(0);
}
const vite = join(root, 'node_modules', '.bin', process.platform === 'win32' ? 'vite.cmd' : 'vite');
const r = spawnSync(vite, ['build', '--config', 'vite.renderer.config.ts'], { cwd: root, stdio: 'inherit' });
if (r.status !== 0) process.exit(r.status ?? 1);
writeFileSync(stamp, hash);
