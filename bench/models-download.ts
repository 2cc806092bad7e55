/**
 * Model downloads: a 1 GiB single-file model from a local HTTP server (a
 * child process serving the bytes from memory) through the model manager, as
 * the app runs it (ranged GET, bounded, SHA-256 as it goes, written to a
 * .part file, verified and moved into place, progress events), against the
 * same work done by curl piped to sha256sum (`curl URL | tee FILE |
 * sha256sum`), and plain `curl -o FILE` for reference. Rounds alternate the
 * clients and are compared by medians (the machine is shared). Prints each
 * throughput, the ratio (goal ≥ 90% of curl | sha256sum) and this process's
 * RSS growth over the first download (goal ≤ 32 MiB) and the later ones.
 *   npx tsx bench/models-download.ts [MiB] [rounds]
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ModelManager } from '../src/main/services/models/manager';
import type { CatalogEntry } from '../src/shared/models/catalog';
import { figure } from './_figure';

const MIB = 1024 * 1024;
const sizeMiB = Number(process.argv[2] ?? 1024);
const rounds = Number(process.argv[3] ?? 3);

// The server: 1 MiB of pseudo-random bytes sent over and over, with a Content-Length (so both clients know the size).
const SERVER = `
const http = require('node:http');
const MIB = 1024 * 1024, total = ${sizeMiB} * MIB;
const block = Buffer.alloc(MIB);
for (let i = 0; i < MIB; i += 4) block.writeUInt32LE((i * 2654435761) >>> 0, i);
http.createServer((req, res) => {
  res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': total });
  let sent = 0;
  const pump = () => {
    while (sent < total) {
      const n = Math.min(MIB, total - sent);
      sent += n;
      if (!res.write(n === MIB ? block : block.subarray(0, n))) return res.once('drain', pump);
    }
    res.end();
  };
  pump();
}).listen(0, '127.0.0.1', function () { console.log('port ' + this.address().port); });
`;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const mbs = (s: number) => `${((sizeMiB * MIB) / s / MIB).toFixed(0)} MiB/s`;

function timed(fn: () => void): number {
  const t0 = performance.now();
  fn();
  return (performance.now() - t0) / 1000;
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'models-download-bench-'));
  const server = spawn(process.execPath, ['-e', SERVER], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<number>((resolve) =>
    server.stdout.on('data', (d: Buffer) => /port (\d+)/.test(String(d)) && resolve(Number(/port (\d+)/.exec(String(d))![1]))),
  );
  const url = `http://127.0.0.1:${port}/model.bin`;
  const entry: CatalogEntry = {
    id: 'bench-model',
    name: 'Bench model',
    task: 'embedding',
    family: 'speaker-embedding',
    languages: ['en'],
    url,
    format: 'file',
    sizeBytes: sizeMiB * MIB,
    unpackedBytes: sizeMiB * MIB,
    checksums: null,
    sha256: null,
    files: { model: 'model.onnx' },
    licence: 'MIT',
    speedClass: 'fast',
    wer: [],
    rtf: null,
    wordTimings: 'none',
    contextLength: null,
    ramBytes: null,
    note: '',
  };
  const models = join(dir, 'models');
  const manager = new ModelManager(models, { catalog: [entry], freeSpace: () => Promise.resolve(null) });
  await manager.start();
  let events = 0;
  manager.onProgress(() => events++);
  const piped = `curl -sS ${url} | tee ${join(dir, 'curl.bin')} | sha256sum`;
  try {
    // Warm-up: the page cache, the server, curl.
    execFileSync('curl', ['-sS', '-o', join(dir, 'curl.bin'), url]);
    const curlPlain: number[] = [];
    const curlHash: number[] = [];
    const ours: number[] = [];
    const growth: number[] = [];
    const curves: string[] = [];
    const mainCpu: number[] = [];
    // CPU time of this thread alone (Node ≥ 23.9): what a download costs the app's event loop, steadier than wall time on a busy machine.
    const threadCpu = (process as unknown as { threadCpuUsage?: () => NodeJS.CpuUsage }).threadCpuUsage?.bind(process);
    for (let i = 0; i < rounds; i++) {
      curlPlain.push(timed(() => execFileSync('curl', ['-sS', '-o', join(dir, 'curl.bin'), url])));
      rmSync(join(dir, 'curl.bin'));
      curlHash.push(timed(() => execFileSync('sh', ['-c', piped])));
      rmSync(join(dir, 'curl.bin'));
      execFileSync('sync');

      global.gc?.();
      const base = process.memoryUsage().rss;
      let peak = base;
      const samples: number[] = [];
      const sampler = setInterval(() => {
        const rss = process.memoryUsage().rss;
        peak = Math.max(peak, rss);
        samples.push(Math.round((rss - base) / MIB));
      }, 250);
      const cpu0 = threadCpu?.();
      const t0 = performance.now();
      await manager.download(entry.id);
      const done = await manager.settled(entry.id);
      const sec = (performance.now() - t0) / 1000;
      clearInterval(sampler);
      const cpu1 = threadCpu?.();
      if (cpu0 && cpu1) mainCpu.push((cpu1.user - cpu0.user + cpu1.system - cpu0.system) / 1e6);
      peak = Math.max(peak, process.memoryUsage().rss);
      if (done?.state !== 'installed') throw new Error(`the download ended ${done?.state}: ${JSON.stringify(done?.error)}`);
      ours.push(sec);
      growth.push((peak - base) / MIB);
      curves.push(samples.join(' '));
      await manager.delete(entry.id);
      execFileSync('sync');
    }
    const ratio = median(curlHash) / median(ours);
    figure('model manager throughput', (sizeMiB * MIB) / median(ours) / MIB, 'MiB/s', 'higher');
    figure('curl | sha256sum, median', median(curlHash), 's');
    figure('vs curl | sha256sum', ratio * 100, '%', 'higher');
    figure('RSS growth, first download', growth[0]!, 'MiB');
    if (mainCpu.length) figure('main thread CPU per GiB', (median(mainCpu) / sizeMiB) * 1024, 's');
    console.log(`${sizeMiB} MiB from a local server, ${rounds} rounds, medians (each round: curl, curl | sha256sum, the model manager)`);
    console.log(
      `  curl -o FILE                  ${median(curlPlain).toFixed(2)} s  ${mbs(median(curlPlain))}  (${curlPlain.map((s) => s.toFixed(2)).join(', ')})`,
    );
    console.log(
      `  curl | tee FILE | sha256sum   ${median(curlHash).toFixed(2)} s  ${mbs(median(curlHash))}  (${curlHash.map((s) => s.toFixed(2)).join(', ')})`,
    );
    console.log(`  model manager download        ${median(ours).toFixed(2)} s  ${mbs(median(ours))}  (${ours.map((s) => s.toFixed(2)).join(', ')})`);
    console.log(`  vs curl | sha256sum           ${(ratio * 100).toFixed(0)}%  (goal ≥ 90%) ${ratio >= 0.9 ? 'ok' : 'BELOW GOAL'}`);
    console.log(`  vs plain curl                 ${((median(curlPlain) / median(ours)) * 100).toFixed(0)}%`);
    console.log(
      `  RSS growth                    first download ${growth[0]!.toFixed(1)} MiB, later ${growth
        .slice(1)
        .map((g) => g.toFixed(1))
        .join(', ')} MiB  (goal ≤ 32 MiB on the first) ${growth[0]! <= 32 ? 'ok' : 'ABOVE GOAL'}`,
    );
    if (mainCpu.length)
      console.log(
        `  main thread CPU               ${median(mainCpu).toFixed(2)} s per download, ${((median(mainCpu) / sizeMiB) * 1024).toFixed(2)} s per GiB  (${mainCpu.map((s) => s.toFixed(2)).join(', ')})`,
      );
    console.log(`  progress events               ${(events / rounds).toFixed(0)} per download`);
    curves.forEach((c, i) => console.log(`  RSS, download ${i + 1}, MiB above its start, every 250 ms: ${c}`));
  } finally {
    await manager.dispose();
    server.kill();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
