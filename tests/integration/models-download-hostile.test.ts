/**
 * The model manager against a broken or hostile mirror (a real local HTTP
 * server answering badly on purpose) and a hostile models folder: downloads
 * stay bounded and settle, redirects stay out of the local network, checksums
 * follow upstream's published list, installs from a file take regular files
 * only, and host mode installs only files the user may name.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  closeSync,
  constants,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { readdir, readFile, readlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { registerModelHandlers } from '../../src/main/ipc/models';
import { Router } from '../../src/main/ipc/router';
import { JsonSettingsBackend } from '../../src/main/platform/host';
import { parseChecksumList } from '../../src/main/services/models/checksums';
import { ModelManager, type ModelManagerOptions } from '../../src/main/services/models/manager';
import { PickedFiles } from '../../src/main/services/files/picked';
import { UserFiles } from '../../src/main/services/files/refs';
import { StagedUploads } from '../../src/main/services/files/staged';
import { SettingsService } from '../../src/main/services/settings';
import type { CatalogEntry } from '../../src/shared/models/catalog';
import { MODEL_MANIFEST_FILE } from '../../src/shared/models/catalog';
import { HostileMirror } from './support/hostile-mirror';
import { modelMembers, tarBz2 } from './support/model-server';

const mirror = new HostileMirror();
let root: string;
let dir: string;
const managers: ModelManager[] = [];
const fifos: string[] = [];
let archive: Buffer;
let archiveB: Buffer;
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

type Entry = CatalogEntry;

function entry(id: string, url: string, extra: Partial<Entry> = {}): Entry {
  return {
    id,
    name: `Test ${id}`,
    task: 'files',
    family: 'zipformer-transducer',
    languages: ['en'],
    url,
    format: 'tar.bz2',
    sizeBytes: archive.length,
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
    checksums: null,
    unpackedBytes: 5 * 1024 * 1024,
    ...extra,
  };
}

function manager(catalog: Entry[], opts: Partial<ModelManagerOptions> = {}): ModelManager {
  const m = new ModelManager(dir, { catalog, stallMs: 10_000, retryBaseMs: 10, freeSpace: () => Promise.resolve(null), ...opts });
  managers.push(m);
  return m;
}

const partials = () => (existsSync(join(dir, '.partial')) ? readdirSync(join(dir, '.partial')) : []);
const state = () => JSON.parse(readFileSync(join(dir, '.verbatim-state.json'), 'utf8')) as { verified?: Record<string, { sha256: string; source: string }> };
const list = (lines: [string, Buffer][]) => Buffer.from(lines.map(([n, b]) => `${n}\t${sha(b)}\n`).join(''));

beforeAll(async () => {
  await mirror.start();
  archive = await tarBz2(modelMembers('model-a', 200 * 1024));
  archiveB = await tarBz2(modelMembers('model-a', 150 * 1024));
});
afterAll(() => mirror.stop());
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'verbatim-models-hostile-'));
  dir = join(root, 'models');
  mkdirSync(join(dir, '.partial'), { recursive: true });
  mirror.requests.length = 0;
  mirror.put('model-a.tar.bz2', archive);
  mirror.put('checksum.txt', list([['model-a.tar.bz2', archive]]));
});
afterEach(async () => {
  // A reader that the old code left blocked on a FIFO is let go, so the thread pool recovers.
  for (const f of fifos.splice(0)) closeSync(openSync(f, constants.O_RDWR | constants.O_NONBLOCK));
  await Promise.all(managers.splice(0).map((m) => m.dispose()));
  rmSync(root, { recursive: true, force: true });
});

describe('downloads stay bounded', () => {
  it('a 206 that restarts at byte 0 is not appended: the download restarts cleanly once and installs', async () => {
    const m = manager([entry('model-a', mirror.url('cut-then-restart206', 'model-a.tar.bz2'))]);
    await m.download('model-a');
    const done = await m.settled('model-a');
    expect(done?.state, JSON.stringify(done?.error)).toBe('installed');
    expect(mirror.requests.map((r) => r.range)).toEqual([null, `bytes=${Math.floor(archive.length / 2)}-`, null]);
    expect(JSON.parse(readFileSync(join(dir, 'model-a', MODEL_MANIFEST_FILE), 'utf8')).sha256).toBe(sha(archive));
  });

  it('a server that keeps answering the wrong range fails clearly after one restart', async () => {
    const m = manager([entry('model-a', mirror.url('wrong-range', 'model-a.tar.bz2'))]);
    await m.download('model-a');
    const done = await m.settled('model-a');
    expect(done?.state).toBe('failed');
    expect(done?.error).toMatchObject({ kind: 'http', message: expect.stringMatching(/wrong part of the file twice/) });
    expect(mirror.requests).toHaveLength(3);
  });

  it('a chunked body that never ends stops at the model bound and leaves nothing', async () => {
    const m = manager([entry('model-a', mirror.url('endless', 'model-a.tar.bz2'))]);
    await m.download('model-a');
    const done = await m.settled('model-a');
    expect(done?.state).toBe('failed');
    expect(done?.error).toMatchObject({ kind: 'size', message: expect.stringMatching(/more than this model can be/) });
    expect(partials()).toEqual([]);
  });

  it('a drip of a byte at a time fails on the minimum speed, not only the stall timer', async () => {
    const m = manager([entry('model-a', mirror.url('drip', 'model-a.tar.bz2'))], { minSpeed: { bytes: 1000, windowMs: 300 } });
    await m.download('model-a');
    const done = await m.settled('model-a');
    expect(done?.state).toBe('failed');
    expect(done?.error).toMatchObject({ kind: 'stalled', message: expect.stringMatching(/slowed to less than 1 kB in 300 ms/) });
  });

  it('a full disk is an error on that download saying the room needed, and the partial file goes', async () => {
    symlinkSync('/dev/full', join(dir, '.partial', 'model-a.tar.bz2.part'));
    const m = manager([entry('model-a', mirror.url('ok', 'model-a.tar.bz2'))]);
    await m.download('model-a');
    const done = await m.settled('model-a');
    expect(done?.state).toBe('failed');
    expect(done?.error).toMatchObject({ kind: 'disk', message: expect.stringMatching(/It needs \d+ MB/) });
    expect(partials()).toEqual([]);
  });

  it('a state file that cannot be written (full disk) fails nothing else', async () => {
    symlinkSync('/dev/full', join(dir, '.verbatim-state.json.tmp'));
    const logs: string[] = [];
    const m = manager([entry('model-a', mirror.url('ok', 'model-a.tar.bz2'))], { log: (l) => logs.push(l) });
    await m.download('model-a');
    expect((await m.settled('model-a'))?.state).toBe('installed');
    expect(logs.join('\n')).toMatch(/could not save the download state/);
  });
});

describe('one owner per download', () => {
  it('eight starts of one model make one transfer; cancel stops it and nothing installs', async () => {
    const m = manager([entry('model-a', mirror.url('hold', 'model-a.tar.bz2'))]);
    const arrived = mirror.next();
    const starts = await Promise.all(Array.from({ length: 8 }, () => m.download('model-a')));
    expect(starts.map((s) => s.state)).toEqual(Array(8).fill('downloading'));
    await arrived;
    expect((await m.cancel('model-a'))?.state).toBe('canceled');
    expect(mirror.requests).toHaveLength(1);
    expect(partials()).toEqual([]);
    expect(existsSync(join(dir, 'model-a'))).toBe(false);
  });

  /** Resolves once this process holds `path` open (the resumed download re-hashing its partial file). */
  async function opened(path: string): Promise<void> {
    for (;;) {
      for (const fd of await readdir('/proc/self/fd').catch(() => [])) if ((await readlink(`/proc/self/fd/${fd}`).catch(() => '')) === path) return;
      await new Promise((r) => setImmediate(r));
    }
  }

  it.each(['pause', 'cancel', 'quit'] as const)('%s settles while a resumed download re-hashes its partial file', async (how) => {
    const size = 192 * 1024 * 1024;
    mirror.putZeros('big.onnx', size + 1024 * 1024);
    const e = entry('big-file', mirror.url('hold', 'big.onnx'), { format: 'file', files: { model: 'model.onnx' }, sizeBytes: size + 1024 * 1024 });
    const part = join(dir, '.partial', 'big-file.bin.part');
    writeFileSync(part, '');
    truncateSync(part, size); // zeros, as the server's first bytes are
    const m = manager([e]);
    const hashing = opened(part);
    await m.download('big-file');
    await hashing;
    if (how === 'pause') expect((await m.pause('big-file'))?.state).toBe('paused');
    if (how === 'cancel') expect((await m.cancel('big-file'))?.state).toBe('canceled');
    if (how === 'quit') await m.dispose();
    expect(await m.settled('big-file')).not.toBeNull();
    expect(existsSync(part)).toBe(how !== 'cancel');
  });
});

describe('redirects', () => {
  it('a public mirror cannot redirect the download into the local network', async () => {
    // The mirror has a public name (reached through a proxy, as behind a corporate one); its redirect points at 127.0.0.1.
    const m = manager([entry('model-a', 'http://mirror.example/redirect-inside/model-a.tar.bz2')], { env: { HTTP_PROXY: mirror.base } });
    await m.download('model-a');
    const done = await m.settled('model-a');
    expect(done?.state).toBe('failed');
    expect(done?.error).toMatchObject({ kind: 'http', message: expect.stringMatching(/local network, so Verbatim did not follow it/) });
    expect(mirror.hits('secret')).toBe(0);
  });

  it('a mirror on this machine may redirect within it', async () => {
    const m = manager([entry('model-a', mirror.url('redirect-local', 'model-a.tar.bz2'))]);
    await m.download('model-a');
    expect((await m.settled('model-a'))?.state).toBe('installed');
  });
});

describe('checksums follow upstream', () => {
  const listUrl = () => mirror.url('ok', 'checksum.txt');

  it('reads both list formats: name<TAB>sha256 (sherpa-onnx) and sha256sum', () => {
    const a = 'a'.repeat(64);
    const b = 'B'.repeat(64);
    const parsed = parseChecksumList(`x.tar.bz2\t${a}\r\n${b}  y.tar.bz2\n${b} *z.onnx\n# note\nnonsense\nx.tar.bz2\t${b}\n`);
    expect([...parsed]).toEqual([
      ['x.tar.bz2', 'b'.repeat(64)],
      ['y.tar.bz2', 'b'.repeat(64)],
      ['z.onnx', 'b'.repeat(64)],
    ]);
  });

  it('an archive re-released upstream installs after the published list is read again', async () => {
    const m = manager([entry('model-a', mirror.url('ok', 'model-a.tar.bz2'), { checksums: listUrl() })]);
    await m.download('model-a');
    expect((await m.settled('model-a'))?.state).toBe('installed');
    expect(state().verified?.['model-a']).toMatchObject({ sha256: sha(archive), source: 'published' });
    // Upstream re-uploads under the same name and publishes the new hash.
    mirror.put('model-a.tar.bz2', archiveB);
    mirror.put('checksum.txt', list([['model-a.tar.bz2', archiveB]]));
    await m.download('model-a');
    const done = await m.settled('model-a');
    expect(done?.state, JSON.stringify(done?.error)).toBe('installed');
    expect(state().verified?.['model-a']).toMatchObject({ sha256: sha(archiveB), source: 'published' });
  });

  it('the published list outranks an older SHA-256 in the catalog', async () => {
    mirror.put('model-a.tar.bz2', archiveB);
    mirror.put('checksum.txt', list([['model-a.tar.bz2', archiveB]]));
    const m = manager([entry('model-a', mirror.url('ok', 'model-a.tar.bz2'), { sha256: sha(archive), checksums: listUrl() })]);
    await m.download('model-a');
    expect((await m.settled('model-a'))?.state).toBe('installed');
  });

  it('a resumed download whose bytes span both releases says it changed upstream; a fresh download then installs', async () => {
    const m = manager([entry('model-a', mirror.url('ok', 'model-a.tar.bz2'), { checksums: listUrl() })]);
    await m.download('model-a');
    expect((await m.settled('model-a'))?.state).toBe('installed');
    // The first half of the old release was on disk when upstream re-released: the rest comes from the new one.
    writeFileSync(join(dir, '.partial', 'model-a.tar.bz2.part'), archive.subarray(0, Math.floor(archiveB.length / 2)));
    mirror.put('model-a.tar.bz2', archiveB);
    mirror.put('checksum.txt', list([['model-a.tar.bz2', archiveB]]));
    await m.download('model-a');
    const changed = await m.settled('model-a');
    expect(changed?.error).toMatchObject({ kind: 'upstream_changed', message: expect.stringMatching(/new version .* Download it again from the start/) });
    expect(mirror.requests.at(-2)?.range).toMatch(/^bytes=\d+-$/);
    expect(partials()).toEqual([]);
    await m.download('model-a');
    expect((await m.settled('model-a'))?.state).toBe('installed');
  });

  it('a whole file that matches neither the known nor the listed version is refused, with no "new version" to fetch again', async () => {
    const m = manager([entry('model-a', mirror.url('ok', 'model-a.tar.bz2'), { checksums: listUrl() })]);
    await m.download('model-a');
    expect((await m.settled('model-a'))?.state).toBe('installed');
    const mixed = Buffer.from(archiveB);
    mixed[100]! ^= 0xff;
    mirror.put('model-a.tar.bz2', mixed);
    mirror.put('checksum.txt', list([['model-a.tar.bz2', archiveB]]));
    await m.download('model-a');
    const done = await m.settled('model-a');
    expect(done?.error).toMatchObject({ kind: 'checksum', message: expect.stringMatching(/does not match the SHA-256 its publisher lists/) });
    expect(done?.error?.message).not.toMatch(/new version/);
    expect(partials()).toEqual([]);
  });

  it('a mirror holding a file no list names says so, offers the publisher instead of the same file again, and the publisher’s installs', async () => {
    // The publisher: its own server, with the new release and its list.
    const publisher = await new HostileMirror().start();
    try {
      publisher.put('model-a.tar.bz2', archiveB);
      publisher.put('checksum.txt', list([['model-a.tar.bz2', archiveB]]));
      const m = manager([entry('model-a', publisher.url('ok', 'model-a.tar.bz2'), { checksums: publisher.url('ok', 'checksum.txt') })], {
        mirror: () => `${mirror.base}/ok/`,
      });
      await m.download('model-a');
      expect((await m.settled('model-a'))?.state).toBe('installed');
      // The mirror's copy of the list moves on to a third release, while its archive is neither that one nor the one installed.
      const stray = Buffer.from(archiveB);
      stray[100]! ^= 0xff;
      mirror.put('model-a.tar.bz2', stray);
      mirror.put('checksum.txt', list([['model-a.tar.bz2', archive]]));
      for (let attempt = 0; attempt < 2; attempt++) {
        await m.download('model-a');
        const done = await m.settled('model-a');
        expect(done?.error?.kind).toBe('mirror_mismatch');
        expect(done?.error?.message).toMatch(/model-a\.tar\.bz2 on your mirror matches no published version of this model/);
        // Nothing says the mirror published anything, nor offers the same file as a new version.
        expect(done?.error?.message).not.toMatch(/published \(your mirror\)|new version|Download it again/);
      }
      const before = publisher.requests.length;
      await m.download('model-a', true);
      expect((await m.settled('model-a'))?.state).toBe('installed');
      expect(publisher.requests.slice(before).map((r) => r.name)).toContain('model-a.tar.bz2');
    } finally {
      await publisher.stop();
    }
  });

  it('with a mirror, the list is read from the mirror, and a file the list does not vouch for is refused', async () => {
    const m = manager(
      [entry('model-a', mirror.url('404', 'model-a.tar.bz2'), { checksums: 'https://github.invalid/releases/download/asr-models/checksum.txt' })],
      {
        mirror: () => `${mirror.base}/ok/`,
      },
    );
    mirror.put('checksum.txt', list([['model-a.tar.bz2', archiveB]]));
    await m.download('model-a');
    const done = await m.settled('model-a');
    expect(done?.error).toMatchObject({
      kind: 'mirror_mismatch',
      message: expect.stringMatching(/model-a\.tar\.bz2 on your mirror matches no published version/),
    });
    expect(mirror.requests.map((r) => `${r.route}/${r.name}`)).toEqual(['ok/model-a.tar.bz2', 'ok/checksum.txt']);
  });

  it('with no list published, deleting a model clears its first-download record', async () => {
    const gguf = Buffer.concat([Buffer.from('GGUF'), Buffer.alloc(50_000, 1)]);
    mirror.put('tiny.gguf', gguf);
    const m = manager([
      entry('tiny-chat', mirror.url('ok', 'tiny.gguf'), {
        format: 'file',
        task: 'chat',
        family: 'gguf',
        files: { model: 'model.gguf' },
        sizeBytes: gguf.length,
      }),
    ]);
    await m.download('tiny-chat');
    expect((await m.settled('tiny-chat'))?.state).toBe('installed');
    expect(state().verified?.['tiny-chat']).toMatchObject({ sha256: sha(gguf), source: 'first' });
    await m.delete('tiny-chat');
    expect(state().verified?.['tiny-chat']).toBeUndefined();
    const other = Buffer.from(gguf);
    other[100]! ^= 0xff; // same size, other bytes: only the old record could refuse it
    mirror.put('tiny.gguf', other);
    await m.download('tiny-chat');
    expect((await m.settled('tiny-chat'))?.state).toBe('installed');
  });

  it('two models sharing an archive name keep their own records', async () => {
    mirror.put('shared.tar.bz2', archive);
    const m = manager([entry('model-a', mirror.url('ok', 'shared.tar.bz2')), entry('model-a-int8', mirror.url('redirect-local', 'shared.tar.bz2'))]);
    await m.download('model-a');
    expect((await m.settled('model-a'))?.state).toBe('installed');
    mirror.put('shared.tar.bz2', archiveB);
    await m.download('model-a-int8');
    expect((await m.settled('model-a-int8'))?.state).toBe('installed');
  });
});

describe('install from a file', () => {
  it('an archive name shared by two entries installs the entry the user chose', async () => {
    const file = join(root, 'sherpa-onnx-pyannote-segmentation-3-0.tar.bz2');
    writeFileSync(file, archive);
    const url = mirror.url('ok', 'sherpa-onnx-pyannote-segmentation-3-0.tar.bz2');
    const m = manager([entry('pyannote-segmentation-3.0', url), entry('pyannote-segmentation-3.0-int8', url)]);
    expect(await m.installFrom(file, undefined, 'pyannote-segmentation-3.0-int8')).toBe('pyannote-segmentation-3.0-int8');
    expect(await m.isInstalled('pyannote-segmentation-3.0-int8')).toBe(true);
    expect(await m.isInstalled('pyannote-segmentation-3.0')).toBe(false);
  });

  it('an archive is checked against the published list even when the catalog pins no SHA-256, as a download is', async () => {
    const file = join(root, 'model-a.tar.bz2');
    writeFileSync(file, archiveB);
    // Upstream's list names another archive: the bytes a download of this name would refuse are refused here too.
    const m = manager([entry('model-a', mirror.url('ok', 'model-a.tar.bz2'), { checksums: mirror.url('ok', 'checksum.txt') })]);
    await m.download('model-a').then(() => m.settled('model-a'));
    await m.delete('model-a');
    mirror.put('model-a.tar.bz2', archiveB);
    await m.download('model-a');
    expect((await m.settled('model-a'))?.error?.kind).toBe('checksum');
    await expect(m.installFrom(file)).rejects.toThrow(/model-a\.tar\.bz2 is not the archive its publisher lists/);
    expect(await m.isInstalled('model-a')).toBe(false);
    // The archive the list names installs, and is remembered as published.
    writeFileSync(file, archive);
    expect(await m.installFrom(file)).toBe('model-a');
    expect(state().verified?.['model-a']).toMatchObject({ sha256: sha(archive), source: 'published' });
  });

  it('a single-file .onnx model installs from a file', async () => {
    const file = join(root, 'speaker.onnx');
    writeFileSync(file, Buffer.alloc(5000, 3));
    const m = manager([
      entry('speaker', mirror.url('ok', 'speaker.onnx'), { format: 'file', task: 'embedding', family: 'speaker-embedding', files: { model: 'model.onnx' } }),
    ]);
    expect(await m.installFrom(file)).toBe('speaker');
    expect(statSync(join(dir, 'speaker', 'model.onnx')).size).toBe(5000);
    expect(partials()).toEqual([]);
  });

  it('a FIFO named like an archive is refused without blocking a thread', async () => {
    const m = manager([entry('model-a', mirror.url('ok', 'model-a.tar.bz2'))]);
    const calls = [];
    for (let i = 0; i < 5; i++) {
      const d = join(root, `fifo-${i}`);
      mkdirSync(d);
      const f = join(d, 'model-a.tar.bz2');
      execFileSync('mkfifo', [f]);
      fifos.push(f);
      calls.push(m.installFrom(f));
    }
    const settled = await Promise.allSettled(calls);
    expect(settled.map((s) => (s.status === 'rejected' ? (s.reason as Error).message : 'installed'))).toEqual(
      Array(5).fill(expect.stringMatching(/not a regular file/)),
    );
    // The thread pool is free: a file read still answers.
    writeFileSync(join(root, 'probe'), 'still here');
    expect(await readFile(join(root, 'probe'), 'utf8')).toBe('still here');
  });

  it('host mode installs only files picked this session or under --folder', async () => {
    const folder = join(root, 'shared');
    mkdirSync(folder);
    writeFileSync(join(folder, 'model-a.tar.bz2'), archive);
    writeFileSync(join(root, 'model-a.tar.bz2'), archive);
    symlinkSync(join(root, 'model-a.tar.bz2'), join(folder, 'link.tar.bz2'));
    const picked = new PickedFiles(true);
    picked.addFolder(folder);
    const files = new UserFiles(picked, new StagedUploads(join(root, 'uploads'), () => new Set()));
    const m = manager([entry('model-a', mirror.url('ok', 'model-a.tar.bz2'))], { files });
    const router = new Router(() => true, { error: () => undefined });
    registerModelHandlers(router, m, new SettingsService(new JsonSettingsBackend(join(root, 'settings.json'))));
    const ctx = { sender: { kind: 'host' as const, tokenValid: true } };
    for (const path of [join(root, 'model-a.tar.bz2'), join(folder, 'link.tar.bz2'), '/etc/passwd'])
      expect(await router.dispatch('models.installFile', { file: { kind: 'path', path }, id: 'model-a' }, ctx)).toMatchObject({
        ok: false,
        error: { code: 'forbidden' },
      });
    expect(existsSync(join(dir, 'model-a'))).toBe(false);
    expect(await router.dispatch('models.installFile', { file: { kind: 'path', path: join(folder, 'model-a.tar.bz2') } }, ctx)).toMatchObject({
      ok: true,
      output: { id: 'model-a' },
    });
  });
});

describe('a hostile models folder', () => {
  it('a FIFO named like the state, defaults, speeds or offer file does not hold the start (read in a child, so an old reader could only time out)', () => {
    const names = ['.verbatim-state.json', '.verbatim-defaults.json', '.verbatim-speed.json', '.verbatim-offer.json'];
    for (const n of names) {
      execFileSync('mkfifo', [join(dir, n)]);
      fifos.push(join(dir, n));
    }
    const script = [
      `import { StateFile } from ${JSON.stringify(join(process.cwd(), 'src/main/services/models/state.ts'))};`,
      `import { PendingDefaults } from ${JSON.stringify(join(process.cwd(), 'src/main/services/models/defaults.ts'))};`,
      `import { OfferState } from ${JSON.stringify(join(process.cwd(), 'src/main/services/models/recommend.ts'))};`,
      `import { SpeedTests } from ${JSON.stringify(join(process.cwd(), 'src/main/services/models/model-test.ts'))};`,
      `const dir = ${JSON.stringify(dir)};`,
      `const state = new StateFile(dir);`,
      `new PendingDefaults(dir); new OfferState(dir); new SpeedTests(dir, {});`,
      `console.log(JSON.stringify(state.get()));`,
    ].join('\n');
    const out = execFileSync(join(process.cwd(), 'node_modules/.bin/tsx'), ['--input-type=module', '-e', script], { timeout: 120_000, encoding: 'utf8' });
    expect(JSON.parse(out.trim().split('\n').at(-1)!)).toEqual({ downloads: {}, verified: {} });
  });

  it('a FIFO or a link to /dev/zero named like a manifest is passed over: the list answers and file calls still run', async () => {
    const m = manager([entry('model-a', mirror.url('ok', 'model-a.tar.bz2'))]);
    await m.download('model-a');
    expect((await m.settled('model-a'))?.state).toBe('installed');
    for (const [i, kind] of ['fifo', 'fifo', 'fifo', 'fifo', 'fifo', 'zero'].entries()) {
      const d = join(dir, `hostile-${i}`);
      mkdirSync(d);
      const f = join(d, MODEL_MANIFEST_FILE);
      if (kind === 'fifo') {
        execFileSync('mkfifo', [f]);
        fifos.push(f);
      } else symlinkSync('/dev/zero', f);
    }
    // A FIFO where the catalog model's manifest belongs, too: that model reads as not installed.
    rmSync(join(dir, 'model-a', MODEL_MANIFEST_FILE));
    execFileSync('mkfifo', [join(dir, 'model-a', MODEL_MANIFEST_FILE)]);
    fifos.push(join(dir, 'model-a', MODEL_MANIFEST_FILE));
    // Five lists at once: each would hold a thread of the pool (four by default) on the old reader.
    const lists = await Promise.all(Array.from({ length: 5 }, () => m.list()));
    for (const l of lists) {
      expect(l.others).toEqual([]);
      expect(l.models.find((r) => r.entry.id === 'model-a')?.installed).toBeNull();
    }
    expect(await m.isInstalled('model-a')).toBe(false);
    writeFileSync(join(root, 'probe'), 'still here');
    expect(await readFile(join(root, 'probe'), 'utf8')).toBe('still here');
  });
});
