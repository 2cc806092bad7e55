// Runs npm scripts side by side and prints each one's output whole, in the order given, once it has
// ended: `node scripts/parallel.mjs typecheck lint format:check`. Each of those checks keeps one core
// busy, so on a machine with two cores or more they take the time of the longest instead of the sum.
// Exits with the first failing script's code (every script still runs to its end).
// Plain Node ESM with no dependencies, like system-deps.mjs.
import { spawn } from 'node:child_process';

const names = process.argv.slice(2);
if (names.length === 0) {
  console.error('Usage: node scripts/parallel.mjs SCRIPT [SCRIPT…] (npm script names)');
  process.exit(2);
}

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

/** One script's run: its output (stdout and stderr as they came) and exit code. */
function run(name) {
  const started = Date.now();
  return new Promise((resolve) => {
    const out = [];
    const child = spawn(npm, ['run', '--silent', name], { stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.on('data', (b) => out.push(b));
    child.stderr.on('data', (b) => out.push(b));
    child.on('error', (e) => resolve({ name, code: 1, out: [Buffer.from(`${e.message}\n`)], ms: Date.now() - started }));
    child.on('close', (code, signal) => resolve({ name, code: code ?? (signal ? 1 : 0), out, ms: Date.now() - started }));
  });
}

const runs = names.map(run);
let failed = 0;
// Printed in the order given, each as soon as it and those before it have ended.
for (const p of runs) {
  const r = await p;
  process.stdout.write(`\n> npm run ${r.name}\n`);
  for (const b of r.out) process.stdout.write(b);
  process.stdout.write(`${r.code === 0 ? '✓' : '✘'} ${r.name} ${r.code === 0 ? 'passed' : `failed (exit ${r.code})`} in ${(r.ms / 1000).toFixed(1)} s\n`);
  if (r.code !== 0 && failed === 0) failed = r.code;
}
process.exit(failed);
