/**
 * The command line opens the library as a guest beside the app (core.ts `guest`): a backup restore
 * the app is running (its import journal not yet cleared) is left alone, where an owner opening the
 * library undoes it as a crash-cut import.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCore } from '../../src/main/core';
import { createHostPlatform } from '../../src/main/platform/host';
import { journalWriter } from '../../src/main/services/library/backup-journal';
import { openDatabase } from '../../src/main/services/library/db';
import { Library } from '../../src/main/services/library/library';
import { addCompleted } from '../support/library';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'verbatim-guest-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('the command line as a guest on the app’s library', () => {
  it('leaves a restore in progress alone', async () => {
    const data = join(dir, 'data');
    // The app's connection, in the middle of a restore: one recording added and journaled, the journal not yet cleared.
    const app = new Library(data);
    const { recordingId } = addCompleted(app, 'Restored so far', [{ text: 'hello', start: 0, end: 300, confidence: 0.9, speaker: null }]);
    const db = openDatabase(join(data, 'library.sqlite'));
    journalWriter(db)('recording', recordingId);
    const platform = createHostPlatform({ dataDir: data, version: 't', keyFile: join(dir, 'keys', 'k') });
    const guest = createCore(platform, () => false, { guest: true, log: () => undefined });
    try {
      expect(guest.library.recordings.item(recordingId).title).toBe('Restored so far');
      expect((db.prepare('SELECT count(*) AS n FROM import_journal').get() as { n: number }).n).toBe(1);
    } finally {
      await guest.dispose();
    }
    // An owner opening the library finds an import cut short, and undoes it.
    db.close();
    app.close();
    const owner = new Library(data);
    try {
      expect(() => owner.recordings.item(recordingId)).toThrow();
    } finally {
      owner.close();
    }
  });
});
