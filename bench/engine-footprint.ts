/**
 * The engine's memory over a working day in miniature: resident set size
 * (RSS) of the engine process idle after start, at its peak during 4
 * transcription jobs, and 70 s after the last one (nothing is preloaded;
 * decoders and VAD detectors are made on demand and freed after a minute
 * unused). Goal: idle ≤ 150 MiB, and back there after work. Measured for the
 * engine the app runs (bundled, out/host/engine.mjs) and for `npm run engine`
 * (TypeScript compiled at load by tsx).
 *   npm run bench -- footprint
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { CLIPS, hasFlite, makeSpeech, concatSpeech } from '../tests/fixtures/speech';
import { figure } from './_figure';

const KEY = 'footprint-key';
const require = createRequire(import.meta.url);

function rssMiB(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : NaN;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function measure(label: string, short: string, entry: string[], speech: string, dataDir: string): Promise<void> {
  // One process (no npm or tsx wrapper) so /proc/<pid> is the engine itself.
  const child = spawn(process.execPath, [...entry, '--port', '0', '--api-key', KEY, '--data', dataDir, '--workers', '2', '--quiet'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  try {
    const url = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        const m = /listening on (\S+)/.exec(out);
        if (m) resolve(m[1] as string);
      });
      child.on('exit', (code) => reject(new Error(`the engine exited (${code})`)));
    });
    const pid = child.pid as number;
    const call = async (path: string, init: RequestInit = {}) =>
      (await fetch(`${url}${path}`, { ...init, headers: { authorization: KEY, ...(init.headers as Record<string, string>) } })).json() as Promise<
        Record<string, unknown>
      >;
    // Settle: start-up only; nothing is preloaded.
    await sleep(3000);
    const atStart = rssMiB(pid);
    const up = await call('/v2/upload', { method: 'POST', body: readFileSync(speech) });
    let peak = rssMiB(pid);
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) {
      const t = await call('/v2/transcript', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ audio_url: up.upload_url }),
      });
      ids.push(t.id as string);
    }
    for (;;) {
      peak = Math.max(peak, rssMiB(pid));
      const st = await Promise.all(ids.map((id) => call(`/v2/transcript/${id}`)));
      if (st.every((t) => t.status === 'completed' || t.status === 'error')) break;
      await sleep(100);
    }
    const afterJobs = rssMiB(pid);
    let settled = afterJobs;
    for (let s = 0; s < 70; s++) {
      await sleep(1000);
      settled = rssMiB(pid);
    }
    figure(`${short}: RSS idle after start`, atStart, 'MiB');
    figure(`${short}: RSS peak during 4 jobs`, peak, 'MiB');
    figure(`${short}: RSS 70 s after`, settled, 'MiB');
    console.log(
      `${label}: RSS ${atStart.toFixed(0)} MiB idle after start, peak ${peak.toFixed(0)} MiB during 4 jobs, ${afterJobs.toFixed(0)} MiB when they finished, ${settled.toFixed(0)} MiB 70 s later (goal ≤ 150 MiB idle; ratio peak/idle ${(peak / settled).toFixed(1)}×)`,
    );
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
  }
}

async function main(): Promise<void> {
  if (!hasFlite()) {
    console.log('engine-footprint: skipped — flite is missing (apt-get install flite).');
    return;
  }
  const dir = mkdtempSync(join(tmpdir(), 'footprint-'));
  try {
    const parts = Object.entries(CLIPS).map(([k, t]) => makeSpeech(dir, k, t));
    const speech = concatSpeech(dir, 'talk', [...parts, ...parts], 0.6);
    const bundled = 'out/host/engine.mjs';
    if (existsSync(bundled)) await measure("the app's engine (bundled)", 'bundled', [bundled], speech, join(dir, 'bundled'));
    else console.log(`(${bundled} is missing: npm run build:host)`);
    await measure('npm run engine (tsx)', 'tsx', ['--import', require.resolve('tsx'), 'src/engine/index.ts'], speech, join(dir, 'tsx'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
process.exit(0);
