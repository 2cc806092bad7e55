/**
 * Main's event loop during subtitle work at the contract's limit: a 200,000-cue
 * SRT imported, the item opened (its cues as columns), one cue replaced by
 * 200,000 from a file (subtitles.run replaceFrom) and every cue shifted
 * (shiftAllLater), each on the library's worker thread (library-offload.ts),
 * against the same import done in this thread. The big file goes to the worker
 * as the app sends it, by its path (the worker reads it; ipc/subtitles.ts). Prints each step's time and the
 * longest gap of a 5 ms timer (goal ≤ 50 ms; an idle loaded machine shows ~40 ms by itself).
 *   npx tsx bench/subtitle-stalls.ts [cues=200000]
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Library } from '../src/main/services/library/library';
import { importSubtitlesAsItem, importSubtitlesOffThread } from '../src/main/services/library/subtitle-import';
import { figure } from './_figure';

const N = Number(process.argv[2] ?? 200_000);
const stamp = (ms: number): string =>
  [Math.floor(ms / 3_600_000), Math.floor(ms / 60_000) % 60, Math.floor(ms / 1000) % 60].map((v) => String(v).padStart(2, '0')).join(':') +
  `,${String(ms % 1000).padStart(3, '0')}`;
const srt = Array.from({ length: N }, (_, i) => `${i + 1}\n${stamp(i * 1000)} --> ${stamp(i * 1000 + 500)}\na\n`).join('\n');

let gap = 0;
let last = performance.now();
const timer = setInterval(() => {
  const now = performance.now();
  gap = Math.max(gap, now - last - 5);
  last = now;
}, 5);
async function step(label: string, fn: () => unknown): Promise<void> {
  await new Promise((r) => setTimeout(r, 200));
  gap = 0;
  last = performance.now();
  const t = performance.now();
  await fn();
  await new Promise((r) => setTimeout(r, 20));
  const ms = performance.now() - t;
  if (!label.startsWith('idle')) figure(`${label}: time`, ms, 'ms');
  figure(`${label}: longest loop gap`, gap, 'ms');
  console.log(`${label.padEnd(44)} ${String(Math.round(ms)).padStart(6)} ms   longest loop gap ${String(Math.round(gap)).padStart(5)} ms`);
}

const dir = mkdtempSync(join(tmpdir(), 'subtitle-stalls-'));
const library = new Library(dir);
const srtFile = join(dir, 'big.srt');
writeFileSync(srtFile, srt);
const file = { path: srtFile, remove: false };
console.log(`${N.toLocaleString('en')} cues (${(srt.length / 1e6).toFixed(1)} MB of SRT)`);
await step('idle (the machine by itself)', () => new Promise((r) => setTimeout(r, 2000)));
await step('import in this thread (before)', () => importSubtitlesAsItem(library, 'sync.srt', srt));
await step('worker start (a one-cue import)', () =>
  importSubtitlesOffThread(library, library.offload, 'one.srt', { content: '1\n00:00:01,000 --> 00:00:02,000\nhi\n' }),
);
let id = '';
await step('import on the worker', async () => (id = (await importSubtitlesOffThread(library, library.offload, 'big.srt', file)).id));
await step('open on the worker (columns: Electron)', () => library.offload.openSubtitles(id));
await step('open on the worker (JSON: host mode)', () => library.offload.openSubtitlesJson(id));
const small = (await importSubtitlesOffThread(library, library.offload, 'small.srt', { content: srt.slice(0, srt.indexOf('\n\n') + 1) })).id;
const doc = await library.offload.openSubtitles(small);
const view = { selection: [[0, 0]] as [number, number][], caret: null, playheadMs: 0 };
let version = doc.version;
await step('replace 1 → N cues (a file) on the worker', async () => {
  version = (await library.offload.runSubtitles(small, version, { command: 'replaceFrom', args: { text: file, name: 'big.srt' }, view })).version;
});
await step('shift all N cues on the worker', () => library.offload.runSubtitles(small, version, { command: 'shiftAllLater', view }));
clearInterval(timer);
library.close();
rmSync(dir, { recursive: true, force: true });
