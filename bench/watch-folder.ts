/**
 * A watch folder of 20,000 audio files (real Library, real SQLite, real files; no engine): one pass of the
 * folder watcher when every file is new (each followed until it holds still, then handed to a take that
 * only counts), and when every file was taken before (a restart on a folder of finished files). Printed:
 * each pass's time and the worst main-thread turn while it runs (goal: no turn over 100 ms). The worst turn
 * is the longest gap between two setImmediate callbacks kept running beside it, and the maximum of
 * perf_hooks' monitorEventLoopDelay. For reference, the one-query-per-file lookup the watcher used before,
 * in one turn.
 *   npm run bench -- watch-folder [--files 20000]
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { Library } from '../src/main/services/library/library';
import { FolderWatcher } from '../src/main/services/watch/folder-watcher';
import { figure } from './_figure';

const { values } = parseArgs({ options: { files: { type: 'string', default: '20000' } } });
const FILES = Number(values.files);

const dir = mkdtempSync(join(tmpdir(), 'verbatim-bench-watch-'));
const folder = join(dir, 'inbox');
mkdirSync(folder);
const lib = new Library(join(dir, 'lib'));

/** Runs `work` with a setImmediate loop beside it; answers its time and the worst turn (ms) by both measures. */
async function measure(work: () => Promise<unknown>): Promise<{ ms: number; worstGap: number; worstDelay: number }> {
  const h = monitorEventLoopDelay({ resolution: 5 });
  h.enable();
  let worstGap = 0;
  let last = performance.now();
  let running = true;
  const tick = () => {
    const now = performance.now();
    worstGap = Math.max(worstGap, now - last);
    last = now;
    if (running) setImmediate(tick);
  };
  setImmediate(tick);
  const t0 = performance.now();
  await work();
  const ms = performance.now() - t0;
  running = false;
  h.disable();
  return { ms, worstGap, worstDelay: h.max / 1e6 };
}

for (let i = 0; i < FILES; i++) writeFileSync(join(folder, `recording ${String(i).padStart(5, '0')}.wav`), 'x');
const folderRow = lib.watch.addFolder(folder, { speechModel: null, languageCode: null, speakerLabels: false, speakersExpected: null, subtitles: 'none' });

let taken = 0;
const watcher = (stableMs: number) =>
  new FolderWatcher(
    folder,
    { stableMs, pollMs: 3_600_000 },
    {
      known: (paths) => lib.watch.knownOf(paths),
      take: async (p, size, mtime) => {
        taken++;
        lib.transaction(() => lib.watch.remember(p, folderRow.id, size, mtime));
      },
      problem: () => undefined,
    },
  );

const f = (n: number) => n.toFixed(1).padStart(8);
console.log(`${FILES.toLocaleString('en')} files; ${cpus().length} cores, load ${loadavg()[0]!.toFixed(2)}; times in ms`);
console.log('pass                               time  worst-gap  worst-delay');
const fresh = watcher(0);
// First pass: every file seen (its size noted); second: each held still, so each is taken.
const seen = await measure(() => fresh.scan());
figure('new files, first seen: time', seen.ms, 'ms');
figure('new files, first seen: worst turn', Math.max(seen.worstGap, seen.worstDelay), 'ms');
console.log(`new files, first seen        ${f(seen.ms)}   ${f(seen.worstGap)}     ${f(seen.worstDelay)}`);
const take = await measure(() => fresh.scan());
figure('new files, taken: time', take.ms, 'ms');
figure('new files, taken: worst turn', Math.max(take.worstGap, take.worstDelay), 'ms');
console.log(`new files, taken (${taken})   ${f(take.ms)}   ${f(take.worstGap)}     ${f(take.worstDelay)}`);
await fresh.stop();
const again = watcher(0);
const known = await measure(() => again.scan());
figure('all known (a restart): time', known.ms, 'ms');
figure('all known (a restart): worst turn', Math.max(known.worstGap, known.worstDelay), 'ms');
console.log(`all known (a restart)        ${f(known.ms)}   ${f(known.worstGap)}     ${f(known.worstDelay)}`);
await again.stop();
// The lookup as it was: one query per file, all in one turn.
const paths = Array.from({ length: FILES }, (_, i) => join(folder, `recording ${String(i).padStart(5, '0')}.wav`));
const t0 = performance.now();
for (const p of paths) lib.watch.known(p);
const reference = performance.now() - t0;
figure('reference: one query per file, one turn', reference, 'ms');
console.log(`reference: one query per file, one turn: ${reference.toFixed(1)} ms`);
lib.close();
rmSync(dir, { recursive: true, force: true });
