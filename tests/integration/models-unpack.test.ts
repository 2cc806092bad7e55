/**
 * The model unpacker against real archives, with each decoder this machine
 * has (the system's bzip2, a libarchive tar, the worker): exactly the wanted
 * files; links, absolute paths, ../, devices and FIFOs refused with nothing
 * written; bzip2 bombs stopped at the bound with bounded memory; truncated and
 * corrupt archives a clear error; cancel kills the decoder and leaves nothing.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ModelError } from '../../src/main/services/models/errors';
import { unpackTarBz2, type UnpackOptions } from '../../src/main/services/models/unpack';
import { availableDecoders, type DecoderKind } from '../../src/main/services/models/unpack-decoder';
import { modelMembers, tarBz2, type ArchiveMember } from './support/model-server';

const MIB = 1024 * 1024;
const WANTED = ['encoder.onnx', 'decoder.onnx', 'joiner.onnx', 'tokens.txt'];
const decoders = [...(await availableDecoders()).keys()];

let root: string;
let dir: string;
const unhandled: unknown[] = [];
const onUnhandled = (e: unknown) => unhandled.push(e);

/** One ustar header (typeflag '0' a file, '2' a symlink, ...); sizes past 8 GiB are not needed here. */
function header(name: string, size: number, type = '0', linkname = ''): Buffer {
  const b = Buffer.alloc(512);
  b.write(name, 0, 100);
  b.write('0000644\0', 100);
  b.write('0000000\0', 108);
  b.write('0000000\0', 116);
  b.write(`${size.toString(8).padStart(11, '0')}\0`, 124);
  b.write('00000000000\0', 136);
  b.write(type, 156);
  b.write(linkname, 157, 100);
  b.write('ustar\0', 257);
  b.write('00', 263);
  b.write('        ', 148);
  let sum = 0;
  for (const x of b) sum += x;
  b.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148);
  return b;
}

const bz = (raw: Buffer) => execFileSync('bzip2', ['-c'], { input: raw, maxBuffer: 1 << 30 });
let zeros48: Buffer; // 48 MiB of zeros, compressed: about 100 bytes
const zeroStreams = (bytes: number) => Array.from({ length: bytes / (48 * MIB) }, () => zeros48);

function opts(decoder: DecoderKind, extra: Partial<UnpackOptions> = {}): UnpackOptions {
  return { wanted: WANTED, maxBytes: 16 * MIB, decoder, ...extra };
}

async function failure(p: Promise<unknown>): Promise<ModelError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ModelError);
  return err as ModelError;
}

const archive = (name: string, bytes: Buffer) => {
  const p = join(root, name);
  writeFileSync(p, bytes);
  return p;
};

let good: Buffer;
let goodMembers: ArchiveMember[];
let big: Buffer; // about 2.4 MB of incompressible members: three bzip2 blocks, so a cut can fall inside a member

beforeAll(async () => {
  zeros48 = bz(Buffer.alloc(48 * MIB));
  goodMembers = modelMembers('model-a', 100 * 1024);
  good = await tarBz2(goodMembers);
  big = await tarBz2(modelMembers('model-a', 600 * 1024));
  process.on('unhandledRejection', onUnhandled);
});
afterAll(() => {
  process.off('unhandledRejection', onUnhandled);
  expect(unhandled).toEqual([]);
});
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'verbatim-unpack-'));
  dir = join(root, 'out');
  mkdirSync(dir);
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe.each(decoders)('unpacking with %s', (decoder) => {
  it('writes exactly the files the model needs and its licence, the top folder stripped', async () => {
    const written = await unpackTarBz2(archive('a.tar.bz2', good), dir, opts(decoder));
    expect(readdirSync(dir).sort()).toEqual(['LICENSE', ...WANTED].sort());
    for (const f of WANTED) expect(readFileSync(join(dir, f)).equals(goodMembers.find((m) => m.name === `model-a/${f}`)!.body!)).toBe(true);
    expect(written).toBe(4 * 100 * 1024 + 'Apache-2.0\n'.length);
  });

  it.each([
    ['a ../ entry', [{ name: 'model-a/../../evil.txt', body: Buffer.from('x') }], /climbs out/],
    ['an absolute path', [{ name: '/tmp/verbatim-evil.txt', body: Buffer.from('x') }], /absolute path/],
    ['a symlink', [{ name: 'model-a/encoder.onnx', type: 'symlink' as const, linkname: '/etc/passwd' }], /symlink/],
    ['a hard link', [{ name: 'model-a/encoder.onnx', type: 'link' as const, linkname: 'model-a/tokens.txt' }], /link/],
    ['a device', [{ name: 'model-a/dev', type: 'character-device' as const }], /character-device/],
    ['a FIFO', [{ name: 'model-a/fifo', type: 'fifo' as const }], /fifo/],
  ])('refuses an archive with %s and leaves the folder empty', async (_what, bad, message) => {
    const evil = await tarBz2([...goodMembers.slice(0, 3), ...bad, ...goodMembers.slice(3)]);
    const err = await failure(unpackTarBz2(archive('evil.tar.bz2', evil), dir, opts(decoder)));
    expect(err.kind).toBe('unsafe_archive');
    expect(err.message).toMatch(message);
    expect(readdirSync(dir)).toEqual([]);
    expect(readdirSync(root).sort()).toEqual(['evil.tar.bz2', 'out']);
    expect(existsSync('/tmp/verbatim-evil.txt')).toBe(false);
  });

  it.each([
    ['a file the model needs', 'model-a/encoder.onnx'],
    ['a file it skips', 'model-a/test_wavs/big.wav'],
  ])('stops a bzip2 bomb (2 GiB of zeros in %s) at its header, with bounded memory', async (_what, name) => {
    const raw = Buffer.concat([header('model-a/tokens.txt', 512), Buffer.alloc(512, 1), header(name, 2048 * MIB)]);
    const bomb = Buffer.concat([bz(raw), ...zeroStreams(2048 * MIB)]);
    expect(bomb.length).toBeLessThan(20_000);
    const before = process.memoryUsage().rss;
    const err = await failure(unpackTarBz2(archive('bomb.tar.bz2', bomb), dir, opts(decoder)));
    expect(err.kind).toBe('unsafe_archive');
    expect(err.message).toMatch(/larger than this model can be/);
    expect(readdirSync(dir)).toEqual([]);
    expect(process.memoryUsage().rss - before).toBeLessThan(150 * MIB);
  });

  it('stops a bomb of many skipped members once what it decoded passes the bound', async () => {
    // 8 members of 48 MiB each, none too large alone: the total decoded is what stops it.
    const parts: Buffer[] = [bz(Buffer.concat([header('model-a/tokens.txt', 512), Buffer.alloc(512, 1)]))];
    for (let i = 0; i < 8; i++) parts.push(bz(header(`model-a/test_wavs/${i}.wav`, 48 * MIB)), zeros48);
    let peak = 0;
    const before = process.memoryUsage().rss;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss - before)), 20);
    try {
      const err = await failure(unpackTarBz2(archive('bomb.tar.bz2', Buffer.concat(parts)), dir, opts(decoder, { maxBytes: 8 * MIB })));
      expect(err.kind).toBe('unsafe_archive');
      expect(err.message).toMatch(/larger than this model can be/);
    } finally {
      clearInterval(sampler);
    }
    expect(readdirSync(dir)).toEqual([]);
    expect(peak).toBeLessThan(150 * MIB);
  });

  it('refuses a member larger than the bound for one file, before writing it', async () => {
    const err = await failure(unpackTarBz2(archive('a.tar.bz2', good), dir, opts(decoder, { maxEntryBytes: 50 * 1024 })));
    expect(err.message).toMatch(/larger than this model can be/);
    expect(readdirSync(dir)).toEqual([]);
  });

  it.each([
    ['cut inside a member (at 60%)', 0.6],
    ['cut in its first block', 0.2],
    ['cut just before its end', 0.98],
  ])('a truncated archive, %s, is a clear error and leaves nothing', async (_what, at) => {
    const cut = big.subarray(0, Math.floor(big.length * at));
    const err = await failure(unpackTarBz2(archive('cut.tar.bz2', cut), dir, opts(decoder, { maxBytes: 64 * MIB })));
    expect(err.kind).toBe('not_archive');
    expect(err.message).toMatch(/incomplete: it ends before its last file/);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('a corrupt archive (bytes changed in its middle) is a clear error and leaves nothing', async () => {
    const bad = Buffer.from(big);
    for (let i = Math.floor(bad.length / 2); i < Math.floor(bad.length / 2) + 64; i++) bad[i] = bad[i]! ^ 0x55;
    const err = await failure(unpackTarBz2(archive('bad.tar.bz2', bad), dir, opts(decoder, { maxBytes: 64 * MIB })));
    expect(err.kind).toBe('not_archive');
    expect(err.message).toMatch(/damaged|incomplete/);
    expect(readdirSync(dir)).toEqual([]);
  });

  it.each([
    ['an uncompressed tar', () => execFileSync('bzip2', ['-dc'], { input: good, maxBuffer: 1 << 30 })],
    ['a gzip-compressed tar', () => execFileSync('gzip', ['-c'], { input: execFileSync('bzip2', ['-dc'], { input: good, maxBuffer: 1 << 30 }) })],
    ['a web page', () => Buffer.from('<!doctype html><title>Not found</title>')],
  ])('%s named .tar.bz2 is refused before decoding, leaving nothing', async (_what, bytes) => {
    // libarchive would read the first two happily: the bzip2 signature is checked whichever decoder runs.
    const err = await failure(unpackTarBz2(archive('other.tar.bz2', bytes()), dir, opts(decoder)));
    expect(err.kind).toBe('not_archive');
    expect(readdirSync(dir)).toEqual([]);
  });

  it('a bzip2 file that holds no tar is a clear error', async () => {
    const err = await failure(unpackTarBz2(archive('x.tar.bz2', bz(randomBytes(10_000))), dir, opts(decoder)));
    expect(err.kind).toBe('not_archive');
    expect(readdirSync(dir)).toEqual([]);
  });

  it('an archive that lacks a file the model needs is refused, leaving nothing', async () => {
    const partial = await tarBz2(goodMembers.filter((m) => !m.name.endsWith('joiner.onnx')));
    const err = await failure(unpackTarBz2(archive('p.tar.bz2', partial), dir, opts(decoder)));
    expect(err.kind).toBe('incomplete_model');
    expect(err.message).toMatch(/joiner\.onnx/);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('cancel stops the decoder and leaves nothing half there', async () => {
    // 4 × 2 MiB of incompressible bytes: seconds of decoding, so the cancel lands while the first file is being written.
    const large = await tarBz2(modelMembers('model-a', 2 * MIB));
    const controller = new AbortController();
    const running = unpackTarBz2(archive('l.tar.bz2', large), dir, opts(decoder, { signal: controller.signal }));
    const settled = running.then(
      () => 'done',
      () => 'failed',
    );
    // Wait (on the condition, not a clock) until a member has bytes on disk.
    while (!readdirSync(dir).some((f) => statSync(join(dir, f)).size > 0) && (await Promise.race([settled, Promise.resolve('running')])) === 'running')
      await new Promise((r) => setTimeout(r, 5));
    controller.abort();
    const err = await failure(running);
    expect(err.kind).toBe('canceled');
    expect(readdirSync(dir)).toEqual([]);
    if (decoder !== 'js' && process.platform === 'linux') {
      const children = execFileSync('ps', ['--ppid', String(process.pid), '-o', 'comm='], { encoding: 'utf8' });
      expect(children).not.toMatch(/bzip2|bsdtar/);
    }
  });

  it('refuses a path that is not a regular file (a FIFO named like an archive) without waiting on it', async () => {
    if (process.platform === 'win32') return;
    const fifo = join(root, 'fifo.tar.bz2');
    execFileSync('mkfifo', [fifo]);
    const err = await failure(unpackTarBz2(fifo, dir, opts(decoder)));
    expect(err.kind).toBe('not_archive');
  });
});
