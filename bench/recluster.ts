/**
 * Re-cluster of a long meeting's speakers from kept turn voiceprints (real Library, real SQLite; no engine):
 * the time of "Re-cluster" as Auto and as 4 speakers for 300, 1,000 and 2,000 turns (a two-hour meeting has
 * 700–2,000), and the worst main-thread turn while it runs (goal: 2,000 turns under 1 s, no turn over 100 ms).
 * The worst turn is the longest gap between two setImmediate callbacks kept running beside it, the maximum
 * of perf_hooks' monitorEventLoopDelay, and the most CPU time the process used between two callbacks (on a
 * loaded machine the first two include time the scheduler gave other processes). `--dim N` sets the print length (default 192, CAM++ and
 * TitaNet small; 512 for larger models); `--reference` also times the first, greedy O(n³) grouping at 300.
 *   npm run bench -- recluster [--dim 192] [--reference]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { Library } from '../src/main/services/library/library';
import { cosine, unit } from '../src/shared/voices/cluster';
import { keptPrintsOnly, reclusterMeeting, VOICES } from './_recluster-meeting';
import { figure } from './_figure';

const { values } = parseArgs({ options: { dim: { type: 'string', default: '192' }, reference: { type: 'boolean', default: false } } });
const DIM = Number(values.dim);
const SIZES = [300, 1000, 2000];

let seed = 7;
const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;

const dir = mkdtempSync(join(tmpdir(), 'verbatim-bench-recluster-'));
const lib = new Library(join(dir, 'lib'));
const voices = keptPrintsOnly(lib);

const meeting = (n: number): string => reclusterMeeting(lib, n, DIM, rand);

/** Runs `work` with a setImmediate loop beside it; answers its time and the worst turn (ms) by both measures. */
async function measure(work: () => Promise<unknown>): Promise<{ ms: number; cpuMs: number; worstGap: number; worstDelay: number; worstCpu: number }> {
  const h = monitorEventLoopDelay({ resolution: 5 });
  let last = performance.now();
  let lastCpu = process.cpuUsage();
  let worstGap = 0;
  let worstCpu = 0;
  let running = true;
  const tick = () => {
    const now = performance.now();
    const cpu = process.cpuUsage(lastCpu);
    worstGap = Math.max(worstGap, now - last);
    worstCpu = Math.max(worstCpu, (cpu.user + cpu.system) / 1000);
    last = now;
    lastCpu = process.cpuUsage();
    if (running) setImmediate(tick);
  };
  setImmediate(tick);
  h.enable();
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  await work();
  const ms = performance.now() - t0;
  const used = process.cpuUsage(c0);
  running = false;
  tick();
  h.disable();
  return { ms, cpuMs: (used.user + used.system) / 1000, worstGap, worstDelay: h.max / 1e6, worstCpu };
}

/** The first grouping (every pair's average linkage recomputed after each merge), for comparison. */
function referenceGroups(items: Float32Array[], speakers: number): void {
  const units = items.map(unit);
  const sim = units.map((a) => units.map((b) => cosine(a, b)));
  let groups = units.map((_, i) => [i]);
  const linkage = (a: number[], b: number[]) => {
    let s = 0;
    for (const i of a) for (const j of b) s += (sim[i] as number[])[j] as number;
    return s / (a.length * b.length);
  };
  while (groups.length > speakers) {
    let best = -Infinity;
    let pair = [0, 1];
    for (let i = 0; i < groups.length; i++)
      for (let j = i + 1; j < groups.length; j++) {
        const l = linkage(groups[i] as number[], groups[j] as number[]);
        if (l > best) [best, pair] = [l, [i, j]];
      }
    const [i, j] = pair as [number, number];
    groups = [...groups.filter((_, k) => k !== i && k !== j), [...(groups[i] as number[]), ...(groups[j] as number[])]];
  }
}

const f = (x: number) => x.toFixed(0).padStart(6);
console.log(`${cpus().length} cores, load average ${loadavg()[0]?.toFixed(1)} (a loaded machine's scheduler adds to every gap)`);
console.log(
  `prints of ${DIM} values, ${VOICES} voices; times in ms (cpu: the process's CPU time for the re-cluster). Worst turn: the longest gap between two setImmediate callbacks, monitorEventLoopDelay's max, and the most CPU time the process used between two callbacks (what a loaded machine's scheduler does not inflate)`,
);
console.log('turns   asked   time    cpu  worst-gap  worst-delay  worst-cpu');
try {
  for (const n of SIZES) {
    const id = meeting(n);
    for (const asked of [null, 4] as const) {
      const r = await measure(() => voices.recluster(id, asked));
      const name = `${n.toLocaleString('en')} turns, ${asked === null ? 'auto' : `${asked} speakers`}`;
      figure(`${name}: time`, r.ms, 'ms');
      figure(`${name}: CPU`, r.cpuMs, 'ms');
      figure(`${name}: worst turn CPU`, r.worstCpu, 'ms');
      figure(`${name}: worst gap`, r.worstGap, 'ms');
      console.log(
        `${String(n).padStart(5)}  ${String(asked ?? 'auto').padStart(6)} ${f(r.ms)} ${f(r.cpuMs)}     ${f(r.worstGap)}       ${f(r.worstDelay)}     ${f(r.worstCpu)}`,
      );
    }
    if (values.reference && n === 300) {
      const prints = lib.voices.turns(lib.voices.currentTranscript(id)).map((t) => t.vector as Float32Array);
      const t0 = performance.now();
      referenceGroups(prints, 4);
      console.log(`  300 turns, the first O(n³) grouping alone (one turn): ${f(performance.now() - t0)} ms`);
    }
  }
} finally {
  lib.close();
  rmSync(dir, { recursive: true, force: true });
}
