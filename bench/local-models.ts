/**
 * Load time and memory of each generated (tiny) local model: the worker's start and load, the first and a
 * warm decode of the "beep beep boop" clip, the worker's RSS with the model loaded, and the engine's own RSS
 * before and after (models live in the worker, so the engine's should not move); then the idle release.
 *   npm run bench -- local-models
 * Real models: `npm run bench -- accuracy --model DIR` (load time, WER and RTF beside PocketSphinx), and
 * `npm run bench -- local-models --model DIR` (an installed model's folder, with its verbatim-model.json):
 * local-scaling's figures for it (1 core against all, RSS per extra job, a live session beside it).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { ModelRegistry } from '../src/engine/recognizer/sherpa/registry';
import { toneSequence, writeTinyModel, type TinyModelKind } from '../tests/fixtures/models/speech';
import { scalingReport } from './local-scaling';
import { figure } from './_figure';

const mib = (bytes: number): string => (bytes / 2 ** 20).toFixed(1);

/** VmRSS of a process, in bytes (0 when it is gone). */
function rssOf(pid: number | undefined): number {
  if (!pid) return 0;
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'verbatim-bench-models-'));
  const kinds: TinyModelKind[] = ['nemo-tdt', 'nemo-ctc', 'zipformer-transducer', 'streaming-lstm', 'moonshine', 'whisper', 'whisper-multilingual'];
  for (const k of kinds) writeTinyModel(dir, k);
  const { pcm } = toneSequence();
  console.log('model                      load ms  1st decode ms  warm decode ms  worker RSS MiB  this process RSS MiB (before → after)');
  for (const kind of kinds) {
    const registry = new ModelRegistry({ dir, idleMs: 1000 });
    const id = `tiny-${kind}`;
    const before = process.memoryUsage().rss;
    const rec = await registry.recognizer(id, kind.startsWith('whisper') ? 'en' : undefined);
    const t0 = performance.now();
    let first: number;
    let warm: number;
    if (rec.streaming) {
      const s = await rec.openStream();
      const t1 = performance.now();
      await s.accept(pcm);
      await s.finish();
      first = performance.now() - t1;
      const t2 = performance.now();
      await s.accept(pcm);
      await s.finish();
      warm = performance.now() - t2;
      s.close();
    } else {
      await rec.prewarm();
      const t1 = performance.now();
      await rec.recognize(pcm);
      first = performance.now() - t1;
      const t2 = performance.now();
      await rec.recognize(pcm);
      warm = performance.now() - t2;
    }
    const load = performance.now() - t0 - (rec.streaming ? first + warm : 0);
    const worker = rssOf(registry.child.pid);
    const after = process.memoryUsage().rss;
    figure(`${id}: load`, load, 'ms');
    figure(`${id}: first decode`, first, 'ms');
    figure(`${id}: warm decode`, warm, 'ms');
    figure(`${id}: worker RSS`, worker / 2 ** 20, 'MiB');
    console.log(
      `${id.padEnd(27)}${load.toFixed(0).padStart(7)}${first.toFixed(1).padStart(15)}${warm.toFixed(1).padStart(16)}${mib(worker).padStart(16)}     ${mib(before)} → ${mib(after)}`,
    );
    // Released after the idle time: the worker exits.
    const idleFrom = performance.now();
    while (registry.child.running && performance.now() - idleFrom < 30_000) await new Promise((r) => setTimeout(r, 50));
    if (registry.child.running) console.log(`  ${id}: the worker was still running 30 s after the idle time`);
    registry.dispose();
  }
  rmSync(dir, { recursive: true, force: true });
  console.log('(load includes starting the worker process; the clip is 2.8 s of audio)');
}

/** `--model DIR`: the scaling figures of that installed model, on spoken sentences. */
async function realModel(folder: string): Promise<void> {
  const live = mkdtempSync(join(tmpdir(), 'verbatim-bench-live-'));
  try {
    writeTinyModel(live, 'streaming-lstm');
    const at = Number(process.argv[process.argv.indexOf('--seconds') + 1]);
    console.log(`model ${basename(folder)} (${dirname(folder)})`);
    await scalingReport({ modelsDir: dirname(folder), id: basename(folder), seconds: at > 0 ? at : 60, speech: true, liveDir: live, freeDir: null });
  } finally {
    rmSync(live, { recursive: true, force: true });
  }
}

const model = process.argv.indexOf('--model');
if (model >= 0 && process.argv[model + 1]) await realModel(resolve(process.argv[model + 1] as string));
else await main();
process.exit(0);
