/**
 * 1 GiB upload to the local engine: the client's RSS growth (goal ≤ 64 MiB)
 * and its throughput against `curl --data-binary` (goal ≥ 80%).
 * `npx tsx bench/app-upload.ts [MiB]`
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RestClient } from '../src/main/services/client/rest';
import { note, startService } from './_app-support';
import { figure } from './_figure';

const mib = Number(process.argv[2] ?? 1024);
const dir = mkdtempSync(join(tmpdir(), 'verbatim-bench-upload-'));
const file = join(dir, 'big.bin');
const fd = openSync(file, 'w');
const block = Buffer.alloc(8 * 1024 * 1024);
for (let i = 0; i < block.length; i += 4) block.writeUInt32LE((i * 2654435761) >>> 0, i);
for (let i = 0; i < mib / 8; i++) writeSync(fd, block);
closeSync(fd);
const bytes = mib * 1024 * 1024;

const svc = await startService();
try {
  const client = new RestClient(svc.url, svc.key);
  // curl --data-binary @file reads the whole file into memory and gives up at 1 GiB
  // ("out of memory"); --upload-file streams it, so it is the baseline beyond that.
  const curlArgs = (body: string[]) => [
    '-s',
    '-o',
    '/dev/null',
    '-w',
    '%{time_total}',
    '-H',
    `authorization: ${svc.key}`,
    '-H',
    'content-type: application/octet-stream',
    '-H',
    'Expect:',
    ...body,
    `${svc.url}/v2/upload`,
  ];
  let curlMode = '--data-binary';
  // Async, so this process's event loop keeps running (a blocked loop would keep stale keep-alive sockets around).
  const run = promisify(execFile);
  const runCurl = async (): Promise<number> => {
    if (curlMode === '--data-binary') {
      try {
        return Number((await run('curl', curlArgs(['--data-binary', `@${file}`]))).stdout);
      } catch {
        curlMode = '--upload-file -X POST (--data-binary ran out of memory)';
      }
    }
    return Number((await run('curl', curlArgs(['-X', 'POST', '--upload-file', file]))).stdout);
  };
  const base = process.memoryUsage().rss;
  let peak = base;
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
  const ours: number[] = [];
  const theirs: number[] = [];
  // The service shares the machine's cores with the client: alternate and take medians.
  for (let round = 0; round < 3; round++) {
    const t0 = performance.now();
    await client.upload(file, { onProgress: () => undefined });
    ours.push((performance.now() - t0) / 1000);
    process.stderr.write(`round ${round}: ours ${ours[round]!.toFixed(2)} s\n`);
    theirs.push(await runCurl());
    process.stderr.write(`round ${round}: curl ${theirs[round]!.toFixed(2)} s\n`);
  }
  clearInterval(timer);
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const mbps = (s: number) => bytes / 1024 / 1024 / s;
  figure('client RSS growth', (peak - base) / 1024 / 1024, 'MiB');
  figure('Verbatim client throughput', mbps(median(ours)), 'MiB/s', 'higher');
  figure('curl upload, median', median(theirs), 's');
  figure('throughput ratio ours / curl', (median(theirs) / median(ours)) * 100, '%', 'higher');
  console.log(`app-upload: ${mib} MiB ${note(svc.kind)}, 3 rounds, medians`);
  console.log(`  client RSS growth (peak over the 3 uploads): ${((peak - base) / 1024 / 1024).toFixed(1)} MiB (goal ≤ 64 MiB)`);
  console.log(`  Verbatim client: ${median(ours).toFixed(2)} s, ${mbps(median(ours)).toFixed(0)} MiB/s  [${ours.map((x) => x.toFixed(2)).join(', ')}]`);
  console.log(`  curl ${curlMode}: ${median(theirs).toFixed(2)} s, ${mbps(median(theirs)).toFixed(0)} MiB/s  [${theirs.map((x) => x.toFixed(2)).join(', ')}]`);
  console.log(`  throughput ratio (ours / curl): ${((median(theirs) / median(ours)) * 100).toFixed(0)}% (goal ≥ 80%)`);
} finally {
  svc.stop();
  rmSync(dir, { recursive: true, force: true });
}
