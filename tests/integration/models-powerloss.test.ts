/**
 * Power loss during a model download or unpack: a child process running the
 * real ModelManager against a local HTTP server is SIGKILLed at a random
 * point (the .part grown to a random length, or the unpack a random way
 * through its files), ten times. Right after the kill the model is either
 * absent or installed and whole; after a restart on the same folder the
 * download resumes from the bytes it had and the model ends installed and
 * verified, with nothing half there.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MODEL_MANIFEST_FILE } from '../../src/shared/models/catalog';
import { modelMembers, tarBz2, type ArchiveMember } from './support/model-server';
import { killHard, seededRandom } from './support/powerloss';

const MIB = 1024 * 1024;
const WANTED = ['encoder.onnx', 'decoder.onnx', 'joiner.onnx', 'tokens.txt'];
const rng = seededRandom('models-powerloss');

let root: string;
let members: ArchiveMember[];
let archive: Buffer;
let url: string;
let server: Server;
/** The server sends at most this many bytes of the file, then holds until it is raised. */
let gate = Infinity;
const held: (() => void)[] = [];
const ranges: (string | null)[] = [];

const CHILD = `
import { ModelManager } from ${JSON.stringify(resolve('src/main/services/models/manager.ts'))};
const [dir, url, mode] = process.argv.slice(2);
const entry = {
  id: 'model-a', name: 'Test model-a', task: 'files', family: 'zipformer-transducer', languages: ['en'], url, format: 'tar.bz2',
  sizeBytes: ${10 * MIB}, unpackedBytes: ${9 * MIB}, checksums: null, sha256: null,
  files: { encoder: 'encoder.onnx', decoder: 'decoder.onnx', joiner: 'joiner.onnx', tokens: 'tokens.txt' },
  licence: 'Apache-2.0', speedClass: 'fast', wer: [], rtf: null, wordTimings: 'words', contextLength: null, ramBytes: null, note: '',
};
const m = new ModelManager(dir, { catalog: [entry], stallMs: 60000, retryBaseMs: 20 });
await m.start();
if (mode === 'download') await m.download('model-a');
const s = await m.settled('model-a');
console.log('final ' + JSON.stringify(s));
await m.dispose();
`;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'verbatim-models-powerloss-'));
  writeFileSync(join(root, 'child.mts'), CHILD);
  // 4 × 1 MiB of incompressible bytes: an unpack long enough (two bzip2 blocks and more) to be caught in the middle.
  members = modelMembers('model-a', MIB);
  archive = await tarBz2(members);
  server = createServer((req, res) => {
    ranges.push(req.headers.range ?? null);
    res.on('error', () => undefined);
    const from = Number(/^bytes=(\d+)-$/.exec(req.headers.range ?? '')?.[1] ?? 0);
    if (from >= archive.length) return void res.writeHead(416, { 'content-range': `bytes */${archive.length}` }).end();
    const headers = { 'content-type': 'application/octet-stream', 'content-length': archive.length - from };
    if (from > 0) res.writeHead(206, { ...headers, 'content-range': `bytes ${from}-${archive.length - 1}/${archive.length}` });
    else res.writeHead(200, headers);
    let at = from;
    const pump = (): void => {
      while (at < archive.length && !res.destroyed) {
        const end = Math.min(archive.length, at + 64 * 1024, gate);
        if (end <= at) return void held.push(pump);
        const more = res.write(archive.subarray(at, end));
        at = end;
        if (!more) return void res.once('drain', pump);
      }
      res.end();
    };
    pump();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/model-a.tar.bz2`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
  rmSync(root, { recursive: true, force: true });
});

function launch(dir: string, mode: 'download' | 'resume'): { proc: ChildProcess; final: Promise<unknown> } {
  const proc = spawn(process.execPath, ['--import', 'tsx', join(root, 'child.mts'), dir, url, mode], { stdio: ['ignore', 'pipe', 'inherit'] });
  const final = new Promise<unknown>((res, rej) => {
    createInterface({ input: proc.stdout! }).on('line', (l) => l.startsWith('final ') && res(JSON.parse(l.slice(6))));
    proc.once('exit', (code, signal) => rej(new Error(`the manager exited (${signal ?? code}) before it settled`)));
  });
  final.catch(() => undefined);
  return { proc, final };
}

/** Poll the folder until `cond` holds (a condition on what is on disk, not a clock); fails if the child exits first. */
async function until(proc: ChildProcess, cond: () => boolean): Promise<void> {
  while (!cond()) {
    if (proc.exitCode !== null || proc.signalCode !== null) throw new Error('the manager exited before the kill point');
    await new Promise((r) => setTimeout(r, 2));
  }
}

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const expected = () => new Map(WANTED.map((f) => [f, sha(members.find((m) => m.name === `model-a/${f}`)!.body!)]));

/** The model folder is absent, or holds the manifest and every file whole. */
function absentOrWhole(models: string): 'absent' | 'installed' {
  const dir = join(models, 'model-a');
  if (!existsSync(dir)) return 'absent';
  expect(existsSync(join(dir, MODEL_MANIFEST_FILE))).toBe(true);
  for (const [f, hash] of expected()) expect(sha(readFileSync(join(dir, f))), f).toBe(hash);
  return 'installed';
}

/** Bytes written so far into the unpack's temporary folder. */
function unpacked(models: string): number {
  let n = 0;
  for (const d of readdirSync(models).filter((x) => x.startsWith('.tmp-model-a')))
    for (const f of readdirSync(join(models, d))) n += statSync(join(models, d, f), { throwIfNoEntry: false })?.size ?? 0;
  return n;
}

describe('power loss during a model download or unpack', () => {
  it.each(Array.from({ length: 10 }, (_, i) => i + 1))(
    'kill %i: after a restart the model is installed and verified, never half there',
    async () => {
      const models = join(mkdtempSync(join(root, 'run-')), 'models');
      const part = join(models, '.partial', 'model-a.tar.bz2.part');
      const duringDownload = rng.int(0, 9) < 6;
      const killAt = duringDownload ? rng.int(1, archive.length - 1) : rng.int(1, 4 * MIB - 1);
      gate = duringDownload ? killAt : Infinity;
      ranges.length = 0;
      const first = launch(models, 'download');
      if (duringDownload) await until(first.proc, () => (statSync(part, { throwIfNoEntry: false })?.size ?? 0) >= killAt);
      else await until(first.proc, () => existsSync(models) && (unpacked(models) >= killAt || existsSync(join(models, 'model-a'))));
      await killHard(first.proc);
      gate = Infinity;
      held.splice(0).forEach((f) => f());

      // Right after the kill: nothing half there.
      const after = absentOrWhole(models);
      console.log(`${duringDownload ? 'download' : 'unpack'} killed at ${killAt} bytes: model ${after} after the kill`);
      expect(readdirSync(models).filter((n) => !n.startsWith('.') && n !== 'model-a')).toEqual([]);

      const before = ranges.length;
      const second = launch(models, 'resume');
      const final = (await second.final) as { state: string } | null;
      await new Promise((r) => second.proc.once('exit', r));
      expect(final === null || final.state === 'installed', JSON.stringify(final)).toBe(true);
      expect(absentOrWhole(models)).toBe('installed');
      expect(readdirSync(models).filter((n) => n.startsWith('.tmp-') || n.startsWith('.trash-'))).toEqual([]);
      expect(readdirSync(join(models, '.partial'))).toEqual([]);
      // The download went on from the bytes the first run had kept.
      if (duringDownload) expect(ranges[before]).toBe(`bytes=${killAt}-`);
    },
    120_000,
  );
});
