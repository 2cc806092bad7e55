/**
 * Watch folders end to end in one process: the real core and library, the fake service as the local
 * engine. A file copied in slowly is taken once and only whole; a restart does not take it again;
 * host mode refuses a folder outside --folder, and still watches one inside it after a restart; an
 * empty file is said, not left arriving; a link out is not read. Every wait is on an event or a condition.
 */
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCore, type Core, type CoreOptions } from '../../src/main/core';
import { createHostPlatform, ForkEngineLauncher } from '../../src/main/platform/host';
import { waitFinal } from '../support/jobs';
import { call } from '../support/router';

const fakeEngine = resolve('tests/unit/main/support/fake-engine-cli.ts');
let dir: string;
let core: Core | undefined;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'verbatim-watch-'));
});
afterEach(async () => {
  await core?.dispose();
  core = undefined;
  rmSync(dir, { recursive: true, force: true });
});

type Listener = { test: (path: string, size?: number) => boolean; resolve: () => void };

/** Hooks the watch service reports through, turned into promises a test can wait on. */
function hooks() {
  const waiting: { observed: Listener[]; skipped: Listener[] } = { observed: [], skipped: [] };
  const fire = (list: Listener[], path: string, size?: number) => {
    for (const l of [...list]) {
      if (!l.test(path, size)) continue;
      list.splice(list.indexOf(l), 1);
      l.resolve();
    }
  };
  return {
    options: {
      observed: (path: string, size: number) => fire(waiting.observed, path, size),
      skipped: (path: string) => fire(waiting.skipped, path),
    },
    observed: (path: string, size: number) => new Promise<void>((r) => waiting.observed.push({ test: (p, s) => p === path && s === size, resolve: r })),
    skipped: (path: string) => new Promise<void>((r) => waiting.skipped.push({ test: (p) => p === path, resolve: r })),
  };
}

function makeCore(watch: CoreOptions['watch'], extra: Partial<CoreOptions> = {}): Core {
  const platform = createHostPlatform({ dataDir: join(dir, 'data'), version: 't', keyFile: join(dir, 'k', 'key') });
  platform.engine = new ForkEngineLauncher(fakeEngine);
  const prev = process.env.ASSEMBLYAI_API_KEY;
  delete process.env.ASSEMBLYAI_API_KEY;
  const c = createCore(platform, () => true, { log: () => undefined, jobs: { pollStartMs: 100, pollCapMs: 500 }, watch, ...extra });
  if (prev !== undefined) process.env.ASSEMBLYAI_API_KEY = prev;
  return c;
}

/** Resolves when a job is added (the jobs.changed event of a new id). */
function nextJob(c: Core): Promise<string> {
  return new Promise((res) => {
    const off = c.router.subscribe((event, payload) => {
      const p = payload as { id: string; job: { status: string } | null };
      if (event === 'jobs.changed' && p.job?.status === 'queued') {
        off();
        res(p.id);
      }
    });
  });
}

const options = { speechModel: null, languageCode: 'en_us', speakerLabels: false, speakersExpected: null, subtitles: 'srt' as const };

describe('watch folders', () => {
  it('takes a file copied in slowly once, only when it is whole, and a restart does not take it again', async () => {
    const inbox = join(dir, 'inbox');
    mkdirSync(inbox);
    const h = hooks();
    // The size must hold still for 1.5 s: each chunk below lands long before that, as soon as the last was seen.
    core = makeCore({ stableMs: 1500, pollMs: 30, ...h.options });
    const folder = await call(core.router, 'watch.add', { path: inbox, options });
    expect(folder).toMatchObject({ name: 'inbox', paused: false, taken: 0 });

    const file = join(inbox, 'meeting.wav');
    const chunk = Buffer.alloc(16 * 1024, 7);
    const jobAdded = nextJob(core);
    let added = false;
    void jobAdded.then(() => (added = true));
    for (let i = 1; i <= 6; i++) {
      const seen = h.observed(file, i * chunk.length);
      if (i === 1) writeFileSync(file, chunk);
      else appendFileSync(file, chunk);
      await seen;
      expect(added, `taken after chunk ${i} of 6`).toBe(false);
      expect(core.jobs.list()).toHaveLength(0);
    }
    const jobId = await jobAdded;
    const job = core.jobs.get(jobId);
    expect(job).toMatchObject({ name: 'meeting.wav', bytesTotal: 6 * chunk.length, source: 'file' });
    // The job is noted as the folder's once addFiles answers (a watch.changed event follows).
    await expect.poll(async () => (await call(core!.router, 'watch.list', undefined)).origins[jobId]).toBe(folder.id);
    const listed = await call(core.router, 'watch.list', undefined);
    expect(listed.folders[0]).toMatchObject({ taken: 1 });

    const done = await waitFinal(core.jobs, jobId, 30_000);
    expect(done.status, JSON.stringify(done.error)).toBe('completed');
    // The subtitles are written beside the file once the job completes.
    const srt = join(inbox, 'meeting.srt');
    await expect.poll(() => existsSync(srt), { timeout: 10_000 }).toBe(true);
    expect(readFileSync(srt, 'utf8')).toMatch(/^1\n\d\d:\d\d:\d\d,\d{3} --> /);
    expect(core.jobs.list()).toHaveLength(1);

    // A restart: the file is seen again and recognised as taken.
    await core.dispose();
    const h2 = hooks();
    core = makeCore({ stableMs: 200, pollMs: 30, ...h2.options });
    const other = join(inbox, 'later.wav');
    const skipped = h2.skipped(file);
    const laterJob = nextJob(core);
    writeFileSync(other, chunk);
    await skipped;
    // A new file in the same folder is still taken, and only it.
    const laterId = await laterJob;
    expect(core.jobs.get(laterId).name).toBe('later.wav');
    expect(
      core.jobs
        .list()
        .map((j) => j.name)
        .sort(),
    ).toEqual(['later.wav', 'meeting.wav']);
  });

  it('takes nothing while paused, and what arrived meanwhile once resumed', async () => {
    const inbox = join(dir, 'paused');
    mkdirSync(inbox);
    const h = hooks();
    core = makeCore({ stableMs: 100, pollMs: 30, ...h.options });
    const folder = await call(core.router, 'watch.add', { path: inbox, options });
    await call(core.router, 'watch.pauseAll', { paused: true });
    writeFileSync(join(inbox, 'a.mp3'), Buffer.alloc(4096, 1));
    const job = nextJob(core);
    const updated = await call(core.router, 'watch.update', { id: folder.id, paused: false });
    expect(updated.paused).toBe(false);
    expect(core.jobs.get(await job).name).toBe('a.mp3');
  });

  it('host mode refuses a folder outside --folder and accepts one inside it', async () => {
    const allowed = join(dir, 'allowed');
    const outside = join(dir, 'outside');
    mkdirSync(join(allowed, 'sub'), { recursive: true });
    mkdirSync(outside);
    core = makeCore({ stableMs: 100, pollMs: 50 }, { onlyPickedPaths: true });
    core.picked.addFolder(allowed);
    await expect(call(core.router, 'watch.add', { path: outside, options })).rejects.toMatchObject({
      code: 'forbidden',
      message: expect.stringContaining('--folder'),
    });
    await expect(call(core.router, 'watch.add', { path: join(allowed, 'sub', '..', '..', 'outside'), options })).rejects.toMatchObject({ code: 'forbidden' });
    expect((await call(core.router, 'watch.add', { path: allowed, options })).name).toBe('allowed');
    expect((await call(core.router, 'watch.add', { path: join(allowed, 'sub'), options })).name).toBe('sub');
    await expect(call(core.router, 'watch.add', { path: join(dir, 'missing'), options })).rejects.toMatchObject({ code: 'bad_request' });
  });

  it('host mode still watches a folder inside --folder after a restart with the same --data and --folder', async () => {
    const allowed = join(dir, 'allowed');
    mkdirSync(allowed);
    // As host mode's command line builds it: the --folder list given to the core, which starts watching at once.
    core = makeCore({ stableMs: 100, pollMs: 30 }, { onlyPickedPaths: true, hostFolders: [allowed] });
    const folder = await call(core.router, 'watch.add', { path: allowed, options });
    await core.dispose();
    core = makeCore({ stableMs: 100, pollMs: 30 }, { onlyPickedPaths: true, hostFolders: [allowed] });
    const listed = (await call(core.router, 'watch.list', undefined)).folders;
    expect(listed).toMatchObject([{ id: folder.id, problem: null, paused: false }]);
    const job = nextJob(core);
    writeFileSync(join(allowed, 'after-restart.wav'), Buffer.alloc(8192, 3));
    expect(core.jobs.get(await job).name).toBe('after-restart.wav');
  });

  it('says an empty file was not taken (instead of "still arriving"), and takes it once it has bytes', async () => {
    const inbox = join(dir, 'empty');
    mkdirSync(inbox);
    const changed: string[] = [];
    core = makeCore({ stableMs: 100, pollMs: 30 });
    core.router.subscribe((event) => void (event === 'watch.changed' && changed.push(event)));
    await call(core.router, 'watch.add', { path: inbox, options });
    const file = join(inbox, 'blank.wav');
    writeFileSync(file, '');
    await expect
      .poll(async () => (await call(core!.router, 'watch.list', undefined)).folders[0], { timeout: 30_000 })
      .toMatchObject({ empty: ['blank.wav'], waiting: 0, taken: 0 });
    expect(core.jobs.list()).toEqual([]);
    const job = nextJob(core);
    writeFileSync(file, Buffer.alloc(8192, 2));
    expect(core.jobs.get(await job).name).toBe('blank.wav');
    expect((await call(core.router, 'watch.list', undefined)).folders[0]).toMatchObject({ empty: [], taken: 1 });
  });

  it('host mode: a link in the watched folder to a file outside is not taken; a real file beside it is', async () => {
    const allowed = join(dir, 'allowed');
    const outside = join(dir, 'outside');
    mkdirSync(allowed);
    mkdirSync(outside);
    writeFileSync(join(outside, 'secret.wav'), Buffer.alloc(8192, 4));
    core = makeCore({ stableMs: 100, pollMs: 30 }, { onlyPickedPaths: true, hostFolders: [allowed] });
    await call(core.router, 'watch.add', { path: allowed, options });
    symlinkSync(join(outside, 'secret.wav'), join(allowed, 'talk.wav'));
    const job = nextJob(core);
    writeFileSync(join(allowed, 'real.wav'), Buffer.alloc(8192, 5));
    expect(core.jobs.get(await job).name).toBe('real.wav');
    expect(core.jobs.list().map((j) => j.name)).toEqual(['real.wav']);
  });

  it('never notes a file as taken without its job: the mark and the job are written together (a crash leaves both or neither)', async () => {
    const inbox = join(dir, 'many');
    mkdirSync(inbox);
    const count = 20;
    for (let i = 0; i < count; i++) writeFileSync(join(inbox, `talk-${i}.wav`), Buffer.alloc(2048, i));
    core = makeCore({ stableMs: 50, pollMs: 30 });
    // What a kill -9 would leave: the committed state, read through a connection of its own.
    const db = new Database(join(dir, 'data', 'library.sqlite'), { readonly: true });
    const orphans = db.prepare(`SELECT count(*) AS n FROM watch_files WHERE job_id IS NULL AND error IS NULL`);
    const jobs = db.prepare(`SELECT count(*) AS n FROM jobs`);
    // Between any two turns of the event loop (where a kill -9 may land), the database holds no file taken without its job.
    let seen = 0;
    let turns = 0;
    let stop = false;
    const sample = () => {
      if (stop) return;
      turns++;
      seen = Math.max(seen, (orphans.get() as { n: number }).n);
      setImmediate(sample);
    };
    setImmediate(sample);
    await call(core.router, 'watch.add', { path: inbox, options });
    await expect.poll(() => (jobs.get() as { n: number }).n, { timeout: 60_000 }).toBe(count);
    stop = true;
    db.close();
    expect(turns).toBeGreaterThan(count);
    expect(seen).toBe(0);
  });
});
