// Builds host mode for plain Node: main's host entry and the local engine
// bundled into out/host (our code in one file each; packages stay in
// node_modules), so `npm run serve` starts without compiling TypeScript on the
// fly (about 200 ms instead of 450). Skips the work when out/host is newer
// than every source it is made from.
import { copyFileSync, existsSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const out = join(root, 'out', 'host');
const sources = ['src/main', 'src/shared', 'src/engine'].map((d) => join(root, d));

/** The newest modification time of any file below `dir` (ms). */
export function newest(dir) {
  let t = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, entry.name);
    t = Math.max(t, entry.isDirectory() ? newest(p) : statSync(p).mtimeMs);
  }
  return t;
}

export async function ensureHost({ force = false } = {}) {
  const outputs = ['cli.mjs', 'cli-main.mjs', 'engine.mjs', 'native-child.mjs', 'llama-child.mjs', 'library-worker.mjs', 'engine-guard.mjs'].map((f) =>
    join(out, f),
  );
  const built = outputs.every((f) => existsSync(f)) ? Math.min(...outputs.map((f) => statSync(f).mtimeMs)) : 0;
  if (!force && built > Math.max(...sources.map(newest), statSync(join(root, 'package.json')).mtimeMs)) return false;
  mkdirSync(out, { recursive: true });
  await build({
    entryPoints: {
      // out/host/cli.mjs is src/main/host/entry.mjs: the compile cache first, then this bundle.
      'cli-main': join(root, 'src/main/host/cli.ts'),
      engine: join(root, 'src/engine/index.ts'),
      // The engine forks it for native work that can crash (src/engine/native/child-host.ts).
      'native-child': join(root, 'src/engine/native/child.ts'),
      // The gateway forks it to run local GGUF chat models (src/engine/gateway/llama-host.ts).
      'llama-child': join(root, 'src/engine/gateway/llama-child.ts'),
      // The library's worker thread for heavy subtitle work (src/main/services/library/library-offload.ts).
      'library-worker': join(root, 'src/main/services/library/library-worker.ts'),
    },
    outdir: out,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node22',
    packages: 'external',
    sourcemap: 'linked',
    logLevel: 'warning',
  });
  copyFileSync(join(root, 'src/main/platform/host/engine-guard.mjs'), join(out, 'engine-guard.mjs'));
  copyFileSync(join(root, 'src/main/host/entry.mjs'), join(out, 'cli.mjs'));
  return true;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const made = await ensureHost({ force: process.argv.includes('--force') });
  if (made) process.stderr.write('Built host mode into out/host.\n');
}
