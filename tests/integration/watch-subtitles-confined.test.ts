/**
 * Host mode: a watched file's subtitles are written beside it only while its folder is still the watched
 * folder inside --folder. A watched folder swapped for a link out while the file's job runs gets no
 * subtitles outside: the folder's real path is looked up again before writing, and the refusal is logged.
 * The real core and library, the fake service as the local engine; every wait is on an event or a condition.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCore, type Core } from '../../src/main/core';
import { createHostPlatform, ForkEngineLauncher } from '../../src/main/platform/host';
import { waitFinal } from '../support/jobs';
import { call } from '../support/router';

const fakeEngine = resolve('tests/unit/main/support/fake-engine-cli.ts');
let dir: string;
let core: Core | undefined;
const before = process.env.FAKE_PROCESS_MS;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'verbatim-watch-subs-'));
  // The engine takes a while over the file: the swap lands while the job runs.
  process.env.FAKE_PROCESS_MS = '1500';
});
afterEach(async () => {
  await core?.dispose();
  core = undefined;
  rmSync(dir, { recursive: true, force: true });
  if (before === undefined) delete process.env.FAKE_PROCESS_MS;
  else process.env.FAKE_PROCESS_MS = before;
});

const options = { speechModel: null, languageCode: 'en_us', speakerLabels: false, speakersExpected: null, subtitles: 'srt' as const };

describe('host mode: subtitles beside a watched file', () => {
  it('are not written outside when the watched folder was swapped for a link out while the job ran', async () => {
    const allowed = join(dir, 'allowed');
    const inbox = join(allowed, 'inbox');
    const outside = join(dir, 'outside');
    mkdirSync(inbox, { recursive: true });
    mkdirSync(outside);
    const logged: string[] = [];
    const platform = createHostPlatform({ dataDir: join(dir, 'data'), version: 't', keyFile: join(dir, 'k', 'key') });
    platform.engine = new ForkEngineLauncher(fakeEngine);
    const prev = process.env.ASSEMBLYAI_API_KEY;
    delete process.env.ASSEMBLYAI_API_KEY;
    core = createCore(platform, () => true, {
      log: (m) => void logged.push(m),
      jobs: { pollStartMs: 100, pollCapMs: 500 },
      onlyPickedPaths: true,
      hostFolders: [allowed],
      watch: { stableMs: 100, pollMs: 30 },
    });
    if (prev !== undefined) process.env.ASSEMBLYAI_API_KEY = prev;
    const c = core;
    await call(c.router, 'watch.add', { path: inbox, options });
    const added = new Promise<string>((res) => {
      const off = c.router.subscribe((event, payload) => {
        const p = payload as { id: string; job: { status: string } | null };
        if (event === 'jobs.changed' && p.job?.status === 'queued') {
          off();
          res(p.id);
        }
      });
    });
    writeFileSync(join(inbox, 'talk.wav'), Buffer.alloc(40_000, 5));
    const id = await added;
    // Uploaded: the file itself was read. Now the watched folder leads outside.
    await new Promise<void>((res) => {
      const check = () => ['submitted', 'processing'].includes(c.jobs.get(id).status) && (off(), res());
      const off = c.router.subscribe(() => void check());
      check();
    });
    renameSync(inbox, join(allowed, 'inbox-moved'));
    symlinkSync(outside, inbox);
    expect((await waitFinal(c.jobs, id, 60_000)).status).toBe('completed');
    // The write is tried once the job completes: it either lands (outside) or is refused and logged.
    await expect.poll(() => existsSync(join(outside, 'talk.srt')) || logged.some((m) => m.includes('were not written')), { timeout: 30_000 }).toBe(true);
    expect(readdirSync(outside)).toEqual([]);
    expect(logged.find((m) => m.includes('were not written'))).toMatch(/no longer the watched folder .*not written there/);
  }, 120_000);
});
