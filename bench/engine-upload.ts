/**
 * 1 GiB upload to the engine (a child process): its RSS growth (goal ≤ 32 MiB),
 * with the RSS curve over the upload, and the throughput of the app's own
 * uploader (RestClient.upload, what a job's upload step runs) against curl
 * sending the same raw body to the same engine (goal ≥ 90% of curl). It was a
 * bare fetch() over a web stream, which tops out near 250 MiB/s on this machine
 * whatever the engine does: the client, not the engine, set the ratio. curl runs as
 * `curl -X POST -T FILE`: `--data-binary @FILE` reads the whole file into
 * memory first and fails with "out of memory" at 1 GiB.
 *   npx tsx bench/engine-upload.ts [MiB]
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RestClient } from '../src/main/services/client/rest';
import { fmt, KEY } from './_engine-support';
import { figure } from './_figure';

const MIB = 1024 * 1024;
const sizeMiB = Number(process.argv[2] ?? 1024);

function rssMiB(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : 0;
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'engine-upload-bench-'));
  const file = join(dir, 'big.bin');
  // Random-ish content, written in 16 MiB blocks (not sparse: the disk really reads it).
  const block = Buffer.alloc(16 * MIB);
  for (let i = 0; i < block.length; i += 4) block.writeUInt32LE((i * 2654435761) >>> 0, i);
  writeFileSync(file, '');
  for (let i = 0; i < sizeMiB / 16; i++) writeFileSync(file, block, { flag: 'a' });
  // Written out before anything is measured (its write-back would slow the first upload).
  execFileSync('sync');
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      'src/engine/index.ts',
      '--port',
      '0',
      '--api-key',
      KEY,
      '--data',
      join(dir, 'data'),
      '--quiet',
      '--max-upload-bytes',
      String(8 * 1024 * MIB),
    ],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const url = await new Promise<string>((resolve) => {
    let out = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /listening on (\S+)/.exec(out);
      if (m) resolve(m[1] as string);
    });
  });
  const pid = child.pid as number;
  try {
    // The engine preloads its decoders and VAD after it starts listening: wait until its RSS settles.
    let prev = -1;
    for (let i = 0; i < 30 && Math.abs(rssMiB(pid) - prev) > 1; i++) {
      prev = rssMiB(pid);
      await new Promise((r) => setTimeout(r, 1000));
    }
    const before = rssMiB(pid);
    let peak = before;
    let sent = 0;
    // The curve: the engine's RSS at each sixteenth of the body sent.
    const curve: number[] = [];
    const sampler = setInterval(() => {
      const rss = rssMiB(pid);
      peak = Math.max(peak, rss);
      const step = Math.floor((sent / (sizeMiB * MIB)) * 16);
      if (step > curve.length - 1 && step <= 16) curve[step] = rss;
    }, 50);
    // Three rounds, each the app's own uploader (what a job's upload step runs, streaming the file
    // from disk) and then curl; throughput is compared by medians (one round swung 88–107%). The RSS
    // growth and its curve are the first upload's, from the engine's settled RSS. Between uploads the
    // stored body is deleted and the disk synced: otherwise each upload after the second waits on
    // the write-back of the gigabytes before it (~180 MiB/s here, whichever client sends).
    const settleDisk = () => {
      rmSync(join(dir, 'data', 'uploads'), { recursive: true, force: true });
      mkdirSync(join(dir, 'data', 'uploads'));
      execFileSync('sync');
    };
    const client = new RestClient(url, KEY);
    const ours: number[] = [];
    const theirs: number[] = [];
    for (let round = 0; round < 3; round++) {
      sent = 0;
      const t0 = performance.now();
      const uploadUrl = await client.upload(file, { onProgress: ({ bytes }) => (sent = bytes) });
      ours.push((performance.now() - t0) / 1000);
      if (round === 0) clearInterval(sampler);
      if (!uploadUrl) throw new Error('upload failed: no upload_url');
      settleDisk();
      const t1 = performance.now();
      const out = execFileSync(
        'curl',
        ['-s', '-X', 'POST', '-H', `authorization: ${KEY}`, '-H', 'content-type: application/octet-stream', '-H', 'Expect:', '-T', file, `${url}/v2/upload`],
        { maxBuffer: 1e6 },
      ).toString();
      theirs.push((performance.now() - t1) / 1000);
      if (!out.includes('upload_url')) throw new Error(`curl upload failed: ${out}`);
      settleDisk();
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
    const nodeSec = median(ours);
    const curlSec = median(theirs);

    const mb = sizeMiB;
    const rates = (xs: number[]) => xs.map((x) => fmt(mb / x, 0)).join(', ');
    figure('engine RSS growth, first upload', peak - before, 'MiB');
    figure("Verbatim's uploader throughput", mb / nodeSec, 'MiB/s', 'higher');
    figure('curl -T, median', curlSec, 's');
    figure('Verbatim / curl throughput', (curlSec / nodeSec) * 100, '%', 'higher');
    console.log(`upload of ${mb} MiB, 3 rounds`);
    console.log(
      `  engine RSS before ${fmt(before, 1)} MiB, peak during the first upload ${fmt(peak, 1)} MiB → growth ${fmt(peak - before, 1)} MiB (goal ≤ 32)`,
    );
    const points = curve.map((rss, i) => (rss === undefined ? null : `${Math.round((i / 16) * 100)}%: +${fmt(rss - before, 0)}`)).filter(Boolean);
    console.log(`  RSS over the upload (MiB above before): ${points.join(', ')}`);
    console.log(`  Verbatim's uploader:  median ${fmt(nodeSec)} s = ${fmt(mb / nodeSec, 1)} MiB/s  [${rates(ours)}]`);
    console.log(`  curl -T (streamed):   median ${fmt(curlSec)} s = ${fmt(mb / curlSec, 1)} MiB/s  [${rates(theirs)}]`);
    console.log(`  Verbatim / curl throughput (medians): ${fmt((mb / nodeSec / (mb / curlSec)) * 100, 0)}% (goal ≥ 90%)`);
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    rmSync(dir, { recursive: true, force: true });
  }
}

void main();
