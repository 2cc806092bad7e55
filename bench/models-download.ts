/**
 * Model downloads: a 1 GiB download from a local HTTP server (a child process
 * serving the bytes from memory) through the model manager's downloader
 * (Range-capable GET, SHA-256 as it goes, written to a .part file), against
 * curl writing the same bytes to a file. Prints the throughput of both (goal
 * ≥ 90% of curl) and this process's RSS growth over the download (goal ≤ 32 MiB).
 *   npx tsx bench/models-download.ts [MiB]
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { download } from '../src/main/services/models/download';
import { Connection } from '../src/main/services/models/net';

const MIB = 1024 * 1024;
const sizeMiB = Number(process.argv[2] ?? 1024);

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

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'models-download-bench-'));
  const server = spawn(process.execPath, ['-e', SERVER], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<number>((resolve) =>
    server.stdout.on('data', (d: Buffer) => /port (\d+)/.test(String(d)) && resolve(Number(/port (\d+)/.exec(String(d))![1]))),
  );
  const url = `http://127.0.0.1:${port}/model.bin`;
  try {
    // curl, best of two (the first warms the page cache and the server).
    let curlSec = Infinity;
    for (let i = 0; i < 2; i++) {
      const out = join(dir, 'curl.bin');
      const t0 = performance.now();
      execFileSync('curl', ['-sS', '-o', out, url]);
      curlSec = Math.min(curlSec, (performance.now() - t0) / 1000);
      rmSync(out);
    }

    let best = Infinity;
    const growth: number[] = [];
    const curves: string[][] = [[], []];
    for (let i = 0; i < 2; i++) {
      const part = join(dir, 'model.bin.part');
      const connection = new Connection({});
      global.gc?.();
      const base = process.memoryUsage().rss;
      let peak = base;
      const sampler = setInterval(() => {
        const rss = process.memoryUsage().rss;
        peak = Math.max(peak, rss);
        curves[i]!.push(((rss - base) / MIB).toFixed(0));
      }, 250);
      const t0 = performance.now();
      const got = await download({ url, part, magic: null, connection, signal: new AbortController().signal, onProgress: () => undefined, stallMs: 60_000 });
      const sec = (performance.now() - t0) / 1000;
      clearInterval(sampler);
      connection.close();
      if (got.bytes !== sizeMiB * MIB || statSync(part).size !== got.bytes) throw new Error(`downloaded ${got.bytes} bytes, expected ${sizeMiB * MIB}`);
      rmSync(part);
      best = Math.min(best, sec);
      growth.push((peak - base) / MIB);
    }
    const mbs = (s: number) => ((sizeMiB * MIB) / s / MIB).toFixed(0);
    const ratio = curlSec / best;
    console.log(`${sizeMiB} MiB from a local server (best of 2 each)`);
    console.log(`  curl -o FILE       ${curlSec.toFixed(2)} s  ${mbs(curlSec)} MiB/s`);
    console.log(`  model downloader   ${best.toFixed(2)} s  ${mbs(best)} MiB/s  (SHA-256 as it goes)`);
    console.log(`  throughput vs curl ${(ratio * 100).toFixed(0)}%  (goal ≥ 90%) ${ratio >= 0.9 ? 'ok' : 'BELOW GOAL'}`);
    const worst = Math.max(...growth);
    console.log(
      `  RSS growth         first download ${growth[0]!.toFixed(1)} MiB, second ${growth[1]!.toFixed(1)} MiB  (goal ≤ 32 MiB) ${worst <= 32 ? 'ok' : 'ABOVE GOAL'}`,
    );
    curves.forEach((c, i) => console.log(`  RSS, download ${i + 1}, MiB above its start, every 250 ms: ${c.join(' ')}`));
  } finally {
    server.kill();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
