/**
 * The command line beside the app, on the same model (PocketSphinx unless `--model ID`):
 * - start: `verbatim transcribe` from spawn to its first progress line on stderr (goal ≤ 500 ms), and `verbatim --help`;
 * - time per audio hour: the CLI's whole run (its own engine started cold, as every run does) and the app's
 *   (host mode's services in this process: the first file with the engine cold, then warm), on one spoken clip.
 * `npm run bench -- cli [--model ID] [--runs N] [--seconds S]`
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { createCore } from '../src/main/core';
import { createHostPlatform } from '../src/main/platform/host';
import { call } from '../tests/support/router';
import { waitFinal } from '../tests/support/jobs';
import { CLIPS, concatSpeech, makeSpeech } from '../tests/fixtures/speech';
import { figure } from './_figure';

const { values } = parseArgs({
  args: process.argv.slice(2),
  options: { model: { type: 'string' }, runs: { type: 'string', default: '3' }, seconds: { type: 'string', default: '60' } },
});
const runs = Number(values.runs);
const dir = mkdtempSync(join(tmpdir(), 'verbatim-bench-cli-'));
const bin = resolve('scripts/verbatim.mjs');
const env = { ...process.env, VERBATIM_KEY_DIR: join(dir, 'keys'), ASSEMBLYAI_API_KEY: '' };

// A spoken clip of about --seconds: the fixtures' sentences read by flite, repeated with pauses.
const parts = Object.entries(CLIPS).map(([name, text]) => makeSpeech(dir, name, text));
const target = Number(values.seconds);
const reps = Math.max(1, Math.round(target / 16));
const clip = concatSpeech(dir, 'clip', Array.from({ length: reps }, () => parts).flat());
const model = values.model ? ['--model', values.model] : [];

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

/** One CLI run: ms to the first stderr line, to the file queued in the library, to exit; its exit status. */
function cliRun(args: string[]): Promise<{ first: number; queued: number; total: number; code: number | null }> {
  return new Promise((res) => {
    const t0 = performance.now();
    let first = -1;
    let queued = -1;
    const p = spawn(process.execPath, [bin, ...args], { env, stdio: ['ignore', 'ignore', 'pipe'] });
    p.stderr.on('data', (d: Buffer) => {
      if (first < 0) first = performance.now() - t0;
      if (queued < 0 && /: queued$/m.test(d.toString())) queued = performance.now() - t0;
    });
    p.on('close', (code) => res({ first, queued, total: performance.now() - t0, code }));
  });
}

try {
  // Warm the compile cache and the bundle once, as any second run finds them.
  await cliRun(['--help']);
  const help: number[] = [];
  for (let i = 0; i < runs; i++) help.push((await cliRun(['--help'])).total);

  const data = join(dir, 'data');
  const firsts: number[] = [];
  const queued: number[] = [];
  const totals: number[] = [];
  let audioMs = 0;
  for (let i = 0; i < runs; i++) {
    const r = await cliRun(['transcribe', clip, '--data', data, ...model]);
    if (r.code !== 0) throw new Error(`verbatim transcribe exited ${r.code}`);
    firsts.push(r.first);
    queued.push(r.queued);
    totals.push(r.total);
  }

  // The app: host mode's services in this process, on its own data folder, the same clip and model.
  const platform = createHostPlatform({ dataDir: join(dir, 'app'), version: 'bench', keyFile: join(dir, 'keys', 'host-secret.key') });
  const core = createCore(platform, () => true, { log: () => undefined });
  const app: number[] = [];
  for (let i = 0; i < runs + 1; i++) {
    const t0 = performance.now();
    const { jobs } = await call(core.router, 'jobs.addFiles', {
      files: [{ kind: 'path', path: clip }],
      ...(values.model ? { options: { speechModels: [values.model] } } : {}),
    });
    const job = await waitFinal(core.jobs, jobs[0]!.id, 600_000);
    if (job.status !== 'completed') throw new Error(`app job ${job.status}: ${job.error?.message}`);
    app.push(performance.now() - t0);
    audioMs = core.library.recordings.item(job.recordingId).durationMs ?? audioMs;
  }
  await core.dispose();

  const perHour = (ms: number) => `${((ms / audioMs) * 3600).toFixed(0)} s per audio hour`;
  const appCold = app[0]!;
  const appWarm = median(app.slice(1));
  const cli = median(totals);
  const hourly = (ms: number) => (ms / audioMs) * 3600;
  figure('--help, median', median(help), 'ms');
  figure('transcribe to first progress line, median', median(firsts), 'ms');
  figure('transcribe to file queued, median', median(queued), 'ms');
  figure('transcribe whole run, per audio hour', hourly(cli), 's');
  figure('app first file (cold), per audio hour', hourly(appCold), 's');
  figure('app later files (warm), per audio hour', hourly(appWarm), 's');
  figure('CLI / app (cold engine both)', cli / appCold, '×');
  console.log(`clip: ${(audioMs / 1000).toFixed(1)} s of speech; model: ${values.model ?? 'pocketsphinx (default)'}; ${runs} runs each, medians`);
  console.log(`verbatim --help: ${median(help).toFixed(0)} ms`);
  console.log(`verbatim transcribe, start to first progress line: ${median(firsts).toFixed(0)} ms (goal ≤ 500 ms)`);
  console.log(`verbatim transcribe, start to the file queued in the library: ${median(queued).toFixed(0)} ms`);
  console.log(`verbatim transcribe, whole run (engine started cold): ${cli.toFixed(0)} ms = ${perHour(cli)}`);
  console.log(`app, first file (engine started cold): ${appCold.toFixed(0)} ms = ${perHour(appCold)}`);
  console.log(`app, later files (engine warm): ${appWarm.toFixed(0)} ms = ${perHour(appWarm)}`);
  console.log(`CLI / app (cold engine both): ${(cli / appCold).toFixed(2)}x (goal ≤ 1.10); CLI / app warm: ${(cli / appWarm).toFixed(2)}x`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
