/**
 * The library has two connections to its database (main's, and the library
 * worker's for subtitles): a transaction that reads and then writes must not
 * fail because the other connection wrote in between (SQLite answers a
 * deferred transaction's late write with SQLITE_BUSY_SNAPSHOT, "database is
 * locked", at once and whatever busy_timeout is). Transactions begin
 * IMMEDIATE: the other writer waits for them instead.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../../../src/main/services/library/db';
import { Library } from '../../../../src/main/services/library/library';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('two connections to one library', () => {
  it("a transaction's own write succeeds when the other connection tries to write after its first read", () => {
    const dir = mkdtempSync(join(tmpdir(), 'verbatim-two-'));
    dirs.push(dir);
    const main = new Library(dir);
    const { recordingId } = main.recordings.add({
      title: 'one',
      source: 'a.mp3',
      sourceKind: 'file',
      sizeBytes: 1,
      region: 'local',
      baseUrl: null,
      options: {},
    });
    // The worker's connection, told not to wait, so that the test runs on one thread.
    const worker = openDatabase(main.dbFile);
    worker.pragma('busy_timeout = 0');
    let workerWrote: unknown = null;
    const renamed = main.transaction(() => {
      expect(main.recordings.list({}).items.map((i) => i.title)).toEqual(['one']);
      try {
        worker.prepare(`UPDATE recordings SET title = 'from the worker'`).run();
        workerWrote = true;
      } catch (err) {
        workerWrote = err;
      }
      return main.recordings.rename(recordingId, 'two');
    });
    expect(renamed.title).toBe('two');
    // The other writer was held off (it would wait busy_timeout, 5 s, in the app), not the transaction.
    expect(String(workerWrote)).toMatch(/locked|busy/i);
    expect(main.recordings.list({}).items.map((i) => i.title)).toEqual(['two']);
    worker.close();
  });
});
