/**
 * Host mode's promise: a browser holding the token reaches only files inside --folder. A link inside
 * the folder to a file outside is refused by every channel that takes a file (five ways in), with a
 * 4xx-style code and a sentence; a file swapped for such a link after its job was added is refused
 * when the job uploads it, not read from outside; backups are read and written only under --folder.
 * The real core and library, the fake service as the local engine.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCore, type Core } from '../../src/main/core';
import { handleMedia } from '../../src/main/host/media';
import { createHostPlatform, ForkEngineLauncher } from '../../src/main/platform/host';
import { Library } from '../../src/main/services/library/library';
import { waitFinal } from '../support/jobs';
import { call } from '../support/router';
import { srtOf } from '../support/srt';

const fakeEngine = resolve('tests/unit/main/support/fake-engine-cli.ts');
let dir: string;
let inside: string;
let outside: string;
let core: Core | undefined;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'verbatim-confine-'));
  inside = join(dir, 'folder');
  outside = join(dir, 'private');
  mkdirSync(inside);
  mkdirSync(outside);
});
afterEach(async () => {
  await core?.dispose();
  core = undefined;
  rmSync(dir, { recursive: true, force: true });
});

function hostCore(): Core {
  const platform = createHostPlatform({ dataDir: join(dir, 'data'), version: 't', keyFile: join(dir, 'k', 'key') });
  platform.engine = new ForkEngineLauncher(fakeEngine);
  const prev = process.env.ASSEMBLYAI_API_KEY;
  delete process.env.ASSEMBLYAI_API_KEY;
  const c = createCore(platform, () => true, {
    log: () => undefined,
    jobs: { pollStartMs: 100, pollCapMs: 500 },
    onlyPickedPaths: true,
    hostFolders: [inside],
  });
  if (prev !== undefined) process.env.ASSEMBLYAI_API_KEY = prev;
  return c;
}

const refusal = async (p: Promise<unknown>) => {
  try {
    await p;
  } catch (e) {
    return { code: (e as { code?: string }).code, message: (e as Error).message };
  }
  return null;
};

describe('host mode: links inside --folder that lead outside', () => {
  it('are refused by each of the five ways a file comes in, and nothing is added', async () => {
    writeFileSync(join(outside, 'secret.wav'), Buffer.alloc(40_000, 7));
    writeFileSync(join(outside, 'secret.srt'), srtOf(2));
    writeFileSync(join(outside, 'secret.mp4'), Buffer.alloc(40_000, 9));
    symlinkSync(join(outside, 'secret.wav'), join(inside, 'talk.wav'));
    symlinkSync(join(outside, 'secret.srt'), join(inside, 'talk.srt'));
    symlinkSync(join(outside, 'secret.mp4'), join(inside, 'clip.mp4'));
    // A real subtitle file inside, whose same-named video beside it is a link out.
    writeFileSync(join(inside, 'Movie.srt'), srtOf(2));
    symlinkSync(join(outside, 'secret.mp4'), join(inside, 'Movie.mp4'));
    core = hostCore();
    const r = core.router;
    const item = await call(r, 'subtitles.importNew', { name: 'mine.srt', content: srtOf(1) });
    const doc = await call(r, 'subtitles.open', { id: item.id });
    const before = core.library.recordings.list({}).total;
    const view = { selection: [] as [number, number][], caret: null, playheadMs: 0 };
    // Asked one at a time: a refusal made before the one before it was awaited would reject with no handler yet
    // (Vitest counts that as an unhandled error even though the test passes).
    const cases: [string, () => Promise<unknown>][] = [
      ['jobs.addFiles', () => call(r, 'jobs.addFiles', { files: [{ kind: 'path', path: join(inside, 'talk.wav') }] })],
      ['importNew file', () => call(r, 'subtitles.importNew', { name: 'talk.srt', file: { kind: 'path', path: join(inside, 'talk.srt') } })],
      [
        'replaceFrom',
        () =>
          call(r, 'subtitles.run', {
            id: item.id,
            version: doc.version,
            command: 'replaceFrom',
            args: { name: 'talk.srt', file: { kind: 'path', path: join(inside, 'talk.srt') } },
            view,
          }),
      ],
      ['importNew media', () => call(r, 'subtitles.importNew', { name: 'a.srt', content: srtOf(1), media: { kind: 'path', path: join(inside, 'clip.mp4') } })],
      ['the video beside', () => call(r, 'subtitles.importNew', { name: 'Movie.srt', file: { kind: 'path', path: join(inside, 'Movie.srt') } })],
    ];
    for (const [label, ask] of cases) {
      const got = await refusal(ask());
      expect(got?.code, label).toBe('forbidden');
      expect(got?.message, label).toMatch(/link to a file outside the folders .*--folder/);
    }
    expect(core.library.recordings.list({}).total).toBe(before);
    expect(core.jobs.list()).toEqual([]);
    expect((await call(r, 'subtitles.open', { id: item.id })).version).toBe(doc.version);
    // The same files themselves, copied inside, are taken.
    writeFileSync(join(inside, 'real.wav'), Buffer.alloc(40_000, 7));
    const { jobs } = await call(r, 'jobs.addFiles', { files: [{ kind: 'path', path: join(inside, 'real.wav') }] });
    expect((await waitFinal(core.jobs, jobs[0]!.id)).status).toBe('completed');
  });

  it('a file swapped for a link after its job was added is refused when the job uploads it', async () => {
    const file = join(inside, 'meeting.wav');
    writeFileSync(file, Buffer.alloc(40_000, 3));
    // The job as a restart finds it: added while the file was the user's own, not uploaded yet.
    const lib = new Library(join(dir, 'data'));
    const options = {};
    const job = lib.jobs.create({
      kind: 'file',
      source: file,
      name: 'meeting.wav',
      size: 40_000,
      region: 'local',
      baseUrl: 'local',
      options,
      recording: {
        title: 'meeting',
        source: 'meeting.wav',
        sourceKind: 'file',
        sizeBytes: 40_000,
        durationMs: null,
        originalPath: null,
        region: 'local',
        baseUrl: null,
        options,
      },
    });
    lib.close();
    writeFileSync(join(outside, 'secret.wav'), Buffer.alloc(40_000, 8));
    rmSync(file);
    symlinkSync(join(outside, 'secret.wav'), file);
    core = hostCore();
    const done = await waitFinal(core.jobs, job.id);
    expect(done.status).toBe('error');
    expect(done.error).toMatchObject({ code: 'forbidden', message: expect.stringMatching(/link to a file outside/) });
  });
});

describe('host mode: the library keeps a copy of a file only through the check', () => {
  it('a file swapped for a link out after its upload is not copied into the library when the job completes', async () => {
    const file = join(inside, 'call.wav');
    writeFileSync(file, Buffer.alloc(40_000, 3));
    writeFileSync(join(outside, 'secret.wav'), Buffer.alloc(40_000, 8));
    // The engine takes a while over it: the swap lands between the upload and the end.
    const before = process.env.FAKE_PROCESS_MS;
    process.env.FAKE_PROCESS_MS = '1500';
    try {
      core = hostCore();
      const c = core;
      const { jobs } = await call(c.router, 'jobs.addFiles', { files: [{ kind: 'path', path: file }] });
      const id = jobs[0]!.id;
      await new Promise<void>((resolve) => {
        const check = () => ['submitted', 'processing'].includes(c.jobs.get(id).status) && (off(), resolve());
        const off = c.router.subscribe(() => void check());
        check();
      });
      rmSync(file);
      symlinkSync(join(outside, 'secret.wav'), file);
      const done = await waitFinal(c.jobs, id);
      expect(done.status).toBe('completed');
      const audioDir = join(dir, 'data', 'audio');
      const copies = existsSync(audioDir) ? readdirSync(audioDir) : [];
      for (const f of copies) expect(readFileSync(join(audioDir, f)).includes(8)).toBe(false);
    } finally {
      if (before === undefined) delete process.env.FAKE_PROCESS_MS;
      else process.env.FAKE_PROCESS_MS = before;
    }
  }, 120_000);
});

describe('host mode: /media plays an original file only through the check', () => {
  it('answers 403 for a recording whose original under --folder was swapped for a link out, and plays it before', async () => {
    const file = join(inside, 'talk.wav');
    writeFileSync(file, Buffer.alloc(4000, 3));
    const lib = new Library(join(dir, 'data'));
    const options = {};
    const job = lib.jobs.create({
      kind: 'file',
      source: file,
      name: 'talk.wav',
      size: 4000,
      region: 'local',
      baseUrl: 'local',
      options,
      recording: {
        title: 'talk',
        source: 'talk.wav',
        sourceKind: 'file',
        sizeBytes: 4000,
        durationMs: null,
        originalPath: file,
        region: 'local',
        baseUrl: null,
        options,
      },
    });
    lib.jobs.delete(job.id);
    lib.close();
    core = hostCore();
    const c = core;
    const server = createServer((req, res) => void handleMedia(c, req, res, new URL(req.url ?? '/', 'http://127.0.0.1')));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/media/${job.recordingId}`;
      const before = await fetch(url);
      expect(before.status).toBe(200);
      expect((await before.arrayBuffer()).byteLength).toBe(4000);
      writeFileSync(join(outside, 'secret.wav'), Buffer.alloc(9000, 8));
      rmSync(file);
      symlinkSync(join(outside, 'secret.wav'), file);
      const after = await fetch(url);
      expect(after.status).toBe(403);
      expect(await after.text()).toMatch(/link to a file outside/);
    } finally {
      await new Promise((r) => server.close(r));
    }
  }, 120_000);
});

describe('host mode: backups only under --folder', () => {
  it('refuses a folder outside, through .., through a link, or relative to the working folder', async () => {
    symlinkSync(outside, join(inside, 'out'));
    mkdirSync(join(inside, 'backups'));
    core = hostCore();
    const r = core.router;
    for (const folder of [outside, join(inside, '..', 'private'), join(inside, 'out'), 'private', '.']) {
      // Asked one at a time: a second refusal made before the first was awaited would reject with no handler yet.
      for (const [label, ask] of [
        ['exportAll', () => call(r, 'library.exportAll', { dir: folder })],
        ['importAll', () => call(r, 'library.importAll', { dir: folder })],
      ] as const) {
        const got = await refusal(ask());
        expect(got?.code, `${label} ${folder}`).toMatch(/forbidden|bad_request/);
      }
    }
    const made = await refusal(call(r, 'library.exportAll', { dir: join(inside, 'backups', 'monday') }));
    expect(made).toBeNull();
  });
});
