// `npm run bench [-- name-filter]`: runs every benchmark under bench/ in turn
// (each prints its own figures and ratios) and a one-line summary at the end.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureHost } from './build-host.mjs';
import { ensureSystemPackages } from './system-deps.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const filter = process.argv[2] ?? '';
const benches = readdirSync(join(root, 'bench'))
  .filter((f) => f.endsWith('.ts') && !f.startsWith('_') && f.includes(filter))
  .sort();

if (benches.length === 0) {
  console.log(`No benchmark matches "${filter}".`);
  process.exit(1);
}
// The engine, the tests' tools and the accuracy benchmark's voices: installed where it may, else stop with the command.
if (!ensureSystemPackages('bench', { strict: true }).ok) process.exit(1);
// The UI benchmarks run what users run: the built renderer and host mode.
const prep = spawnSync('npm', ['run', '-s', 'build:renderer'], { cwd: root, stdio: 'inherit' });
if (prep.status !== 0) process.exit(prep.status ?? 1);
await ensureHost();
const results = [];
for (const file of benches) {
  console.log(`\n=== bench/${file} ===`);
  const started = Date.now();
  // Arguments after the name go to the benchmark (npm run bench -- accuracy --model DIR).
  const r = spawnSync(join(root, 'node_modules', '.bin', 'tsx'), [join(root, 'bench', file), ...process.argv.slice(3)], { cwd: root, stdio: 'inherit' });
  results.push({ file, ok: r.status === 0, seconds: ((Date.now() - started) / 1000).toFixed(1) });
}
console.log('\n=== summary ===');
for (const r of results) console.log(`${r.ok ? 'ok  ' : 'FAIL'} ${r.file} (${r.seconds} s)`);
process.exit(results.every((r) => r.ok) ? 0 : 1);
