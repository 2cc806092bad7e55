/**
 * Power lost during Fix everywhere and its Undo, which run a few transcripts
 * per transaction (journaled, fix-store.ts): host mode fixes "Phebe" →
 * "Phoebe" in 60 transcripts of 2,000 words over its bridge and is SIGKILLed
 * after a random share of its progress events (odd rounds: during the Undo of
 * a finished fix). Restarted on the same data folder, every transcript reads
 * as before the fix or every one as after it, never a mix. Ten kills.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Library } from '../../src/main/services/library/library';
import { addCompleted } from '../support/library';
import { bridgeEvent, call, killHard, seededRandom, startHost, type RunningHost } from './support/powerloss';

const dir = mkdtempSync(join(tmpdir(), 'verbatim-powerloss-fix-'));
const KILLS = 10;
const TRANSCRIPTS = 60;
const WORDS = 2000;
/** Each transcript says the name this often. */
const EVERY = 100;

beforeAll(() => {
  const lib = new Library(join(dir, 'data'));
  for (let i = 0; i < TRANSCRIPTS; i++) {
    const words = Array.from({ length: WORDS }, (_, k) => ({
      text: k % EVERY === 7 ? 'Phebe,' : `word${(k * 7 + i) % 53}${k % 15 === 14 ? '.' : ''}`,
      start: k * 300,
      end: k * 300 + 250,
      confidence: 0.9,
      speaker: null,
    }));
    addCompleted(lib, `meeting ${i}`, words);
  }
  lib.close();
}, 300_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** How many transcripts read the old name and how many the new one (all of their mentions). */
async function state(app: RunningHost): Promise<{ old: number; fixed: number }> {
  const old = await call<{ matches: { count: number }[] }>(app, 'vocabulary.fixFind', { from: 'Phebe', limit: 500 });
  const fixed = await call<{ matches: { count: number }[] }>(app, 'vocabulary.fixFind', { from: 'Phoebe', limit: 500 });
  // A transcript half fixed would show here as a count below WORDS / EVERY.
  for (const m of [...old.matches, ...fixed.matches]) expect(m.count).toBe(WORDS / EVERY);
  return { old: old.matches.length, fixed: fixed.matches.length };
}

describe('power lost during Fix everywhere and its Undo', () => {
  it(`leaves every transcript as before or every one fixed, ${KILLS} kills out of ${KILLS}`, async () => {
    const rnd = seededRandom('powerloss-fix');
    let app = await startHost(dir);
    const before = { old: TRANSCRIPTS, fixed: 0 };
    const after = { old: 0, fixed: TRANSCRIPTS };
    try {
      expect(await state(app)).toEqual(before);
      for (let i = 0; i < KILLS; i++) {
        const point = rnd.int(1, 100);
        const undoing = i % 2 === 1;
        const ids = (await call<{ matches: { recordingId: string }[] }>(app, 'vocabulary.fixFind', { from: 'Phebe', limit: 500 })).matches.map(
          (m) => m.recordingId,
        );
        let batchId = '';
        if (undoing) batchId = (await call<{ batchId: string }>(app, 'vocabulary.fixApply', { from: 'Phebe', to: 'Phoebe', recordingIds: ids })).batchId;
        app.bridge.events.length = 0;
        const killAt = bridgeEvent(app, (e) => e.event === 'vocabulary.fixProgress' && (e.payload.done as number) * 100 >= point * (e.payload.total as number));
        const running = (
          undoing ? call(app, 'vocabulary.fixUndo', { batchId }) : call(app, 'vocabulary.fixApply', { from: 'Phebe', to: 'Phoebe', recordingIds: ids })
        ).catch(() => undefined);
        await killAt;
        await killHard(app.host.proc);
        await running;

        app = await startHost(dir);
        const now = await state(app);
        const outcome = JSON.stringify(now) === JSON.stringify(before) ? 'as before' : 'fixed';
        console.log(`kill ${i + 1}: at ${point} % of the ${undoing ? 'Undo' : 'fix'}; the library is ${outcome}`);
        expect(now, `kill ${i + 1} (at ${point} % of the ${undoing ? 'Undo' : 'fix'})`).toEqual(outcome === 'as before' ? before : after);
        // Back to the start for the next round: a finished fix is put back by fixing the other way.
        if (outcome === 'fixed') {
          const fixed = await call<{ matches: { recordingId: string }[] }>(app, 'vocabulary.fixFind', { from: 'Phoebe', limit: 500 });
          await call(app, 'vocabulary.fixApply', { from: 'Phoebe', to: 'Phebe', recordingIds: fixed.matches.map((m) => m.recordingId) });
          expect(await state(app)).toEqual(before);
        }
      }
    } finally {
      await killHard(app.host.proc);
    }
  }, 600_000);
});
