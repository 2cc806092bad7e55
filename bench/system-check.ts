/**
 * What the system-package check adds to `npm start` and `npm test` when every package is present:
 * in process (npm start imports it) and as its own `node scripts/system-deps.mjs test` (npm test runs
 * it first), next to a bare `node -e ''` start, on this machine's real dpkg database.
 */
import { spawnSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { ensureSystemPackages, loadList, packagesOf, realSystem } from '../scripts/system-deps.mjs';
import { figure } from './_figure';

const root = resolve(import.meta.dirname, '..');
const RUNS = 15;

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] as number;
}

function timeMs(fn: () => void): number {
  const t = process.hrtime.bigint();
  fn();
  return Number(process.hrtime.bigint() - t) / 1e6;
}

const list = loadList();
const quiet = { ...realSystem(), print: () => undefined };
for (const group of ['app', 'test', 'bench']) {
  const first = ensureSystemPackages(group, { strict: true }, quiet, list);
  if (first.missing.length) {
    console.log(`system-check: skipped — ${first.missing.join(', ')} missing here, so the figure would include an install.`);
    process.exit(0);
  }
}

for (const group of ['app', 'test', 'bench']) {
  const inProcess = median(Array.from({ length: RUNS }, () => timeMs(() => ensureSystemPackages(group, { strict: true }, quiet, list))));
  figure(`in process, ${group}, median`, inProcess, 'ms');
  console.log(`in process, ${group.padEnd(5)} (${String(packagesOf(list, group).length).padStart(2)} packages): ${inProcess.toFixed(1)} ms median of ${RUNS}`);
}

const node = process.execPath;
const bare = median(Array.from({ length: RUNS }, () => timeMs(() => spawnSync(node, ['-e', ''], { stdio: 'ignore' }))));
const cli = median(Array.from({ length: RUNS }, () => timeMs(() => spawnSync(node, [join(root, 'scripts/system-deps.mjs'), 'test'], { stdio: 'ignore' }))));
console.log(`node -e '' (a bare Node start):             ${bare.toFixed(1)} ms median of ${RUNS}`);
console.log(
  `node scripts/system-deps.mjs test (npm test): ${cli.toFixed(1)} ms median of ${RUNS}; ${(cli - bare).toFixed(1)} ms over a bare start (${(cli / bare).toFixed(2)}×)`,
);
figure('bare node start, median', bare, 'ms');
figure('npm test check, median', cli, 'ms');
figure('npm test check over a bare start', cli - bare, 'ms');
console.log(`budget: 1000 ms; the npm test check uses ${((cli / 1000) * 100).toFixed(0)}% of it`);
