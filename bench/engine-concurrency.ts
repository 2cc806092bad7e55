/**
 * 20 concurrent jobs against one engine (in this process): total time, and
 * the longest event-loop stall while they run (perf_hooks
 * monitorEventLoopDelay; goal ≤ 50 ms) — decoding runs on koffi's worker
 * threads, ffmpeg in child processes, VAD in small blocks. A busy machine
 * also delays the loop by not scheduling it, so the longest gap is shown with
 * the main thread's own CPU time inside it (process.threadCpuUsage): that
 * part is the engine blocking its loop; the rest is waiting for a core.
 *   npx tsx bench/engine-concurrency.ts [jobs] [workers]
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { loadavg } from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { defaultWorkers } from '../src/engine/server';
import { benchEngine, call, fmt, KEY, waitFinal } from './_engine-support';
import { figure } from './_figure';

const JOBS = Number(process.argv[2] ?? 20);
const WORKERS = Number(process.argv[3] ?? defaultWorkers());
const TEXTS = [
  'The quick brown fox jumps over the lazy dog.',
  'The weather today is sunny with a light wind from the west.',
  'We will meet at the office on Monday morning to discuss the new project.',
  'Please send the report before the end of the week so we can review it.',
];

async function main(): Promise<void> {
  const { engine, dir } = await benchEngine({ workers: WORKERS });
  try {
    const uploads: { url: string; seconds: number }[] = [];
    for (let i = 0; i < TEXTS.length; i++) {
      const wav = join(dir, `clip${i}.wav`);
      execFileSync('flite', ['-voice', 'slt', '-t', TEXTS[i] as string, '-o', wav]);
      const seconds = Number(execFileSync('soxi', ['-D', wav]).toString().trim());
      const res = await fetch(`${engine.url}/v2/upload`, { method: 'POST', headers: { authorization: KEY }, body: readFileSync(wav) });
      uploads.push({ url: ((await res.json()) as { upload_url: string }).upload_url, seconds });
    }
    // Warm the decoder pool so the figure is about concurrency, not model load.
    await waitFinal(engine, (await call(engine, '/v2/transcript', { method: 'POST', body: JSON.stringify({ audio_url: uploads[0]!.url }) })).id as string);

    const h = monitorEventLoopDelay({ resolution: 5 });
    h.enable();
    let worstGap = 0;
    let worstGapCpu = 0;
    let worstCpu = 0;
    let last = performance.now();
    let lastCpu = process.threadCpuUsage();
    const gapTimer = setInterval(() => {
      const now = performance.now();
      const c = process.threadCpuUsage();
      const cpu = (c.user + c.system - lastCpu.user - lastCpu.system) / 1000;
      const gap = now - last - 5;
      if (gap > worstGap) {
        worstGap = gap;
        worstGapCpu = cpu;
      }
      worstCpu = Math.max(worstCpu, cpu);
      last = now;
      lastCpu = c;
    }, 5);
    const t0 = performance.now();
    let audio = 0;
    const ids: string[] = [];
    for (let i = 0; i < JOBS; i++) {
      const u = uploads[i % uploads.length]!;
      audio += u.seconds;
      ids.push((await call(engine, '/v2/transcript', { method: 'POST', body: JSON.stringify({ audio_url: u.url }) })).id as string);
    }
    const results = await Promise.all(ids.map((id) => waitFinal(engine, id)));
    const total = (performance.now() - t0) / 1000;
    h.disable();
    clearInterval(gapTimer);
    const failed = results.filter((r) => r.status !== 'completed').length;
    figure('total time', total, 's');
    figure('speed', audio / total, '× real time', 'higher');
    figure('failed jobs', failed, 'jobs');
    figure('event-loop delay, max', h.max / 1e6, 'ms');
    figure('event-loop delay, p99', h.percentile(99) / 1e6, 'ms');
    figure('most main-thread CPU in one gap', worstCpu, 'ms');
    console.log(`${JOBS} concurrent jobs, ${WORKERS} worker(s), ${fmt(audio, 1)} s of audio in total`);
    console.log(`  total time ${fmt(total)} s (${fmt(audio / total, 2)}× real time), failed ${failed}`);
    console.log(`  event-loop delay: max ${fmt(h.max / 1e6, 1)} ms (goal ≤ 50), p99 ${fmt(h.percentile(99) / 1e6, 1)} ms, mean ${fmt(h.mean / 1e6, 1)} ms`);
    console.log(
      `  longest gap ${fmt(worstGap, 1)} ms with ${fmt(worstGapCpu, 1)} ms of main-thread CPU in it; most main-thread CPU in one gap ${fmt(worstCpu, 1)} ms (= the engine blocking its own loop)`,
    );
    console.log(
      `  machine load average at the end: ${loadavg()
        .map((x) => fmt(x, 1))
        .join(' ')} on ${String((await import('node:os')).cpus().length)} cores`,
    );
  } finally {
    await engine.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

void main();
