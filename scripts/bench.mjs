// `npm run bench [-- name-or-part [bench args…]] [--update-baseline] [--list] [--skip a,b]`: runs every benchmark under
// bench/ in turn (each prints its own figures), then compares each figure it reported (a `BENCH-FIGURE {json}`
// line, bench/_figure.ts) with bench/baseline.json: the baseline, the ratio, and a flag on any figure more
// than 20% worse (for ms and MiB also more than 5 worse: NOISE), "(no baseline yet)" for a new one. At the
// end: each bench's time and whether it failed, and the benches that reported no figure at all. Exits nonzero when a bench failed or a figure is flagged.
// `--update-baseline` records this run's figures as the baseline, with the commit and the machine.
// `--list` lists the benches the filter matches, with each one's last recorded run time, and runs nothing.
// `--skip a,b` leaves those benches out (e.g. the long accuracy studies, run in a sitting of their own).
// Arguments after the name go to the bench; its figures are then keyed with them ("cli [--runs 1]: …"), as
// with the environment variables that size a bench (EVERY=4 …: SIZE_ENV), so a smaller or different run is
// never compared with the default run's baseline.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, platform, release, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { ensureHost } from './build-host.mjs';
import { ensureSystemPackages } from './system-deps.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const baselineFile = join(root, 'bench', 'baseline.json');
const args = process.argv.slice(2);
const update = args.includes('--update-baseline');
const list = args.includes('--list');
const skipAt = args.indexOf('--skip');
const skip = skipAt >= 0 ? (args[skipAt + 1] ?? '').split(',').filter(Boolean) : [];
const rest = args.filter((a, i) => a !== '--update-baseline' && a !== '--list' && (skipAt < 0 || (i !== skipAt && i !== skipAt + 1)));
const filter = rest[0] ?? '';
const benchArgs = rest.slice(1);
/** A figure more than this much worse than its baseline is flagged. */
const WORSE = 1.2;
/** …and by more than this in its unit: below it a difference is timer and scheduler noise (1 ms → 1.3 ms is not a regression). */
const NOISE = { ms: 5, MiB: 5 };

const matching = readdirSync(join(root, 'bench'))
  .filter((f) => f.endsWith('.ts') && !f.startsWith('_') && f.includes(filter) && !skip.includes(f.replace(/\.ts$/, '')))
  .sort();
// A bench's whole name runs that bench alone ("chat", not also "engine-chat-limits"); a part of a name runs every match.
const benches = matching.includes(`${filter}.ts`) ? [`${filter}.ts`] : matching;

if (benches.length === 0) {
  console.log(`No benchmark matches "${filter}".`);
  process.exit(1);
}
const baseline = existsSync(baselineFile) ? JSON.parse(readFileSync(baselineFile, 'utf8')) : { figures: {} };
baseline.runs ??= {};
if (list) {
  for (const f of benches) {
    const name = f.replace(/\.ts$/, '');
    const run = baseline.runs[name];
    const count = Object.keys(baseline.figures).filter((k) => k.startsWith(`${name}: `)).length;
    console.log(`${name.padEnd(22)} ${String(count).padStart(3)} figures in the baseline${run ? `, last run ${run.seconds} s (load ${run.load})` : ''}`);
  }
  const known = benches.map((f) => baseline.runs[f.replace(/\.ts$/, '')]?.seconds).filter((s) => s !== undefined);
  if (known.length) console.log(`${(known.reduce((a, b) => a + b, 0) / 60).toFixed(1)} min for the ${known.length} with a recorded run`);
  process.exit(0);
}
// The engine, the tests' tools and the accuracy benchmark's voices: installed where it may, else stop with the command.
if (!ensureSystemPackages('bench', { strict: true }).ok) process.exit(1);
// The UI benchmarks run what users run: the built renderer and host mode.
const prep = spawnSync('npm', ['run', '-s', 'build:renderer'], { cwd: root, stdio: 'inherit' });
if (prep.status !== 0) process.exit(prep.status ?? 1);
await ensureHost();

/** Environment variables that change what a bench measures (its size, its model, its service). */
const SIZE_ENV = ['EVERY', 'CONDS', 'SPLIT', 'SKIP_LIBRI', 'BEFORE', 'MODELS', 'SPEECH_MODEL', 'BENCH_SERVICE', 'BENCH_EDIT_RUNS'];
const variant = [...SIZE_ENV.filter((v) => process.env[v]).map((v) => `${v}=${process.env[v]}`), ...benchArgs].join(' ');
/** The key's bench part: the file's name, with any arguments or size settings it was given. */
const benchName = (file) => `${file.replace(/\.ts$/, '')}${variant ? ` [${variant}]` : ''}`;

/** Runs one bench with its output passed through; collects the figures it reports. */
function runBench(file) {
  return new Promise((resolve) => {
    const figures = [];
    // Arguments after the name go to the benchmark (npm run bench -- accuracy --model DIR).
    const child = spawn(join(root, 'node_modules', '.bin', 'tsx'), [join(root, 'bench', file), ...benchArgs], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    createInterface({ input: child.stdout }).on('line', (line) => {
      const m = /^BENCH-FIGURE (\{.*\})\s*$/.exec(line);
      if (!m) return void process.stdout.write(`${line}\n`);
      try {
        const f = JSON.parse(m[1]);
        if (typeof f.name === 'string' && typeof f.value === 'number') figures.push({ ...f, bench: benchName(file) });
        else process.stdout.write(`${line}\n`);
      } catch {
        process.stdout.write(`${line}\n`);
      }
    });
    child.on('error', (err) => console.log(`bench/${file} could not start: ${err.message}`));
    child.on('close', (code, signal) => resolve({ code: code ?? signal, figures }));
  });
}

const results = [];
const figures = [];
for (const file of benches) {
  console.log(`\n=== bench/${file} ===`);
  const started = Date.now();
  const r = await runBench(file);
  figures.push(...r.figures);
  results.push({ file, code: r.code, ok: r.code === 0, figures: r.figures.length, seconds: ((Date.now() - started) / 1000).toFixed(1) });
}

const key = (f) => `${f.bench}: ${f.name}`;
const num = (v) => (Math.abs(v) >= 100 ? v.toFixed(0) : Math.abs(v) >= 1 ? v.toFixed(2) : v.toPrecision(3));
let flagged = 0;
console.log('\n=== figures against bench/baseline.json ===');
const seen = new Set();
for (const f of figures) {
  const b = baseline.figures[key(f)];
  let line = `  ${key(f)}: ${num(f.value)} ${f.unit}`;
  if (seen.has(key(f))) line += '  (reported twice: give each figure a name of its own)';
  seen.add(key(f));
  if (!b) line += '  (no baseline yet)';
  else {
    // A baseline of 0 (no failed jobs, no starved sessions): any rise is worse.
    const ratio = b.value === 0 ? (f.value === 0 ? 1 : f.better === 'higher' ? 0 : Infinity) : f.value / b.value;
    const beyondNoise = Math.abs(f.value - b.value) > (NOISE[f.unit] ?? 0);
    const worse = beyondNoise && (f.better === 'higher' ? ratio < 1 / WORSE : ratio > WORSE);
    if (worse) flagged++;
    line += `  baseline ${num(b.value)} ${b.unit}  ratio ${ratio.toFixed(2)}${worse ? `  <-- more than ${Math.round((WORSE - 1) * 100)}% worse` : ''}`;
  }
  console.log(line);
}
if (figures.length === 0) console.log('  (the benches run reported no figures)');
// Figures the baseline has for the benches that ran, but that this run did not report (renamed, or the bench stopped early).
const ran = new Set(results.map((r) => benchName(r.file)));
const missing = Object.keys(baseline.figures).filter((k) => ran.has(k.slice(0, k.indexOf(': '))) && !seen.has(k));
for (const k of missing) console.log(`  ${k}: not reported this run`);

if (update && figures.length) {
  const commit = spawnSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root, encoding: 'utf8' }).stdout.trim();
  const dirty = spawnSync('git', ['status', '--porcelain', '--', 'src', 'bench', 'tests/e2e'], { cwd: root, encoding: 'utf8' }).stdout.trim() !== '';
  const machine = `${cpus()[0]?.model ?? 'unknown CPU'} x${cpus().length}, ${Math.round(totalmem() / 2 ** 30)} GiB, ${platform()} ${release()}, Node ${process.versions.node}`;
  const at = new Date().toISOString();
  const load = loadavg()[0].toFixed(1);
  for (const f of figures)
    baseline.figures[key(f)] = { value: f.value, unit: f.unit, better: f.better, commit: dirty ? `${commit}+changes` : commit, machine, load, at };
  baseline.figures = Object.fromEntries(Object.entries(baseline.figures).sort(([a], [b]) => (a < b ? -1 : 1)));
  // Each bench's run time, so the time of one whole run can be planned (npm run bench -- --list).
  for (const r of results) if (r.ok) baseline.runs[benchName(r.file)] = { seconds: Number(r.seconds), load, at };
  baseline.runs = Object.fromEntries(Object.entries(baseline.runs).sort(([a], [b]) => (a < b ? -1 : 1)));
  writeFileSync(baselineFile, `${JSON.stringify(baseline, null, 2)}\n`);
  console.log(
    `\nRecorded ${figures.length} figures as the baseline in bench/baseline.json (commit ${commit}${dirty ? ' with uncommitted changes' : ''}, load ${load}).`,
  );
}

console.log('\n=== summary ===');
for (const r of results)
  console.log(`${r.ok ? 'ok  ' : 'FAIL'} ${r.file} (${r.seconds} s, ${r.figures} figure${r.figures === 1 ? '' : 's'})${r.ok ? '' : ` exited ${r.code}`}`);
const total = results.reduce((t, r) => t + Number(r.seconds), 0);
console.log(`${results.length} bench${results.length === 1 ? '' : 'es'} in ${(total / 60).toFixed(1)} min (load now ${loadavg()[0].toFixed(1)})`);
const failed = results.filter((r) => !r.ok);
if (failed.length) console.log(`failed: ${failed.map((r) => r.file).join(', ')}`);
const silent = results.filter((r) => r.figures === 0);
if (silent.length) console.log(`reported no figure (give each headline figure a figure() call, bench/_figure.ts): ${silent.map((r) => r.file).join(', ')}`);
if (flagged) console.log(`${flagged} figure${flagged === 1 ? '' : 's'} more than ${Math.round((WORSE - 1) * 100)}% worse than the baseline.`);
process.exit(results.every((r) => r.ok) && (flagged === 0 || update) ? 0 : 1);
