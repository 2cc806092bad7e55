/**
 * For the Models e2e specs: a catalog model's archive packed from a tiny model
 * (tests/fixtures/models/speech.ts) under the catalog's archive name, top folder
 * and file names, and a local HTTP server set as the download mirror that serves
 * it (with a checksum.txt naming it), holding the second half of each download
 * back until `release()` so a test sees the download under way.
 */
import { execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { basename, join } from 'node:path';
import { catalogEntry } from '../../src/shared/models';
import { writeTinyModel, type TinyModelKind } from '../fixtures/models/speech';

/** The tiny model of each catalog family the first-run offer can name. */
const TINY: Record<string, TinyModelKind> = {
  'nemo-transducer': 'nemo-tdt',
  moonshine: 'moonshine',
  'zipformer-transducer': 'zipformer-transducer',
  whisper: 'whisper-multilingual',
};

export interface Archive {
  name: string;
  body: Buffer;
}

/** The tiny model packed as catalog entry `id`'s archive, plus incompressible filler so the download takes a moment. */
export function tinyArchive(dir: string, id: string): Archive {
  const entry = catalogEntry(id);
  if (!entry) throw new Error(`${id} is not in the catalog`);
  const kind = TINY[entry.family];
  if (!kind) throw new Error(`no tiny model for the ${entry.family} family`);
  const archiveName = basename(new URL(entry.url).pathname);
  const top = archiveName.replace(/\.tar\.bz2$/, '');
  const tiny = writeTinyModel(join(dir, `tiny-${id}`), kind, 'tiny');
  const manifest = JSON.parse(readFileSync(join(tiny, 'verbatim-model.json'), 'utf8')) as { files: Record<string, string> };
  const pack = join(dir, `pack-${id}`);
  mkdirSync(join(pack, top, 'test_wavs'), { recursive: true });
  for (const [role, path] of Object.entries(entry.files)) {
    const from = manifest.files[role];
    if (!from) throw new Error(`the tiny ${kind} model has no ${role}`);
    mkdirSync(join(pack, top, path, '..'), { recursive: true });
    copyFileSync(join(tiny, from), join(pack, top, path));
  }
  writeFileSync(join(pack, top, 'test_wavs', 'filler.bin'), randomBytes(3 * 1024 * 1024));
  const file = join(dir, archiveName);
  execFileSync('tar', ['-cjf', file, '-C', pack, top]);
  return { name: archiveName, body: readFileSync(file) };
}

/** A mirror serving `archives` by name (ranges honoured) and a checksum.txt listing them; each download's second half waits for release(). */
export function mirror(archives: Archive[]) {
  let release!: () => void;
  let released = new Promise<void>((r) => (release = r));
  const held = new Set<ServerResponse>();
  // What the mirror's checksum.txt says of each archive (a test can make it name another file, as upstream does after a re-release).
  const sums = new Map(archives.map((a) => [a.name, createHash('sha256').update(a.body).digest('hex')]));
  const server: Server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname.slice(1));
    if (path === 'checksum.txt')
      return void res.writeHead(200, { 'content-type': 'text/plain' }).end([...sums].map(([name, sha]) => `${name}\t${sha}\n`).join(''));
    const archive = archives.find((a) => a.name === path);
    if (!archive) return void res.writeHead(404).end();
    const m = /^bytes=(\d+)-$/.exec(req.headers.range ?? '');
    const from = m ? Number(m[1]) : 0;
    const rest = archive.body.subarray(from);
    const headers = { 'content-type': 'application/octet-stream', 'content-length': rest.length };
    if (from > 0) res.writeHead(206, { ...headers, 'content-range': `bytes ${from}-${archive.body.length - 1}/${archive.body.length}` });
    else res.writeHead(200, headers);
    const half = Math.floor(rest.length / 2);
    held.add(res);
    res.on('close', () => held.delete(res));
    res.write(rest.subarray(0, half));
    void released.then(() => res.end(rest.subarray(half)));
  });
  return {
    /** Make checksum.txt list `sha256` for `name`. */
    list: (name: string, sha256: string) => void sums.set(name, sha256),
    /** Let every held download finish. */
    release: () => release(),
    /** Hold the second half of the downloads that start from now on. */
    hold: () => {
      released = new Promise<void>((r) => (release = r));
    },
    async start(): Promise<string> {
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    },
    async stop(): Promise<void> {
      release();
      for (const res of held) res.destroy();
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}
