/**
 * The model manager against a real local HTTP server: resume after a cut,
 * checksums, bad answers, stalls, disk space, hostile archives, cancel,
 * delete, two downloads at once, and a restart mid-download.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { CatalogEntry } from '../../src/shared/models/catalog';
import { MODEL_MANIFEST_FILE, modelManifestSchema } from '../../src/shared/models/catalog';
import type { DownloadStatus } from '../../src/shared/models/view';
import { ModelManager, type ModelManagerOptions } from '../../src/main/services/models/manager';
import { modelMembers, ModelServer, tarBz2, type Behaviour } from './support/model-server';

const server = new ModelServer();
let root: string;
let dir: string;
const managers: ModelManager[] = [];

function entry(id: string, url: string, extra: Partial<CatalogEntry> = {}): CatalogEntry {
  return {
    id,
    name: `Test ${id}`,
    task: 'files',
    family: 'zipformer-transducer',
    languages: ['en'],
    url,
    format: 'tar.bz2',
    sizeBytes: 2_000_000,
    unpackedBytes: 2_400_000,
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
    ...extra,
  };
}

let archive: Buffer;
let archiveB: Buffer;

function manager(catalog: CatalogEntry[], opts: Partial<ModelManagerOptions> = {}): ModelManager {
  const m = new ModelManager(dir, { catalog, stallMs: 10_000, retryBaseMs: 20, ...opts });
  managers.push(m);
  return m;
}

/** Resolves with the first status event that satisfies `pred`. */
function until(m: ModelManager, pred: (s: DownloadStatus) => boolean): Promise<DownloadStatus> {
  return new Promise((resolve) => {
    const off = m.onProgress((s) => {
      if (pred(s)) {
        off();
        resolve(s);
      }
    });
  });
}

const url = (b: Behaviour, name = 'model-a.tar.bz2') => server.url(b, name);
const partials = () => (existsSync(join(dir, '.partial')) ? readdirSync(join(dir, '.partial')) : []);

beforeAll(async () => {
  await server.start();
  archive = await tarBz2(modelMembers('model-a', 300 * 1024));
  archiveB = await tarBz2(modelMembers('model-b', 200 * 1024));
  server.put('model-a.tar.bz2', archive);
  server.put('model-b.tar.bz2', archiveB);
});
afterAll(() => server.stop());
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'verbatim-models-'));
  dir = join(root, 'models');
  server.requests.length = 0;
});
afterEach(async () => {
  await Promise.all(managers.splice(0).map((m) => m.dispose()));
  rmSync(root, { recursive: true, force: true });
});

describe('model downloads', () => {
  it('resumes a download cut halfway with Range, verifies and installs it, manifest last', async () => {
    const m = manager([entry('model-a', url('cut'))]);
    await m.start();
    await m.download('model-a');
    const done = await m.settled('model-a');
    expect(done?.state, JSON.stringify(done?.error)).toBe('installed');
    // The second request asks for the rest, from wherever the cut left the partial file (at most half of it arrived).
    const ranges = server.requests.filter((r) => r.path === '/cut/model-a.tar.bz2').map((r) => r.range);
    expect(ranges).toHaveLength(2);
    expect(ranges[0]).toBeNull();
    const from = Number(/^bytes=(\d+)-$/.exec(ranges[1] ?? '')?.[1]);
    expect(from).toBeGreaterThan(0);
    expect(from).toBeLessThanOrEqual(Math.floor(archive.length / 2));
    const manifest = modelManifestSchema.parse(JSON.parse(readFileSync(join(dir, 'model-a', MODEL_MANIFEST_FILE), 'utf8')));
    expect(manifest.files.encoder).toBe('encoder.onnx');
    // The whole archive, once: nothing duplicated at the seam.
    expect(manifest.sha256).toBe(createHash('sha256').update(archive).digest('hex'));
    // Only the model's files and its licence: the archive's top folder stripped, test wavs left out.
    expect(readdirSync(join(dir, 'model-a')).sort()).toEqual(
      ['LICENSE', 'decoder.onnx', 'encoder.onnx', 'joiner.onnx', 'tokens.txt', MODEL_MANIFEST_FILE].sort(),
    );
    expect(statSync(join(dir, 'model-a', 'encoder.onnx')).size).toBe(300 * 1024);
    expect(partials()).toEqual([]);
    const list = await m.list();
    expect(list.models[0]!.installed!.bytes).toBeGreaterThan(4 * 300 * 1024);
  });

  it('refuses a checksum mismatch and removes the partial file', async () => {
    const m = manager([entry('model-a', url('ok'), { sha256: '0'.repeat(64) })]);
    await m.download('model-a');
    const done = await m.settled('model-a');
    expect(done?.state).toBe('failed');
    expect(done?.error?.kind).toBe('checksum');
    expect(done?.error?.message).toMatch(/SHA-256/);
    expect(partials()).toEqual([]);
    expect(existsSync(join(dir, 'model-a'))).toBe(false);
  });

  it('records the SHA-256 on first download, per model id, and checks the next download of the same size against it', async () => {
    const m = manager([entry('model-a', url('ok'))]);
    await m.download('model-a');
    expect((await m.settled('model-a'))?.state).toBe('installed');
    const state = JSON.parse(readFileSync(join(dir, '.verbatim-state.json'), 'utf8')) as {
      verified: Record<string, { sha256: string; bytes: number; source: string }>;
    };
    expect(state.verified['model-a']).toEqual({ sha256: createHash('sha256').update(archive).digest('hex'), bytes: archive.length, source: 'first' });
    // The same archive name now serves other bytes of the same size: refused.
    const tampered = Buffer.from(archive);
    tampered[Math.floor(tampered.length / 2)]! ^= 0xff;
    server.put('model-a.tar.bz2', tampered);
    try {
      await m.download('model-a');
      expect((await m.settled('model-a'))?.error?.kind).toBe('checksum');
    } finally {
      server.put('model-a.tar.bz2', archive);
    }
  });

  it.each([
    ['404', 'http', /no such file \(HTTP 404\)/],
    ['500', 'http', /server error \(HTTP 500\)/],
    ['html', 'not_archive', /web page instead of the model/],
  ] as const)('a server answering %s fails with a plain error and leaves nothing', async (b, kind, message) => {
    const m = manager([entry('model-a', url(b))]);
    await m.download('model-a');
    const done = await m.settled('model-a');
    expect(done?.state).toBe('failed');
    expect(done?.error?.kind).toBe(kind);
    expect(done?.error?.message).toMatch(message);
    expect(existsSync(join(dir, 'model-a'))).toBe(false);
    expect((await m.list()).models[0]!.installed).toBeNull();
  });

  it('a body that is not bzip2 is refused from its first bytes', async () => {
    server.put('junk.tar.bz2', Buffer.from('PK\u0003\u0004 this is a zip, not a model'.repeat(100)));
    const m = manager([entry('model-a', url('ok', 'junk.tar.bz2'))]);
    await m.download('model-a');
    expect((await m.settled('model-a'))?.error?.kind).toBe('not_archive');
    expect(partials()).toEqual([]);
  });

  it('retries a stalled download from where it stopped', async () => {
    const m = manager([entry('model-a', url('stall-once'))], { stallMs: 1000 });
    await m.download('model-a');
    expect((await m.settled('model-a'))?.state).toBe('installed');
    const ranges = server.requests.map((r) => r.range);
    expect(ranges).toHaveLength(2);
    expect(ranges[1]).toMatch(/^bytes=[1-9]\d*-$/);
  });

  it('gives up on a server that keeps stalling, with a stall error, keeping the bytes it has', async () => {
    const m = manager([entry('model-a', url('stall'))], { stallMs: 500 });
    await m.download('model-a');
    const done = await m.settled('model-a');
    expect(done?.state).toBe('failed');
    expect(done?.error?.kind).toBe('stalled');
    expect(done?.error?.message).toMatch(/stopped moving for 500 ms/);
    expect(done?.bytes).toBeGreaterThan(0);
    expect(done?.bytes).toBeLessThanOrEqual(Math.floor(archive.length / 2));
    expect(statSync(join(dir, '.partial', 'model-a.tar.bz2.part')).size).toBe(done?.bytes);
  });

  it('a server that ignores Range restarts the file rather than appending to it', async () => {
    const m = manager([entry('model-a', url('ignore-range'))]);
    // Leave a partial file of garbage, as a quit mid-download would (of the right name).
    await m.start();
    const { writeFileSync } = await import('node:fs');
    writeFileSync(join(dir, '.partial', 'model-a.tar.bz2.part'), Buffer.alloc(1000, 7));
    await m.download('model-a');
    expect((await m.settled('model-a'))?.state).toBe('installed');
    expect(server.requests[0]!.range).toBe('bytes=1000-');
  });

  it('checks free space before a byte moves', async () => {
    const m = manager([entry('model-a', url('ok'))], { freeSpace: () => Promise.resolve(1_000_000) });
    const s = await m.download('model-a');
    expect(s.state).toBe('failed');
    expect(s.error?.kind).toBe('disk');
    expect(s.error?.message).toMatch(/not enough free disk space.*needs .* free/i);
    expect(server.requests).toEqual([]);
  });

  it.each([
    ['a ../ entry', [{ name: 'model-a/../../evil.txt', body: Buffer.from('x') }]],
    ['an absolute path', [{ name: '/tmp/verbatim-evil.txt', body: Buffer.from('x') }]],
    ['a symlink', [{ name: 'model-a/encoder.onnx', type: 'symlink' as const, linkname: '/etc/passwd' }]],
    ['a hard link', [{ name: 'model-a/encoder.onnx', type: 'link' as const, linkname: 'model-a/tokens.txt' }]],
    ['a device', [{ name: 'model-a/dev', type: 'character-device' as const }]],
  ])('refuses an archive with %s and writes nothing outside models/', async (_what, bad) => {
    const evil = await tarBz2([...modelMembers('model-a', 1024).slice(0, 2), ...bad, ...modelMembers('model-a', 1024).slice(2)]);
    server.put('evil.tar.bz2', evil);
    const m = manager([entry('model-a', url('ok', 'evil.tar.bz2'))]);
    await m.download('model-a');
    const done = await m.settled('model-a');
    expect(done?.state).toBe('failed');
    expect(done?.error?.kind).toBe('unsafe_archive');
    expect(readdirSync(root)).toEqual(['models']);
    expect(readdirSync(dir).filter((n) => n !== '.partial' && n !== '.verbatim-state.json')).toEqual([]);
    expect(existsSync('/tmp/verbatim-evil.txt')).toBe(false);
    expect(partials()).toEqual([]);
  });

  it('cancel stops the transfer and removes the partial file', async () => {
    const m = manager([entry('model-a', url('hold'))]);
    await m.download('model-a');
    await until(m, (s) => s.bytes >= Math.floor(archive.length / 2));
    const s = await m.cancel('model-a');
    expect(s?.state).toBe('canceled');
    expect(partials()).toEqual([]);
    expect(existsSync(join(dir, 'model-a'))).toBe(false);
  });

  it('pause keeps the bytes; resume continues with Range', async () => {
    const m = manager([entry('model-a', url('hold'))]);
    await m.download('model-a');
    const half = Math.floor(archive.length / 2);
    await until(m, (s) => s.bytes >= half);
    expect((await m.pause('model-a'))?.state).toBe('paused');
    expect(statSync(join(dir, '.partial', 'model-a.tar.bz2.part')).size).toBe(half);
    await m.resume('model-a');
    expect((await m.settled('model-a'))?.state).toBe('installed');
    expect(server.requests.map((r) => r.range)).toEqual([null, `bytes=${half}-`]);
  });

  it('delete removes the model and says how much it freed', async () => {
    const m = manager([entry('model-a', url('ok'))]);
    await m.download('model-a');
    await m.settled('model-a');
    const before = (await m.list()).models[0]!.installed!.bytes;
    expect(await m.delete('model-a')).toBe(before);
    expect(existsSync(join(dir, 'model-a'))).toBe(false);
    expect((await m.list()).models[0]!.installed).toBeNull();
  });

  it('runs two downloads at once', async () => {
    const m = manager([entry('model-a', url('cut')), entry('model-b', url('ok', 'model-b.tar.bz2'))]);
    await Promise.all([m.download('model-a'), m.download('model-b')]);
    const [a, b] = await Promise.all([m.settled('model-a'), m.settled('model-b')]);
    expect([a?.state, b?.state]).toEqual(['installed', 'installed']);
    expect(
      readdirSync(dir)
        .filter((n) => !n.startsWith('.'))
        .sort(),
    ).toEqual(['model-a', 'model-b']);
  });

  it('a download interrupted by a restart resumes at the next start', async () => {
    const catalog = [entry('model-a', url('hold'))];
    const first = manager(catalog);
    await first.start();
    await first.download('model-a');
    const half = Math.floor(archive.length / 2);
    await until(first, (s) => s.bytes >= half);
    await first.dispose(); // the app quits mid-download
    expect(statSync(join(dir, '.partial', 'model-a.tar.bz2.part')).size).toBe(half);
    const second = manager(catalog);
    await second.start();
    expect((await second.settled('model-a'))?.state).toBe('installed');
    expect(server.requests.map((r) => r.range)).toEqual([null, `bytes=${half}-`]);
  });

  it('a single-file model (a .gguf) is checked by its first bytes and moved into place', async () => {
    server.put('tiny.gguf', Buffer.concat([Buffer.from('GGUF'), Buffer.alloc(100_000, 1)]));
    server.put('fake.gguf', Buffer.from('<html>not a model</html>'));
    const gguf = (id: string, name: string) =>
      entry(id, url('ok', name), { task: 'chat', family: 'gguf', format: 'file', files: { model: 'model.gguf' }, contextLength: 4096, ramBytes: 1_000_000 });
    const m = manager([gguf('tiny-chat', 'tiny.gguf'), gguf('fake-chat', 'fake.gguf')]);
    await Promise.all([m.download('tiny-chat'), m.download('fake-chat')]);
    expect((await m.settled('tiny-chat'))?.state).toBe('installed');
    expect(statSync(join(dir, 'tiny-chat', 'model.gguf')).size).toBe(100_004);
    expect((await m.settled('fake-chat'))?.error?.kind).toBe('not_archive');
    expect(partials()).toEqual([]);
  });

  it('installs from an archive file and from a folder, and refuses a file it does not know', async () => {
    const { writeFileSync, mkdirSync } = await import('node:fs');
    const m = manager([entry('model-a', url('ok')), entry('model-b', url('ok', 'model-b.tar.bz2'))]);
    const file = join(root, 'model-a.tar.bz2');
    writeFileSync(file, archive);
    expect(await m.installFrom(file)).toBe('model-a');
    expect(existsSync(join(dir, 'model-a', MODEL_MANIFEST_FILE))).toBe(true);
    const folder = join(root, 'model-b');
    mkdirSync(folder);
    for (const f of ['encoder.onnx', 'decoder.onnx', 'joiner.onnx', 'tokens.txt']) writeFileSync(join(folder, f), 'x');
    expect(await m.installFrom(folder)).toBe('model-b');
    writeFileSync(join(root, 'holiday.tar.bz2'), archive);
    await expect(m.installFrom(join(root, 'holiday.tar.bz2'))).rejects.toThrow(/not a model Verbatim knows/);
  });
});
