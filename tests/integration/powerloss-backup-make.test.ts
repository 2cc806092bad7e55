/**
 * Power lost while making a backup: host mode backs up a library of 600
 * recordings (one in ten with 1 MB of audio) over its bridge and is
 * SIGKILLed after a random share of its progress events. Restarted on the
 * same data folder, the library is as it was (a backup only reads it), and
 * the folder the backup was being made in either restores whole or is
 * refused with nothing written: never a restore "as if whole" of a backup cut
 * short. Ten kills.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Library } from '../../src/main/services/library/library';
import { addCompleted } from '../support/library';
import { bridgeEvent, call, killHard, seededRandom, startHost, type RunningHost } from './support/powerloss';

const dir = mkdtempSync(join(tmpdir(), 'verbatim-powerloss-backup-make-'));
const KILLS = 10;
const RECORDINGS = 600;
const MARK = 'quillmarrow';

beforeAll(() => {
  const lib = new Library(join(dir, 'data'));
  const audio = join(dir, 'take.wav');
  writeFileSync(audio, Buffer.alloc(1024 * 1024, 5));
  for (let i = 0; i < RECORDINGS; i++) {
    const words = Array.from({ length: 300 }, (_, k) => ({
      text: k % 50 === 0 ? MARK : `word${k % 37}`,
      start: k * 300,
      end: k * 300 + 250,
      confidence: 0.9,
      speaker: null,
    }));
    const { recordingId } = addCompleted(lib, `meeting ${i}`, words);
    if (i % 10 === 0) lib.audio.attach(recordingId, audio);
  }
  lib.close();
  mkdirSync(join(dir, 'backups'));
}, 300_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The library as the app shows it: item count and what search finds. */
async function snapshot(app: RunningHost): Promise<{ total: number; hits: number }> {
  const page = await call<{ total: number }>(app, 'library.list', { limit: 1 });
  const search = await call<{ hits: unknown[] }>(app, 'search.query', { query: MARK, limit: 200 });
  return { total: page.total, hits: search.hits.length };
}

describe('power lost while making a backup', () => {
  it(`leaves the library as it was, and a backup that restores whole or is refused, ${KILLS} kills out of ${KILLS}`, async () => {
    const rnd = seededRandom('powerloss-backup-make');
    let app = await startHost(dir, {}, ['--folder', dir]);
    try {
      const before = await snapshot(app);
      expect(before.total).toBe(RECORDINGS);
      const outcomes: string[] = [];
      for (let i = 0; i < KILLS; i++) {
        // The last round waits for the end: the backup the app said it made restores whole.
        const point = i === KILLS - 1 ? 100 : rnd.int(1, 99);
        const folder = join(dir, 'backups', `b${i}`);
        app.bridge.events.length = 0;
        const killAt = bridgeEvent(app, (e) => e.event === 'library.exportProgress' && (e.payload.done as number) * 100 >= point * (e.payload.total as number));
        const making = call(app, 'library.exportAll', { dir: folder }).catch(() => undefined);
        await Promise.race([killAt, making]);
        await killHard(app.host.proc);
        await making;

        app = await startHost(dir, {}, ['--folder', dir]);
        expect(await snapshot(app), `kill ${i + 1}: the library`).toEqual(before);
        // The backup folder, restored into an empty library in this process.
        const restored = new Library(join(dir, `restored-${i}`));
        let outcome: string;
        try {
          const out = await restored.backup.importAll(folder);
          expect(out, `kill ${i + 1} (at ${point} %): a backup that restores restores whole`).toMatchObject({ imported: RECORDINGS, skipped: 0 });
          outcome = 'whole';
        } catch (e) {
          expect(e, `kill ${i + 1} (at ${point} %)`).toMatchObject({ code: 'file_unreadable' });
          expect(restored.recordings.list({ limit: 1 }).total, `kill ${i + 1}: nothing written`).toBe(0);
          expect(readdirSync(restored.audioDir)).toEqual([]);
          outcome = `refused (${existsSync(join(folder, 'library.json')) ? 'manifest missing' : 'no library.json yet'})`;
        }
        restored.close();
        console.log(`kill ${i + 1}: at ${point} % of making the backup; the backup is ${outcome}`);
        outcomes.push(outcome);
      }
      expect(outcomes).toHaveLength(KILLS);
    } finally {
      await killHard(app.host.proc);
    }
  }, 600_000);
});
