/**
 * Power lost while a watch folder takes files: host mode (a real child process, started with --folder)
 * watches a folder; each round copies in a few files and is SIGKILLed as soon as the first of them
 * becomes a job, with the others mid-intake. Restarted on the same data folder and --folder (the folder
 * is watched again at once), every file copied in ends up with exactly one job: none lost, none twice.
 * Ten kills; each restart is the host of the next round.
 */
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { bridgeEvent, call, killHard, seededRandom, startHost, type RunningHost } from './support/powerloss';

const dir = mkdtempSync(join(tmpdir(), 'verbatim-powerloss-watch-'));
const inbox = join(dir, 'inbox');
const KILLS = 10;
// A file is taken once it held still for 300 ms (host mode's test knob) instead of 3 s: each round waits that long for its
// batch, and the kill still lands as the first of the batch becomes a job with the rest being taken.
const env = { VERBATIM_ENGINE_ENTRY: resolve('tests/unit/main/support/fake-engine-cli.ts'), VERBATIM_TEST_WATCH_STABLE_MS: '300' };
const options = { speechModel: null, languageCode: null, speakerLabels: false, speakersExpected: null, subtitles: 'none' as const };

afterAll(() => rmSync(dir, { recursive: true, force: true }));

const start = () => startHost(dir, env, ['--folder', inbox]);
const names = async (app: RunningHost) =>
  (await call<{ jobs: { name: string }[] }>(app, 'jobs.list', { includeFinished: true, limit: 1000 })).jobs.map((j) => j.name);

describe('power lost while a watch folder takes files', () => {
  it(`loses no file and takes none twice, ${KILLS} kills out of ${KILLS}`, async () => {
    mkdirSync(inbox);
    const rnd = seededRandom('powerloss-watch');
    const sample = join(dir, 'sample.wav');
    writeFileSync(sample, Buffer.alloc(8192, 1));
    let app = await start();
    await call(app, 'watch.add', { path: inbox, options });
    const copied: string[] = [];
    try {
      for (let round = 0; round < KILLS; round++) {
        const count = rnd.int(3, 6);
        const batch = Array.from({ length: count }, (_, i) => `round-${round}-${i}.wav`);
        // The first job of this round: the kill lands while the others are being taken.
        const first = bridgeEvent(
          app,
          (e) =>
            e.event === 'jobs.changed' &&
            typeof (e.payload.job as { name?: string } | null)?.name === 'string' &&
            batch.includes((e.payload.job as { name: string }).name),
          120_000,
        );
        for (const name of batch) cpSync(sample, join(inbox, name));
        copied.push(...batch);
        await first;
        await killHard(app.host.proc);
        app = await start();
      }
      // The last restart takes whatever the kills left untaken; then each file has exactly one job.
      await expect.poll(async () => (await names(app)).filter((n) => copied.includes(n)).length, { timeout: 180_000, interval: 500 }).toBe(copied.length);
      const taken = (await names(app)).filter((n) => copied.includes(n)).sort();
      expect(taken).toEqual([...copied].sort());
      const folders = (await call<{ folders: { taken: number; problem: string | null }[] }>(app, 'watch.list')).folders;
      expect(folders).toMatchObject([{ taken: copied.length, problem: null }]);
    } finally {
      await app.host.stop();
    }
  }, 600_000);
});
