// Commits another process makes to the library (the command line beside the app) are found by
// SQLite's data_version and told to the library's listeners; the connection's own commits are not.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { openDatabase } from '../../../../src/main/services/library/db';
import { Library, type LibraryChange } from '../../../../src/main/services/library/library';
import { addCompleted } from '../../../support/library';

let dir: string;
let app: Library;
let cli: Library;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'verbatim-outside-'));
  app = new Library(join(dir, 'data'));
  cli = new Library(join(dir, 'data'), openDatabase(join(dir, 'data', 'library.sqlite')));
});
afterEach(() => {
  cli.close();
  app.close();
  rmSync(dir, { recursive: true, force: true });
});

const word = [{ text: 'hello', start: 0, end: 300, confidence: 0.9, speaker: null }];

describe('outside changes', () => {
  it('tells the recordings another connection added or changed, once each', () => {
    const heard: LibraryChange[] = [];
    app.onChange((c) => heard.push(c));
    expect(app.outside.check()).toEqual([]);
    const { recordingId } = addCompleted(cli, 'From the command line', word);
    expect(app.outside.check()).toEqual([recordingId]);
    expect(heard.at(-1)).toEqual({ ids: [recordingId], reason: 'updated' });
    expect(app.outside.check()).toEqual([]);
    cli.recordings.rename(recordingId, 'Renamed outside');
    expect(app.outside.check()).toEqual([recordingId]);
  });

  it('tells a second change made within the same millisecond as the first', () => {
    vi.useFakeTimers({ toFake: ['Date'], now: new Date('2026-11-29T01:00:00.000Z') });
    try {
      const { recordingId } = addCompleted(cli, 'Quick', word);
      expect(app.outside.check()).toEqual([recordingId]);
      // The clock has not moved: the rename's updated_at equals the add's.
      cli.recordings.rename(recordingId, 'Quick, renamed');
      expect(app.outside.check()).toEqual([recordingId]);
      expect(app.outside.check()).toEqual([]);
    } finally {
      vi.useRealTimers();
    }
  });

  it('does not tell the connection’s own commits again', () => {
    addCompleted(app, 'Made in the app', word);
    expect(app.outside.check()).toEqual([]);
  });
});
