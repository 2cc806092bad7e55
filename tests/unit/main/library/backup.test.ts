/**
 * Restoring a backup is reading untrusted input (issue 12.4): columns come
 * from the schema, audio names are the library's own, every path stays in the
 * library folder, and a recording's original path is never imported.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Library } from '../../../../src/main/services/library/library';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'verbatim-backup-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const RID = '0b6f0b52-5f0e-4a4e-9a57-2d7c5a1f0001';
const TID = '0b6f0b52-5f0e-4a4e-9a57-2d7c5a1f0002';

function backup(recording: Record<string, unknown>, files: Record<string, string> = {}): string {
  const b = join(dir, 'backup');
  mkdirSync(join(b, 'audio'), { recursive: true });
  for (const [name, content] of Object.entries(files)) writeFileSync(join(b, 'audio', name), content);
  const now = '2026-01-01T00:00:00.000Z';
  writeFileSync(
    join(b, 'library.json'),
    JSON.stringify({
      format: 'verbatim-library',
      version: 1,
      tables: {
        recordings: [{ id: RID, title: 'Restored', source: 'x.wav', source_kind: 'file', created_at: now, updated_at: now, ...recording }],
        transcripts: [{ id: TID, recording_id: RID, region: 'local', status: 'completed', text: 'hello', created_at: now, sentences: '[]', paragraphs: '[]' }],
        tags: [{ recording_id: RID, name: 'kept' }],
      },
    }),
  );
  return b;
}

describe('backup import', () => {
  it('takes column names from the schema and ignores keys that are not columns (no SQL from the file)', () => {
    const lib = new Library(join(dir, 'lib'));
    const b = backup({ "title) VALUES ('x', 'y', 'z', 'w', 'v', 'u'); DROP TABLE tags; --": 1, not_a_column: 'ignored' });
    expect(lib.backup.importAll(b)).toEqual({ imported: 1, skipped: 0 });
    expect(lib.recordings.item(RID)).toMatchObject({ title: 'Restored', tags: ['kept'] });
    expect(lib.recordings.tags()).toEqual([{ name: 'kept', count: 1 }]);
    lib.close();
  });

  it('refuses audio names the library does not make: nothing is written outside the library, and delete removes nothing outside it', () => {
    const lib = new Library(join(dir, 'lib'));
    const outside = join(dir, 'outside.txt');
    writeFileSync(outside, 'not yours');
    const b = backup({ audio_file: '../../outside.txt', redacted_audio_file: `../${RID}.redacted.mp3` });
    lib.backup.importAll(b);
    expect(lib.audio.path(RID)).toBeNull();
    expect(lib.audio.path(RID, 'redacted')).toBeNull();
    expect(lib.recordings.item(RID).hasAudio).toBe(false);
    expect(readdirSync(join(dir, 'lib', 'audio'))).toEqual([]);
    lib.recordings.delete([RID]);
    expect(readFileSync(outside, 'utf8')).toBe('not yours');
    lib.close();
  });

  it('never imports original_path, so audioPath cannot answer a file elsewhere on this machine', () => {
    const lib = new Library(join(dir, 'lib'));
    const elsewhere = join(dir, 'secret.wav');
    writeFileSync(elsewhere, 'private');
    lib.backup.importAll(backup({ original_path: elsewhere }));
    expect(lib.audio.path(RID)).toBeNull();
    expect(lib.recordings.item(RID).hasAudio).toBe(false);
    lib.close();
  });

  it('copies audio the library named itself, into the library folder', () => {
    const lib = new Library(join(dir, 'lib'));
    lib.backup.importAll(backup({ audio_file: `${RID}.wav` }, { [`${RID}.wav`]: 'RIFF' }));
    expect(lib.audio.path(RID)).toBe(join(dir, 'lib', 'audio', `${RID}.wav`));
    expect(existsSync(join(dir, 'lib', 'audio', `${RID}.wav`))).toBe(true);
    lib.close();
  });

  it('answers a clear error for a backup that is not one, and skips rows with values SQLite cannot hold', () => {
    const lib = new Library(join(dir, 'lib'));
    mkdirSync(join(dir, 'junk'));
    writeFileSync(join(dir, 'junk', 'library.json'), JSON.stringify({ format: 'verbatim-library', tables: 7 }));
    expect(() => lib.backup.importAll(join(dir, 'junk'))).toThrow(/not a Verbatim library backup/);
    expect(lib.backup.importAll(backup({ title: { nested: true } }))).toEqual({ imported: 0, skipped: 1 });
    lib.close();
  });
});
