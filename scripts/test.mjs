// `npm test`: every phase runs, even after one fails, so a Vitest failure does not hide Playwright's
// answer; then a phase table (each phase's time), the ten slowest files of each runner, each
// runner's own closing summary again and Vitest's failures (its failed tests and unhandled errors, which
// it prints above its summary), and the exit code is nonzero when any phase failed.
// Phases: system packages, install scripts (allowScripts), checks (typecheck, lint, format), unit
// (Vitest), realtime (the real-time Vitest files, one at a time), the e2e builds, e2e (Playwright).
// The realtime phase runs beside the unit phase where it can be given a higher CPU priority (nice -5: root,
// or a user allowed to raise priority, as in CI): its files spend their time waiting for audio paced at real
// time and need a core promptly when the audio comes, while the unit phase keeps the usual priority, so other
// work on a busy machine does not starve it (a unit phase at nice 10 got a tenth of the CPU beside
// `stress --cpu 2`). Elsewhere the realtime phase runs after the unit phase, alone. Its output is printed
// whole after the unit phase's, so the two do not interleave.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { getPriority, setPriority } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const timesDir = join(root, 'out', 'test-times');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

/** name, command, arguments, the runner whose file times and summary it gives (if any). */
const PHASES = [
  { name: 'system-deps', cmd: 'node', args: ['scripts/system-deps.mjs', 'test'] },
  { name: 'install-scripts', cmd: 'node', args: ['scripts/install-scripts.mjs'] },
  { name: 'checks', cmd: npm, args: ['run', '-s', 'checks'] },
  { name: 'unit', cmd: npm, args: ['run', '-s', 'test:vitest'], runner: 'vitest' },
  { name: 'realtime', cmd: npm, args: ['run', '-s', 'test:realtime'], runner: 'vitest', beside: 'unit', nice: -5 },
  { name: 'e2e-builds', cmd: npm, args: ['run', '-s', 'build:e2e'] },
  { name: 'e2e', cmd: npm, args: ['exec', '--', 'playwright', 'test'], runner: 'playwright', needs: 'e2e-builds' },
];

const argv = process.argv.slice(2);
const dash = argv.indexOf('--');
const only = dash < 0 ? argv : argv.slice(0, dash);
const runnerArgs = dash < 0 ? [] : argv.slice(dash + 1);
const unknown = only.filter((n) => !PHASES.some((p) => p.name === n));
if (unknown.length) {
  console.error(`Unknown phase ${unknown.join(', ')}: the phases are ${PHASES.map((p) => p.name).join(', ')}.`);
  process.exit(2);
}
const phases = PHASES.filter((p) => only.length === 0 || only.includes(p.name));

// eslint-disable-next-line no-control-regex
const plain = (s) => s.replace(/\x1b\[[0-9;]*m/g, '');

/** The runner's own closing summary, found in the last lines it printed. */
function summaryOf(runner, tail) {
  const lines = tail.map(plain);
  if (runner === 'vitest') return lines.filter((l) => /^\s*(Test Files|Tests|Errors|Duration)\s/.test(l));
  const start = lines.findIndex((l) => /^\s+\d+ (passed|failed|flaky|skipped|interrupted|did not run)\b/.test(l));
  return start < 0 ? [] : lines.slice(start).filter((l) => l.trim() !== '');
}

/**
 * What a Vitest run said about its failures, from the last lines it printed: its "Failed Tests" and "Unhandled
 * Errors" sections (which test, the error, where it came from), up to the summary, at most `max` lines. CI shows
 * only the end of the log, and these sections come before the summary.
 */
function failuresOf(runner, tail, max = 60) {
  if (runner !== 'vitest') return [];
  const lines = tail.map(plain);
  const start = lines.findIndex((l) => /⎯ (Failed Tests \d+|Unhandled Errors) ⎯/.test(l));
  if (start < 0) return [];
  const end = lines.findIndex((l, i) => i > start && /^\s*Test Files\s/.test(l));
  // Blank lines and stack frames inside node_modules (the runner's own) say nothing about the failure.
  const section = lines.slice(start, end < 0 ? undefined : end).filter((l) => l.trim() !== '' && !/❯ .*node_modules\//.test(l));
  return section.length > max ? [...section.slice(0, max), `… ${section.length - max} more lines above the summary`] : section;
}

/**
 * Runs one phase with its output passed through as it comes (or, with `held`, kept until `release()`);
 * keeps the last lines for the summary.
 */
function run(phase, held = false) {
  const started = Date.now();
  const timesFile = phase.runner ? join(timesDir, `${phase.name}.json`) : undefined;
  if (timesFile) rmSync(timesFile, { force: true });
  const heading = `\n===== npm test: ${phase.name} (${[phase.cmd, ...phase.args].join(' ')})${held ? `, beside ${phase.beside}` : ''}\n`;
  const kept = [];
  let holding = held;
  const write = (stream, b) => (holding ? kept.push([stream, b]) : stream.write(b));
  write(process.stdout, heading);
  let release = () => undefined;
  const promise = new Promise((resolve) => {
    const tail = [];
    let partial = '';
    const keep = (b) => {
      const text = partial + b.toString();
      const lines = text.split('\n');
      partial = lines.pop() ?? '';
      tail.push(...lines);
      if (tail.length > 1000) tail.splice(0, tail.length - 1000);
    };
    const env = { ...process.env, ...(timesFile ? { VERBATIM_TEST_TIMES: timesFile } : {}) };
    if (process.stdout.isTTY && env.FORCE_COLOR === undefined) env.FORCE_COLOR = '1';
    const args = phase.runner ? [...phase.args, ...(phase.cmd === npm && phase.args[0] === 'run' ? ['--'] : []), ...runnerArgs] : phase.args;
    const child = spawn(phase.cmd, args, { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
    // Set before npm starts its runner, so the runner and its workers inherit it.
    if (phase.nice && child.pid) {
      try {
        setPriority(child.pid, phase.nice);
      } catch {
        // Not allowed here: the phase runs at the usual priority.
      }
    }
    release = () => {
      holding = false;
      for (const [stream, b] of kept.splice(0)) stream.write(b);
    };
    child.stdout.on('data', (b) => {
      write(process.stdout, b);
      keep(b);
    });
    child.stderr.on('data', (b) => {
      write(process.stderr, b);
      keep(b);
    });
    const done = (code) => {
      if (partial) tail.push(partial);
      const summary = phase.runner ? summaryOf(phase.runner, tail) : [];
      resolve({ ...phase, code, seconds: (Date.now() - started) / 1000, timesFile, summary, failures: failuresOf(phase.runner, tail) });
    };
    child.on('error', (e) => {
      process.stderr.write(`${e.message}\n`);
      done(1);
    });
    child.on('close', (code, signal) => done(code ?? (signal ? 1 : 0)));
  });
  return { promise, release: () => release() };
}

/** Whether this process may raise a child's CPU priority (lower its nice value): tried on itself, then put back. */
function canRaisePriority() {
  try {
    const own = getPriority();
    setPriority(own - 1);
    setPriority(own);
    return true;
  } catch {
    return false;
  }
}

const started = Date.now();
const results = [];
for (const phase of phases) {
  const dep = phase.needs && results.find((r) => r.name === phase.needs);
  if (dep && dep.code !== 0) {
    results.push({ ...phase, code: 1, seconds: 0, skipped: `not run: ${phase.needs} failed`, summary: [] });
    continue;
  }
  if (results.some((r) => r.name === phase.name)) continue; // already run beside another phase
  const beside = canRaisePriority() ? phases.filter((p) => p.beside === phase.name) : [];
  const main = run(phase);
  const others = beside.map((p) => run(p, true));
  results.push(await main.promise);
  for (const o of others) {
    o.release();
    results.push(await o.promise);
  }
}
const total = (Date.now() - started) / 1000;

// Whole seconds past a minute, rounded before they are split (419.6 s is "7 min  0 s", not "6 min 60 s").
const fmt = (s) => (s >= 59.5 ? `${Math.floor(Math.round(s) / 60)} min ${String(Math.round(s) % 60).padStart(2)} s` : `${s.toFixed(1)} s`);
const out = [];
out.push('', '===== npm test: phases');
for (const r of results)
  out.push(
    `  ${r.name.padEnd(16)} ${(r.skipped ? 'skipped' : r.code === 0 ? 'ok' : 'FAILED').padEnd(8)} ${fmt(r.seconds).padStart(12)}${r.skipped ? `  (${r.skipped})` : ''}`,
  );
out.push(`  ${'total'.padEnd(16)} ${''.padEnd(8)} ${fmt(total).padStart(12)}`);

for (const runner of ['vitest', 'playwright']) {
  const files = results
    .filter((r) => r.runner === runner && r.timesFile && existsSync(r.timesFile))
    .flatMap((r) => JSON.parse(readFileSync(r.timesFile, 'utf8')).files.map((f) => ({ ...f, phase: r.name })));
  if (files.length === 0) continue;
  files.sort((a, b) => b.ms - a.ms);
  out.push('', `===== npm test: the ten slowest ${runner === 'vitest' ? 'Vitest' : 'Playwright'} files (of ${files.length})`);
  for (const f of files.slice(0, 10))
    out.push(`  ${fmt(f.ms / 1000).padStart(12)}  ${f.file}${f.state === 'failed' ? '  (failed)' : ''}${runner === 'vitest' ? `  [${f.phase}]` : ''}`);
}

const summaries = results.filter((r) => r.runner);
if (summaries.length) {
  out.push('', '===== npm test: the runners’ summaries');
  for (const r of summaries) {
    out.push(`  ${r.name}:${r.skipped ? ` ${r.skipped}` : r.summary.length ? '' : ` exit code ${r.code}, no summary printed`}`);
    for (const l of r.summary) out.push(`  ${l}`);
  }
}
// The failures themselves, beside the summaries: where a log is read from its end (CI), they would be out of sight.
for (const r of results.filter((x) => x.failures?.length)) {
  out.push('', `===== npm test: what failed in ${r.name}`);
  for (const l of r.failures) out.push(`  ${l}`);
}
const failed = results.filter((r) => r.code !== 0);
out.push('', failed.length ? `npm test FAILED: ${failed.map((r) => r.name).join(', ')} (${fmt(total)})` : `npm test passed (${fmt(total)})`);
console.log(out.join('\n'));
process.exit(failed.length ? 1 : 0);
