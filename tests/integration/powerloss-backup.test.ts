/**
 * Power lost during a backup import: host mode restores a backup of 1,200
 * recordings (words, audio files, a chat, a rules profile) over its bridge and
 * is SIGKILLed after a random number of its progress events. Restarted on the
 * same data folder, the library, read through the bridge, is exactly what it
 * was before the import or exactly the complete import, never part of it; the
 * audio folder likewise. Ten kills; each restart is the host of the next round.
 */
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Library } from '../../src/main/services/library/library';
import { builtInProfiles } from '../../src/shared/subtitles/index';
import { addCompleted } from '../support/library';
import { bridgeEvent, call, killHard, seededRandom, startHost, type RunningHost } from './support/powerloss';

const dir = mkdtempSync(join(tmpdir(), 'verbatim-powerloss-backup-'));
const backupDir = join(dir, 'backup');
const KILLS = 10;
const RECORDINGS = 1200;
/** A word only the backup's transcripts hold: search finds it in all of them or in none. */
const MARK = 'zanzibarquill';

const words = (i: number, extra: string) =>
  `${extra} recording number ${i} speaks about the weather and the budget`
    .split(' ')
    .map((text, k) => ({ text, start: k * 300, end: k * 300 + 250, confidence: 0.9, speaker: null }));

/**
 * The data folder before the import (three items and a chat of the user's
 * own) and a backup that holds one of those items too (skipped) and 1,200
 * new ones, one in ten with its audio, a chat over two of them and a profile.
 */
async function makeFixtures(): Promise<{ before: string[] }> {
  const src = new Library(join(dir, 'source'));
  const dst = new Library(join(dir, 'data'));
  const audio = join(dir, 'take.wav');
  writeFileSync(audio, Buffer.alloc(16 * 1024, 7));
  const own: string[] = [];
  for (let i = 0; i < 3; i++) {
    const { recordingId } = addCompleted(dst, `mine ${i}`, words(i, 'mine'));
    own.push(recordingId);
  }
  dst.chats.create({ scope: 'recordings', recordingIds: [own[0]!], title: 'my chat', model: null });
  await dst.backup.exportAll(join(dir, 'own-backup'));
  dst.close();
  // The source has the user's first item too (same id): a backup of a shared library.
  await src.backup.importAll(join(dir, 'own-backup'));
  const fresh: string[] = [];
  for (let i = 0; i < RECORDINGS; i++) {
    const { recordingId } = addCompleted(src, `backup ${i}`, words(i, MARK));
    if (i % 10 === 0) src.audio.attach(recordingId, audio);
    fresh.push(recordingId);
  }
  src.chats.create({ scope: 'recordings', recordingIds: fresh.slice(0, 2), title: 'backup chat', model: null });
  src.subtitles.saveProfile({ ...builtInProfiles[0]!, id: 'from-backup', name: 'From the backup' });
  await src.backup.exportAll(backupDir);
  src.close();
  return { before: own };
}

interface Snapshot {
  items: string[];
  chats: string[];
  profiles: string[];
  hits: number;
  audio: string[];
}

/** The library as the app shows it: every item with its state, chats, profiles, what search finds; and the audio folder. */
async function snapshot(app: RunningHost, anyItem: string): Promise<Snapshot> {
  const items: string[] = [];
  for (let offset = 0; ; offset += 500) {
    const page = await call<{ items: { id: string; title: string; status: string }[]; total: number }>(app, 'library.list', { offset, limit: 500 });
    items.push(...page.items.map((x) => `${x.id} ${x.title} ${x.status}`));
    if (offset + 500 >= page.total) break;
  }
  const chats = (await call<{ chats: { title: string }[] }>(app, 'chat.list')).chats.map((c) => c.title);
  const doc = await call<{ profiles: { id: string }[] }>(app, 'subtitles.open', { id: anyItem });
  const search = await call<{ hits: unknown[] }>(app, 'search.query', { query: MARK, limit: 200 });
  return {
    items: items.sort(),
    chats: chats.sort(),
    profiles: doc.profiles.map((p) => p.id).sort(),
    hits: search.hits.length,
    audio: readdirSync(join(dir, 'data', 'audio')).sort(),
  };
}

let fixtures: { before: string[] };
beforeAll(async () => {
  mkdirSync(join(dir, 'data'), { recursive: true });
  fixtures = await makeFixtures();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('power lost during a backup import', () => {
  it(`leaves the library as it was or with the whole import, ${KILLS} kills out of ${KILLS}`, async () => {
    const rnd = seededRandom('powerloss-backup');
    const anyItem = fixtures.before[1]!;
    let app: RunningHost = await startHost(dir, {}, ['--folder', dir]);
    try {
      const before = await snapshot(app, anyItem);
      expect(before.items).toHaveLength(3);
      expect(before.hits).toBe(0);
      // The complete import, once, uninterrupted: what a finished import leaves (then deleted again).
      const whole = await call<{ imported: number; skipped: number }>(app, 'library.importAll', { dir: backupDir });
      expect(whole).toMatchObject({ imported: RECORDINGS, skipped: 3 });
      const complete = await snapshot(app, anyItem);
      expect(complete.hits).toBeGreaterThan(0);
      const undo = async () => {
        const mine = new Set(before.items.map((x) => x.split(' ')[0]));
        const added = complete.items.map((x) => x.split(' ')[0]!).filter((id) => !mine.has(id));
        for (let i = 0; i < added.length; i += 1000) await call(app, 'library.delete', { ids: added.slice(i, i + 1000) });
        for (const c of (await call<{ chats: { id: string; title: string }[] }>(app, 'chat.list')).chats)
          if (c.title === 'backup chat') await call(app, 'chat.delete', { id: c.id });
        await call(app, 'subtitles.deleteProfile', { profileId: 'from-backup' });
        expect(await snapshot(app, anyItem)).toEqual(before);
      };
      await undo();

      for (let i = 0; i < KILLS; i++) {
        // The condition: the import running. The kill comes with the first progress event at or past a random point of it
        // (events come at most 10 a second, so their count varies; their position does not). The last, at 100 %, comes
        // before the search rows are written, so every phase can be cut.
        const point = rnd.int(1, 100);
        app.bridge.events.length = 0;
        const killAt = bridgeEvent(app, (e) => e.event === 'library.importProgress' && (e.payload.done as number) * 100 >= point * (e.payload.total as number));
        const importing = call(app, 'library.importAll', { dir: backupDir }).catch(() => undefined);
        await killAt;
        await killHard(app.host.proc);
        await importing;

        app = await startHost(dir, {}, ['--folder', dir]);
        const after = await snapshot(app, anyItem);
        const outcome = JSON.stringify(after) === JSON.stringify(before) ? 'as before' : 'complete';
        console.log(`kill ${i + 1}: at ${point} % of the import; the library is ${outcome}`);
        expect(after, `kill ${i + 1} (at ${point} %)`).toEqual(outcome === 'as before' ? before : complete);
        if (outcome === 'complete') await undo();
      }
    } finally {
      await killHard(app.host.proc);
    }
  }, 600_000);
});
