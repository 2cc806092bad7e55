/** Subtitle limits (issue 26, item 6): an item stored before the import limits (a 5,000-character cue, one at 999 h, in its cues and its history) opens, repaired once. */
import BetterSqlite3 from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { Library } from '../../../../src/main/services/library/library';
import { importSubtitlesAsItem } from '../../../../src/main/services/library/subtitle-import';
import { wireDoc } from '../../../../src/shared/subtitles/cue-columns';
import { subtitleDocWireSchema } from '../../../../src/shared/subtitles/wire';
import { CUE_LIMITS } from '../../../../src/shared/subtitles/limits';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'verbatim-subtitle-limits-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

it('repairs cues and history that subtitles.open could not send, and writes the repair back', () => {
  const lib = new Library(dir);
  const { id } = importSubtitlesAsItem(lib, 'ok.srt', '1\n00:00:01,000 --> 00:00:02,000\nhello\n\n2\n00:00:03,000 --> 00:00:04,000\nthere\n');
  // What an older version stored: cues no output schema accepts.
  const raw = new BetterSqlite3(join(dir, 'library.sqlite'));
  const bad = [
    { start: 1000, end: 2000, text: 'x'.repeat(5000) },
    { start: 999 * 3_600_000, end: 999 * 3_600_000 + 500, text: 'far' },
    { start: 3000, end: 400 * 3_600_000, text: 'long' },
  ];
  raw.prepare(`UPDATE cues SET data = ?`).run(JSON.stringify(bad));
  raw.prepare(`UPDATE subtitle_history SET splice = ?`).run(JSON.stringify({ at: 0, remove: [], insert: bad }));
  raw.close();
  const doc = lib.subtitles.open(id);
  expect(subtitleDocWireSchema.safeParse(wireDoc(doc)).success).toBe(true);
  expect(doc.cues.map((c) => [c.start, c.end, c.text.length])).toEqual([
    [1000, 2000, CUE_LIMITS.textChars],
    [3000, CUE_LIMITS.maxMs, 4],
  ]);
  // Written back: a second open reads the repaired rows as they are.
  const check = new BetterSqlite3(join(dir, 'library.sqlite'), { readonly: true });
  expect((JSON.parse((check.prepare(`SELECT data FROM cues`).get() as { data: string }).data) as unknown[]).length).toBe(2);
  check.close();
  expect(lib.subtitles.open(id).cues).toEqual(doc.cues);
  // The history's splice is repaired the same way, so undoing it still fits the repaired cues.
  expect(lib.subtitles.undo(id, doc.version).label).toBe(doc.undo[0]);
  expect(lib.subtitles.open(id).cues).toEqual([]);
  lib.close();
});

it('imports what would not read back, fitted, with a problem for each change', () => {
  const lib = new Library(dir);
  const content = `1\n00:00:01,000 --> 00:00:02,000\n${'y'.repeat(3000)}\n\n2\n999:00:00,000 --> 999:00:01,000\nfar\n\n3\n00:00:05,000 --> 00:00:06,000\n${'z '.repeat(5_000_000)}\n`;
  const r = importSubtitlesAsItem(lib, 'odd.srt', content);
  expect(r.cues).toBeGreaterThanOrEqual(2);
  expect(r.problems.map((p) => p.message).join(' ')).toMatch(/cut to 2,000|cut to 20,000/);
  const doc = lib.subtitles.open(r.id);
  expect(subtitleDocWireSchema.safeParse(wireDoc(doc)).success).toBe(true);
  expect(doc.cues.every((c) => c.text.length <= CUE_LIMITS.textChars && c.end <= CUE_LIMITS.maxMs)).toBe(true);
  lib.close();
});
