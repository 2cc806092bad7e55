/**
 * Broken and hostile archives through the model manager's two entry points, a
 * download from a real local server and "Install from a file": a truncated
 * archive (cut inside a member, cut at 60%) and a bzip2 bomb end in a clear
 * error, the model not installed, the downloaded .part removed (so the next
 * start does not resume into the same failure), the user's own file left as
 * it was, and no rejection unhandled.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { CatalogEntry } from '../../src/shared/models/catalog';
import { ModelManager } from '../../src/main/services/models/manager';
import { modelMembers, ModelServer, tarBz2 } from './support/model-server';

const MIB = 1024 * 1024;
const server = new ModelServer();
let root: string;
let dir: string;
const managers: ModelManager[] = [];
const unhandled: unknown[] = [];
const onUnhandled = (e: unknown) => unhandled.push(e);

function entry(url: string): CatalogEntry {
  return {
    id: 'model-a',
    name: 'Test model-a',
    task: 'files',
    family: 'zipformer-transducer',
    languages: ['en'],
    url,
    format: 'tar.bz2',
    sizeBytes: 3_000_000,
    unpackedBytes: 2_500_000,
    checksums: null,
    sha256: null,
    files: { encoder: 'encoder.onnx', decoder: 'decoder.onnx', joiner: 'joiner.onnx', tokens: 'tokens.txt' },
    licence: 'Apache-2.0',
    speedClass: 'fast',
    wer: [],
    rtf: null,
    wordTimings: 'words',
    contextLength: null,
    ramBytes: null,
    note: '',
  } as CatalogEntry;
}

function manager(url: string): ModelManager {
  const m = new ModelManager(dir, { catalog: [entry(url)], stallMs: 10_000, retryBaseMs: 20 });
  managers.push(m);
  return m;
}

let archive: Buffer;
// Three bzip2 blocks of incompressible members: a cut past the first block ends the decoded tar inside a member.
const variants: Record<string, number> = { 'cut inside a member (at 45%)': 0.45, 'cut at 60%': 0.6 };
const cut = (what: string) => archive.subarray(0, Math.floor(archive.length * variants[what]!));

/** A 1.8 kB-class bomb: the encoder's header says 2 GiB, and 2 GiB of zeros follow as concatenated bzip2 streams. */
function bomb(): Buffer {
  const h = Buffer.alloc(512);
  h.write('model-a/encoder.onnx', 0);
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
  return Buffer.concat([execFileSync('bzip2', ['-c'], { input: h }), ...Array.from({ length: 32 }, () => zeros)]);
}

const partials = () => (existsSync(join(dir, '.partial')) ? readdirSync(join(dir, '.partial')) : []);
const leftovers = () => readdirSync(dir).filter((n) => n !== '.partial' && n !== '.verbatim-state.json');

beforeAll(async () => {
  process.on('unhandledRejection', onUnhandled);
  await server.start();
  archive = await tarBz2(modelMembers('model-a', 600 * 1024));
});
afterAll(async () => {
  process.off('unhandledRejection', onUnhandled);
  await server.stop();
});
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'verbatim-unpack-manager-'));
  dir = join(root, 'models');
  server.requests.length = 0;
});
afterEach(async () => {
  await Promise.all(managers.splice(0).map((m) => m.dispose()));
  rmSync(root, { recursive: true, force: true });
  expect(unhandled).toEqual([]);
});

describe('a broken archive through the model manager', () => {
  it.each(Object.keys(variants))('a download of an archive %s fails clearly, removes the .part, and the next start does not resume it', async (what) => {
    server.put('model-a.tar.bz2', cut(what));
    const first = manager(server.url('ok', 'model-a.tar.bz2'));
    await first.start();
    await first.download('model-a');
    const done = await first.settled('model-a');
    expect(done?.state).toBe('failed');
    expect(done?.error?.kind).toBe('not_archive');
    expect(done?.error?.message).toMatch(/incomplete: it ends before its last file/);
    expect(partials()).toEqual([]);
    expect(leftovers()).toEqual([]);
    expect(await first.isInstalled('model-a')).toBe(false);
    await first.dispose();
    // A restart: nothing to resume, so no request and no second failure.
    const asked = server.requests.length;
    const second = manager(server.url('ok', 'model-a.tar.bz2'));
    await second.start();
    expect(await second.settled('model-a')).toBeNull();
    expect(server.requests.length).toBe(asked);
  });

  it.each(Object.keys(variants))('"Install from a file" of an archive %s is refused clearly and leaves the file as it was', async (what) => {
    const file = join(root, 'model-a.tar.bz2');
    const bytes = cut(what);
    writeFileSync(file, bytes);
    const m = manager(server.url('ok', 'model-a.tar.bz2'));
    await m.start();
    await expect(m.installFrom(file)).rejects.toThrow(/incomplete: it ends before its last file/);
    expect(await m.isInstalled('model-a')).toBe(false);
    expect(leftovers()).toEqual([]);
    expect(readFileSync(file).equals(bytes)).toBe(true);
  });

  it('a downloaded bzip2 bomb stops at the bound, with the model not installed and the .part removed', async () => {
    server.put('model-a.tar.bz2', bomb());
    const m = manager(server.url('ok', 'model-a.tar.bz2'));
    await m.start();
    await m.download('model-a');
    const done = await m.settled('model-a');
    expect(done?.state).toBe('failed');
    expect(done?.error?.message).toMatch(/larger than this model can be/);
    expect(partials()).toEqual([]);
    expect(leftovers()).toEqual([]);
  });

  it('"Install from a file" of a bzip2 bomb is refused at the bound', async () => {
    const file = join(root, 'model-a.tar.bz2');
    writeFileSync(file, bomb());
    const m = manager(server.url('ok', 'model-a.tar.bz2'));
    await expect(m.installFrom(file)).rejects.toThrow(/larger than this model can be/);
    expect(await m.isInstalled('model-a')).toBe(false);
    expect(leftovers()).toEqual([]);
  });

  it('the whole archive still installs through both entry points', async () => {
    server.put('model-a.tar.bz2', archive);
    const m = manager(server.url('ok', 'model-a.tar.bz2'));
    await m.start();
    await m.download('model-a');
    expect((await m.settled('model-a'))?.state).toBe('installed');
    expect(readdirSync(join(dir, 'model-a')).sort()).toEqual(['LICENSE', 'decoder.onnx', 'encoder.onnx', 'joiner.onnx', 'tokens.txt', 'verbatim-model.json']);
    await m.delete('model-a');
    const file = join(root, 'model-a.tar.bz2');
    writeFileSync(file, archive);
    expect(await m.installFrom(file)).toBe('model-a');
    expect(await m.isInstalled('model-a')).toBe(true);
  });
});
