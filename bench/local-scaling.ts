/**
 * How a long file's decoding spreads over the cores, with the compute model (tests/fixtures/models/compute.ts,
 * about 50 MFLOP per 10 ms frame) or a real model directory (--model DIR):
 *   - wall time of a scaled amount of audio (stated; shown per audio hour) on 1 core (the whole bench pinned
 *     with taskset) and on all cores, and the speedup (goal ≥ 0.8 × cores);
 *   - the whole pipeline's own cost per audio hour with the free (tiny) model, over HTTP (goal ≤ 20 s);
 *   - the worker's RSS growth per extra concurrent job on the same model (goal ≤ 50 MiB);
 *   - a live session's first partial, p50, while a long file decodes beside it (goal ≤ 300 ms).
 *   npm run bench -- local-scaling [--seconds 120]
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { findSpeechSegments } from '../src/engine/audio/segment';
import { recognizeSegments } from '../src/engine/jobs/recognize-segments';
import { currentShare, liveSessionOpened } from '../src/engine/recognizer/decode-share';
import { ModelRegistry } from '../src/engine/recognizer/sherpa/registry';
import { writeComputeModel, mflopPerFrame } from '../tests/fixtures/models/compute';
import { wavBytes } from '../tests/fixtures/models/speakers';
import { toneSequence, writeTinyModel } from '../tests/fixtures/models/speech';
import { benchEngine, call, waitFinal } from './_engine-support';
import { figure } from './_figure';

const arg = (name: string): string | undefined => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
};
const mib = (b: number): string => (b / 2 ** 20).toFixed(1);
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;

function rssOf(pid: number | undefined): number {
  if (!pid) return 0;
  try {
    return Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) * 1024;
  } catch {
    return 0;
  }
}

/** CPU seconds (user + system) a process has used so far (0 when it is gone). */
function cpuOf(pid: number | undefined): number {
  if (!pid) return 0;
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
}

/** Tone words, each a segment of its own, about `seconds` long; written raw (and as WAV when asked). */
export function longAudio(dir: string, seconds: number): { raw: string; samples: number; pcm: Int16Array } {
  const n = Math.max(3, Math.round(seconds / 1.3));
  const { pcm } = toneSequence(
    Array.from({ length: n }, (_, i) => (i % 3 === 2 ? 'boop' : 'beep')),
    { toneMs: 400, gapMs: 900 },
  );
  const raw = join(dir, `long-${n}.raw`);
  writeFileSync(raw, Buffer.from(pcm.buffer, pcm.byteOffset, pcm.byteLength));
  return { raw, samples: pcm.length, pcm };
}

/** Speech for a real model: flite reading a sentence, repeated with 900 ms pauses to about `seconds`; null without flite. */
export function speechAudio(dir: string, seconds: number): { raw: string; samples: number; pcm: Int16Array } | null {
  const wav = join(dir, 'sentence.wav');
  const said = spawnSync('flite', ['-voice', 'slt', '-t', 'We will meet at the office on Monday morning to discuss the new project.', '-o', wav]);
  if (said.status !== 0) return null;
  const out = spawnSync('ffmpeg', ['-v', 'error', '-i', wav, '-f', 's16le', '-ac', '1', '-ar', '16000', '-'], { maxBuffer: 64 << 20 });
  if (out.status !== 0) return null;
  const one = new Int16Array(out.stdout.buffer.slice(out.stdout.byteOffset, out.stdout.byteOffset + (out.stdout.byteLength & ~1)));
  const period = one.length + 900 * 16;
  const n = Math.max(1, Math.round((seconds * 16000) / period));
  const pcm = new Int16Array(n * period);
  for (let i = 0; i < n; i++) pcm.set(one, i * period);
  const raw = join(dir, `speech-${n}.raw`);
  writeFileSync(raw, Buffer.from(pcm.buffer, pcm.byteOffset, pcm.byteLength));
  return { raw, samples: pcm.length, pcm };
}

/** Tones laid over spoken sentences (the engine's Silero VAD ignores bare tones), about `seconds` long. */
function tonesOverSpeech(dir: string, seconds: number): Int16Array {
  const bed = speechAudio(dir, seconds)?.pcm;
  const n = Math.round((bed ? bed.length / 16000 : seconds) / 1.3) - 1;
  return toneSequence(
    Array.from({ length: n }, (_, i) => (i % 3 === 2 ? 'boop' : 'beep')),
    { toneMs: 400, gapMs: 900, ...(bed ? { bed: Int16Array.from(bed, (v) => Math.round(v / 4)) } : {}) },
  ).pcm;
}

/** Decodes the file's segments with `parallel` in flight; returns wall seconds and the worker's RSS peak. */
export async function decodeFile(
  registry: ModelRegistry,
  id: string,
  raw: string,
  samples: number,
  parallel: () => number,
): Promise<{ s: number; words: number }> {
  const segments = await findSpeechSegments(raw, samples, { useVad: false, minSilenceMs: 300 });
  const recognizer = await registry.recognizer(id);
  const t0 = performance.now();
  const out = await recognizeSegments({
    raw,
    segments,
    recognizer,
    adapter: null,
    narrowband: false,
    workDir: join(tmpdir(), 'unused-adapt'),
    signal: new AbortController().signal,
    warn: () => undefined,
    parallel,
  });
  return { s: (performance.now() - t0) / 1000, words: out.bySegment.flat().length };
}

/** One timed decode (this process may be pinned to one core by the parent). */
async function scalingPhase(modelsDir: string, id: string, seconds: number, speech: boolean): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'verbatim-scaling-'));
  const registry = new ModelRegistry({ dir: modelsDir });
  try {
    const { raw, samples } = (speech ? speechAudio(dir, seconds) : null) ?? longAudio(dir, seconds);
    const cores = availableParallelism();
    await decodeFile(registry, id, raw, samples, () => 1); // warm: load the model
    const cpu0 = cpuOf(registry.child.pid);
    const r = await decodeFile(registry, id, raw, samples, () => cores);
    console.log(JSON.stringify({ cores, wall: r.s, audio: samples / 16000, words: r.words, cpu: cpuOf(registry.child.pid) - cpu0 }));
  } finally {
    registry.dispose();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Runs scalingPhase in a child, pinned to `cpus` when given (taskset), and reads its figures. */
function runPhase(
  modelsDir: string,
  id: string,
  seconds: number,
  speech: boolean,
  cpus: string | null,
): { cores: number; wall: number; audio: number; words: number; cpu: number } {
  const tsx = join(process.cwd(), 'node_modules', '.bin', 'tsx');
  const args = [tsx, join(process.cwd(), 'bench', 'local-scaling.ts'), '--phase', modelsDir, id, String(seconds), speech ? 'speech' : 'tones'];
  const r = cpus ? spawnSync('taskset', ['-c', cpus, ...args], { encoding: 'utf8' }) : spawnSync(args[0] as string, args.slice(1), { encoding: 'utf8' });
  const line = r.stdout.trim().split('\n').pop() ?? '';
  if (r.status !== 0 || !line.startsWith('{')) throw new Error(`the scaling phase failed: ${r.stderr.slice(-2000)}`);
  return JSON.parse(line) as { cores: number; wall: number; audio: number; words: number; cpu: number };
}

/** The speedup from 1 core to all, per audio hour. */
export function scaling(modelsDir: string, id: string, seconds: number, speech = false): void {
  const cores = availableParallelism();
  const one = runPhase(modelsDir, id, seconds, speech, '0');
  const all = runPhase(modelsDir, id, seconds, speech, null);
  const perHour = (x: { wall: number; audio: number }): string => ((x.wall / x.audio) * 3600).toFixed(0);
  console.log(`audio: ${one.audio.toFixed(0)} s (${one.words} words recognized), figures scaled to 1 audio hour; CPU/wall: the worker's busy cores`);
  console.log(
    `1 core:          ${one.wall.toFixed(1)} s wall → ${perHour(one)} s per audio hour (RTF ${(one.wall / one.audio).toFixed(3)}, CPU/wall ${(one.cpu / one.wall).toFixed(2)})`,
  );
  console.log(
    `${cores} cores (all):   ${all.wall.toFixed(1)} s wall → ${perHour(all)} s per audio hour (RTF ${(all.wall / all.audio).toFixed(3)}, CPU/wall ${(all.cpu / all.wall).toFixed(2)})`,
  );
  const speedup = one.wall / all.wall;
  figure('1 core, per audio hour', (one.wall / one.audio) * 3600, 's');
  figure('all cores, per audio hour', (all.wall / all.audio) * 3600, 's');
  figure('speedup per core', speedup / cores, '×', 'higher');
  console.log(`speedup: ${speedup.toFixed(2)}× = ${(speedup / cores).toFixed(2)} × cores (goal ≥ 0.80 × cores)`);
}

/** RSS of the worker with 1, then 3 concurrent jobs on the same model; growth per extra job. */
export async function rssPerJob(modelsDir: string, id: string, raw: string, samples: number): Promise<void> {
  const registry = new ModelRegistry({ dir: modelsDir });
  try {
    const peakOf = async (jobs: number): Promise<number> => {
      let peak = 0;
      let done = false;
      const all = Promise.all(Array.from({ length: jobs }, () => decodeFile(registry, id, raw, samples, () => currentShare().parallelSegments))).finally(
        () => (done = true),
      );
      while (!done) {
        peak = Math.max(peak, rssOf(registry.child.pid));
        await new Promise((r) => setTimeout(r, 20));
      }
      await all;
      return peak;
    };
    await peakOf(1); // warm
    const one = await peakOf(1);
    const three = await peakOf(3);
    figure('worker RSS peak, 1 job', one / 2 ** 20, 'MiB');
    figure('worker RSS peak, 3 concurrent jobs', three / 2 ** 20, 'MiB');
    console.log(`worker RSS peak: 1 job ${mib(one)} MiB, 3 concurrent jobs ${mib(three)} MiB → ${mib((three - one) / 2)} MiB per extra job (goal ≤ 50 MiB)`);
  } finally {
    registry.dispose();
  }
}

/** A live session's first partial (from the chunk with the tone's onset to a non-empty partial), p50 over utterances, while `id` decodes a long file. */
export async function liveBeside(modelsDir: string, id: string | null, raw: string, samples: number, liveDir = modelsDir): Promise<number> {
  const registry = new ModelRegistry({ dir: modelsDir });
  const liveRegistry = liveDir === modelsDir ? registry : new ModelRegistry({ dir: liveDir });
  const closeLive = liveSessionOpened();
  try {
    const stream = await (await liveRegistry.recognizer('tiny-streaming-lstm')).openStream();
    let fileDone = id === null;
    const file = id ? decodeFile(registry, id, raw, samples, () => currentShare().parallelSegments).finally(() => (fileDone = true)) : null;
    const { pcm } = toneSequence(['beep'], { toneMs: 600, gapMs: 600 });
    const chunk = 1600; // 100 ms
    const firsts: number[] = [];
    for (let u = 0; u < 20 && (u < 5 || !fileDone); u++) {
      let t0 = 0;
      for (let at = 0; at < pcm.length; at += chunk) {
        // In real time, as a microphone gives it, so the partials are spread over the file's decoding.
        await new Promise((r) => setTimeout(r, 100));
        // The chunk holding the tone's onset (600 ms in) starts the clock as it arrives.
        if (at <= 9600 && at + chunk > 9600) t0 = performance.now();
        await stream.accept(pcm.subarray(at, at + chunk));
        if (t0 && !firsts[u] && (await stream.partial()).text) firsts[u] = performance.now() - t0;
      }
      await stream.finish();
    }
    stream.close();
    await file;
    return median(firsts.filter((x) => x > 0));
  } finally {
    closeLive();
    registry.dispose();
    if (liveRegistry !== registry) liveRegistry.dispose();
  }
}

/** The whole pipeline (HTTP, ffmpeg, VAD, segments, worker round trips, storing) with the free tiny model, per audio hour. */
async function pipelineCost(modelsDir: string, pcm: Int16Array, dir: string): Promise<void> {
  const wav = join(dir, 'long.wav');
  writeFileSync(wav, wavBytes(pcm));
  const { engine, dir: engineDir } = await benchEngine({ workers: 1, allowFileUrls: true, modelsDir });
  try {
    const body = JSON.stringify({ audio_url: pathToFileURL(wav).href, speech_models: ['tiny-nemo-tdt'] });
    await waitFinal(engine, (await call(engine, '/v2/transcript', { method: 'POST', body })).id as string); // warm
    const t0 = performance.now();
    const t = await waitFinal(engine, (await call(engine, '/v2/transcript', { method: 'POST', body })).id as string);
    const s = (performance.now() - t0) / 1000;
    const audio = pcm.length / 16000;
    figure('pipeline with the free model, per audio hour', (s / audio) * 3600, 's');
    console.log(
      `pipeline with the free model: ${s.toFixed(2)} s for ${audio.toFixed(0)} s of audio → ${((s / audio) * 3600).toFixed(1)} s per audio hour (goal ≤ 20 s); ${t.status as string}, ${(t.words as unknown[] | null)?.length ?? 0} words`,
    );
  } finally {
    await engine.close();
    rmSync(engineDir, { recursive: true, force: true });
  }
}

/**
 * The figures for model `id` under `modelsDir` (speech: flite sentences for a real model, else tones); the live
 * session beside it is the tiny streaming model under `liveDir`, and the free model's pipeline cost is measured
 * when `freeDir` (with tiny-nemo-tdt) is given.
 */
export async function scalingReport(o: {
  modelsDir: string;
  id: string;
  seconds: number;
  speech: boolean;
  liveDir: string;
  freeDir: string | null;
}): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'verbatim-local-scaling-'));
  try {
    const [l1, l5] = loadavg();
    console.log(
      `machine: ${availableParallelism()} cores, load average ${l1?.toFixed(1)} (1 min) ${l5?.toFixed(1)} (5 min): figures are as measured, other work included`,
    );
    scaling(o.modelsDir, o.id, o.seconds, o.speech);
    if (o.freeDir) await pipelineCost(o.freeDir, tonesOverSpeech(dir, 600), dir);
    const long = (o.speech ? speechAudio(dir, o.seconds) : null) ?? longAudio(dir, o.seconds);
    await rssPerJob(o.modelsDir, o.id, long.raw, long.samples);
    const alone = await liveBeside(o.modelsDir, null, long.raw, long.samples, o.liveDir);
    const beside = await liveBeside(o.modelsDir, o.id, long.raw, long.samples, o.liveDir);
    figure('live first partial alone, p50', alone, 'ms');
    figure('live first partial beside a file job, p50', beside, 'ms');
    const where = o.liveDir === o.modelsDir ? 'in the same worker' : 'in a worker of its own';
    console.log(
      `live first partial p50 (tiny streaming model, ${where}): ${alone.toFixed(0)} ms alone, ${beside.toFixed(0)} ms beside a file job (goal ≤ 300 ms)`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  if (process.argv[2] === '--phase') {
    await scalingPhase(process.argv[3] as string, process.argv[4] as string, Number(process.argv[5]), process.argv[6] === 'speech');
    return;
  }
  const dir = mkdtempSync(join(tmpdir(), 'verbatim-local-scaling-'));
  const models = join(dir, 'models');
  try {
    writeTinyModel(models, 'nemo-tdt');
    writeTinyModel(models, 'streaming-lstm');
    writeComputeModel(models);
    console.log(`compute model: ${mflopPerFrame().toFixed(0)} MFLOP per 10 ms feature frame, one thread per decode as the engine configures it`);
    await scalingReport({ modelsDir: models, id: 'compute-nemo-tdt', seconds: Number(arg('seconds') ?? 120), speech: false, liveDir: models, freeDir: models });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
