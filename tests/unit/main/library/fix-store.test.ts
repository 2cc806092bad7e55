/**
 * Fix everywhere at real size: the fix, its Undo and the find run between
 * turns of the event loop (they held it for seconds in one transaction), stay
 * one action (one Undo brings every word back), and a fix a crash cut short
 * is undone when the library next opens.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Library } from '../../../../src/main/services/library/library';
import { FixStore } from '../../../../src/main/services/library/fix-store';
import type { Database } from '../../../../src/main/services/library/db';
import { VocabularyService } from '../../../../src/main/services/vocabulary/service';
import { defaultSettings } from '../../../../src/shared/settings';
import { addCompleted } from '../../../support/library';

const TRANSCRIPTS = 30;
const WORDS = 2000;
const EVERY = 100;

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'verbatim-fix-store-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function seeded(at: string): { lib: Library; ids: string[] } {
  const lib = new Library(at);
  const ids: string[] = [];
  for (let i = 0; i < TRANSCRIPTS; i++) {
    const words = Array.from({ length: WORDS }, (_, k) => ({
      text: k % EVERY === 7 ? 'Phebe,' : `word${(k * 7 + i) % 53}${k % 15 === 14 ? '.' : ''}`,
      start: k * 300,
      end: k * 300 + 250,
      confidence: 0.9,
      speaker: null,
    }));
    ids.push(addCompleted(lib, `meeting ${i}`, words).recordingId);
  }
  return { lib, ids };
}

/** The library's own connection (private to it; a test reaches in to stand for a failing disk or a kill). */
const dbOf = (lib: Library) => (lib as unknown as { db: Database }).db;

/** Counts turns of the event loop while `work` runs. */
async function turnsDuring<T>(work: () => Promise<T>): Promise<{ value: T; turns: number }> {
  let turns = 0;
  let on = true;
  const tick = () => {
    if (!on) return;
    turns++;
    setImmediate(tick);
  };
  setImmediate(tick);
  const value = await work();
  on = false;
  return { value, turns };
}

const names = (lib: Library, ids: string[]) => {
  const all = ids.flatMap((id) =>
    lib.transcripts
      .get(id)
      .words.filter((w) => /^Ph/.test(w.text))
      .map((w) => w.text),
  );
  return { old: all.filter((t) => t === 'Phebe,').length, fixed: all.filter((t) => t === 'Phoebe,').length };
};

describe('Fix everywhere over many long transcripts', () => {
  it('finds, fixes and undoes between turns of the event loop, as one action that one Undo brings back', async () => {
    const { lib, ids } = seeded(join(dir, 'lib'));
    const vocabulary = new VocabularyService(lib, { get: () => defaultSettings, set: () => undefined });
    const found = await turnsDuring(() => vocabulary.find('Phebe', 500));
    expect(found.value.matches).toHaveLength(TRANSCRIPTS);
    const progress: { done: number; total: number }[] = [];
    const applied = await turnsDuring(() => vocabulary.apply('Phebe', 'Phoebe', ids, (p) => progress.push(p)));
    expect(applied.value).toMatchObject({ recordings: TRANSCRIPTS, words: TRANSCRIPTS * (WORDS / EVERY) });
    // In one synchronous transaction (before) the loop did not turn once until the whole fix was written.
    expect(applied.turns).toBeGreaterThan(1);
    expect(progress.at(-1)).toEqual({ done: TRANSCRIPTS, total: TRANSCRIPTS });
    expect(names(lib, ids)).toEqual({ old: 0, fixed: TRANSCRIPTS * (WORDS / EVERY) });

    const undone = await turnsDuring(() => vocabulary.undo(applied.value.batchId));
    expect(undone.value).toEqual({ recordings: TRANSCRIPTS, words: TRANSCRIPTS * (WORDS / EVERY) });
    expect(undone.turns).toBeGreaterThan(1);
    expect(names(lib, ids)).toEqual({ old: TRANSCRIPTS * (WORDS / EVERY), fixed: 0 });
    await expect(vocabulary.undo(applied.value.batchId)).rejects.toMatchObject({ code: 'not_found' });
    lib.close();
  });

  it('a fix that fails part-way takes back what it changed', async () => {
    const { lib, ids } = seeded(join(dir, 'lib'));
    let writes = 0;
    // The library's own connection, with a write that fails at the 10th recording (a full disk).
    const failing = new FixStore(dbOf(lib), {
      transcript: (r) => lib.transcripts.get(r),
      correctWords: (r, e) => {
        if (++writes === 10) throw new Error('disk full');
        return lib.edits.correctWords(r, e);
      },
    });
    await expect(failing.apply(ids, (w) => (w === 'Phebe,' ? 'Phoebe,' : null))).rejects.toThrow('disk full');
    expect(names(lib, ids)).toEqual({ old: TRANSCRIPTS * (WORDS / EVERY), fixed: 0 });
    lib.close();
  });

  it('a fix a crash cut short is undone when the library opens again; a finished one stays', async () => {
    const at = join(dir, 'lib');
    const { lib, ids } = seeded(at);
    expect((await lib.fixes.apply(ids.slice(0, 5), (w) => (w === 'Phebe,' ? 'Phoebe,' : null))).recordings).toBe(5);
    const cut = lib.fixes.apply(ids.slice(5), (w) => (w === 'Phebe,' ? 'Phoebe,' : null));
    await new Promise((r) => setImmediate(r));
    // Stopped here as a kill would stop it: the connection goes between two slices, the fix unfinished.
    dbOf(lib).close();
    await cut.catch(() => undefined);
    const raw = new BetterSqlite3(join(at, 'library.sqlite'));
    expect((raw.prepare(`SELECT state FROM fix_batches`).all() as { state: string }[]).map((b) => b.state)).toContain('applying');
    expect(
      (raw.prepare(`SELECT count(*) AS n FROM fix_batch_words fw JOIN fix_batches b ON b.id = fw.batch_id WHERE b.state = 'applying'`).get() as { n: number })
        .n,
    ).toBeGreaterThan(0);
    raw.close();

    const reopened = new Library(at);
    // The finished fix (the first five) stays; the one cut short is gone whole.
    expect(names(reopened, ids.slice(0, 5))).toEqual({ old: 0, fixed: 5 * (WORDS / EVERY) });
    expect(names(reopened, ids.slice(5))).toEqual({ old: (TRANSCRIPTS - 5) * (WORDS / EVERY), fixed: 0 });
    reopened.close();
  });
});
