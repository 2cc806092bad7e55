/**
 * Model unpacking: a generated ~150 MB .tar.bz2 holding ~200 MB (int8-like
 * weights, which bzip2 barely shrinks, and sparse tensors, which it shrinks a
 * lot) unpacked by the app's unpacker (unpack.ts: the decoder it picks, and
 * each other decoder this machine has), beside `bzip2 -dc > file` and
 * `tar -xjf` on the same archive. Three interleaved rounds, medians compared
 * (goal: unpacker ≤ 1.2 × bzip2 -d). Also a 2 GiB bzip2 bomb: how soon it is
 * refused, and this process's RSS growth and longest event-loop delay while
 * unpacking (the decoding runs off the main thread).
 *   npx tsx bench/models-unpack.ts [--js] [--rounds N]   (--js: also time the worker decoder, about 3 × slower; N default 3)
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { pack } from 'tar-stream';
import { unpackTarBz2 } from '../src/main/services/models/unpack';
import { availableDecoders, type DecoderKind } from '../src/main/services/models/unpack-decoder';
import { figure } from './_figure';

const MIB = 1024 * 1024;
const WANTED = ['encoder.int8.onnx', 'decoder.int8.onnx', 'joiner.int8.onnx', 'tokens.txt'];
const work = join(tmpdir(), 'verbatim-bench-unpack');
const archive = join(work, 'model-v1.tar.bz2');

/** Deterministic int8-like weights: a sum of four uniform bytes (bell-shaped, ~7 bits of entropy a byte), or mostly zeros. */
function tensor(bytes: number, sparse: boolean, seed: number): Buffer {
  let s = seed >>> 0 || 1;
  const b = Buffer.allocUnsafe(bytes);
  for (let i = 0; i < bytes; i++) {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    const r = s >>> 0;
    const v = ((r & 0xff) + ((r >>> 8) & 0xff) + ((r >>> 16) & 0xff) + (r >>> 24)) >> 2;
    b[i] = sparse ? ((r & 0x1f) === 0 ? v : 0) : v;
  }
  return b;
}

async function makeArchive(): Promise<void> {
  if (existsSync(archive)) return;
  mkdirSync(work, { recursive: true });
  console.log(`making ${archive} (once; kept for later runs)…`);
  const members: [string, () => Buffer][] = [
    ['model/tokens.txt', () => Buffer.from(Array.from({ length: 5000 }, (_, i) => `▁tok${i} ${i}`).join('\n'))],
    ['model/encoder.int8.onnx', () => Buffer.concat([tensor(112 * MIB, false, 1), tensor(40 * MIB, true, 2)])],
    ['model/decoder.int8.onnx', () => tensor(20 * MIB, false, 3)],
    ['model/joiner.int8.onnx', () => tensor(10 * MIB, false, 4)],
    ['model/test_wavs/0.wav', () => tensor(8 * MIB, false, 5)],
    ['model/README.md', () => Buffer.from('# bench model\n')],
  ];
  const tmp = `${archive}.tmp`;
  const bzip2 = spawn('bzip2', ['-c'], { stdio: ['pipe', 'pipe', 'inherit'] });
  const { createWriteStream } = await import('node:fs');
  const { pipeline } = await import('node:stream/promises');
  const written = pipeline(bzip2.stdout, createWriteStream(tmp));
  const p = pack();
  p.pipe(bzip2.stdin);
  for (const [name, body] of members) {
    const b = body();
    await new Promise<void>((r, j) => p.entry({ name, size: b.length }, b, (e) => (e ? j(e) : r())));
  }
  p.finalize();
  await written;
  execFileSync('mv', [tmp, archive]);
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** Wall seconds of `fn`, after the disk has written back what the last run left. */
async function timed(fn: () => Promise<unknown> | unknown): Promise<number> {
  execFileSync('sync');
  const t0 = performance.now();
  await fn();
  return (performance.now() - t0) / 1000;
}

const fresh = (name: string) => {
  const d = join(work, name);
  rmSync(d, { recursive: true, force: true });
  mkdirSync(d);
  return d;
};

async function unpackOnce(decoder: DecoderKind): Promise<{ sec: number; loopMaxMs: number; rssMiB: number }> {
  const out = fresh(`out-${decoder}`);
  const loop = monitorEventLoopDelay({ resolution: 10 });
  const base = process.memoryUsage().rss;
  let peak = base;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 100);
  loop.enable();
  const sec = await timed(() => unpackTarBz2(archive, out, { wanted: WANTED, maxBytes: 250 * MIB, decoder }));
  loop.disable();
  clearInterval(sampler);
  rmSync(out, { recursive: true, force: true });
  return { sec, loopMaxMs: loop.max / 1e6, rssMiB: (peak - base) / MIB };
}

async function bomb(decoder: DecoderKind): Promise<string> {
  // The header says 2 GiB of zeros in a file the model needs; the zeros follow as concatenated bzip2 streams (1.8 kB-class).
  const h = Buffer.alloc(512);
  h.write('model/encoder.int8.onnx', 0);
  h.write('0000644\0', 100);
  h.write('0000000\0', 108);
  h.write('0000000\0', 116);
  h.write(`${(2048 * MIB).toString(8).padStart(11, '0')}\0`, 124);
  h.write('00000000000\0', 136);
  h.write('0', 156);
  h.write('ustar\0', 257);
  h.write('00', 263);
  h.write('        ', 148);
  let sum = 0;
  for (const x of h) sum += x;
  h.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148);
  const zeros = execFileSync('bzip2', ['-c'], { input: Buffer.alloc(64 * MIB), maxBuffer: 1 << 30 });
  const file = join(work, 'bomb.tar.bz2');
  writeFileSync(file, Buffer.concat([execFileSync('bzip2', ['-c'], { input: h }), ...Array.from({ length: 32 }, () => zeros)]));
  const out = fresh('out-bomb');
  const loop = monitorEventLoopDelay({ resolution: 10 });
  const base = process.memoryUsage().rss;
  loop.enable();
  const t0 = performance.now();
  const err = await unpackTarBz2(file, out, { wanted: WANTED, maxBytes: 250 * MIB, decoder }).then(
    () => null,
    (e: Error) => e,
  );
  const ms = performance.now() - t0;
  loop.disable();
  rmSync(out, { recursive: true, force: true });
  if (err) figure(`bomb via ${decoder}: refused`, ms, 'ms');
  figure(`bomb via ${decoder}: loop max`, loop.max / 1e6, 'ms');
  return `${(statSync(file).size / 1024).toFixed(1)} kB → 2 GiB: ${err ? `refused in ${ms.toFixed(0)} ms ("${err.message.slice(0, 48)}…")` : 'NOT REFUSED'}, loop max ${(loop.max / 1e6).toFixed(0)} ms, RSS +${((process.memoryUsage().rss - base) / MIB).toFixed(0)} MiB`;
}

async function main(): Promise<void> {
  await makeArchive();
  const found = [...(await availableDecoders()).keys()];
  const kinds = found.filter((k) => k !== 'js' || process.argv.includes('--js'));
  const inside = Number(execFileSync('sh', ['-c', `bzip2 -dc '${archive}' | wc -c`], { encoding: 'utf8' }).trim());
  console.log(
    `archive ${(statSync(archive).size / 1e6).toFixed(0)} MB, ${(inside / 1e6).toFixed(0)} MB inside; decoders here: ${found.join(', ')} (the app picks ${found[0]})`,
  );
  const bz: number[] = [];
  const tar: number[] = [];
  const runs = new Map<DecoderKind, { sec: number; loopMaxMs: number; rssMiB: number }[]>(kinds.map((k) => [k, []]));
  const at = process.argv.indexOf('--rounds');
  const rounds = at > 0 ? Math.max(1, Number(process.argv[at + 1]) || 3) : 3;
  for (let round = 0; round < rounds; round++) {
    const tarFile = join(work, 'plain.tar');
    bz.push(await timed(() => execFileSync('sh', ['-c', `bzip2 -dc '${archive}' > '${tarFile}'`])));
    rmSync(tarFile);
    const x = fresh('out-tar');
    tar.push(await timed(() => execFileSync('tar', ['-xjf', archive, '-C', x])));
    rmSync(x, { recursive: true, force: true });
    for (const k of kinds) if (k !== 'js' || round === 0) runs.get(k)!.push(await unpackOnce(k));
    const line = [...runs].map(([k, rs]) => `${k} ${rs.at(-1)?.sec.toFixed(2) ?? '-'} s`).join(', ');
    console.log(`  round ${round + 1}: bzip2 -dc ${bz.at(-1)!.toFixed(2)} s, tar -xjf ${tar.at(-1)!.toFixed(2)} s, unpacker ${line}`);
  }
  const base = median(bz);
  figure('bzip2 -dc, median', base, 's');
  figure('tar -xjf, median', median(tar), 's');
  console.log(`  bzip2 -dc > file        ${base.toFixed(2)} s  (runs ${bz.map((s) => s.toFixed(2)).join(', ')})`);
  console.log(
    `  tar -xjf                ${median(tar).toFixed(2)} s  (runs ${tar.map((s) => s.toFixed(2)).join(', ')})  ${(median(tar) / base).toFixed(2)} × bzip2`,
  );
  for (const [k, rs] of runs) {
    const sec = median(rs.map((r) => r.sec));
    figure(`unpacker via ${k}, median`, sec, 's');
    figure(`unpacker via ${k} / bzip2`, sec / base, '×');
    figure(`unpacker via ${k}: event loop max`, Math.max(...rs.map((r) => r.loopMaxMs)), 'ms');
    figure(`unpacker via ${k}: RSS growth`, Math.max(...rs.map((r) => r.rssMiB)), 'MiB');
    const goal = k === found[0] ? `  (goal ≤ 1.2 ×) ${sec / base <= 1.2 ? 'ok' : 'ABOVE GOAL'}` : '';
    console.log(
      `  unpacker via ${k.padEnd(10)} ${sec.toFixed(2)} s  (runs ${rs.map((r) => r.sec.toFixed(2)).join(', ')})  ${(sec / base).toFixed(2)} × bzip2${goal}; ` +
        `event loop max ${Math.max(...rs.map((r) => r.loopMaxMs)).toFixed(0)} ms, RSS growth ≤ ${Math.max(...rs.map((r) => r.rssMiB)).toFixed(0)} MiB`,
    );
  }
  for (const k of kinds) console.log(`  bomb via ${k.padEnd(7)} ${await bomb(k)}`);
  rmSync(join(work, 'bomb.tar.bz2'), { force: true });
}

await main();
