// The notes folder on a real library and a real folder: a note per finished transcript, rewritten on
// a speaker rename, a title rename and a new summary; a note the user edited is never overwritten
// (Verbatim's update goes beside it); deleting a recording leaves its note; host mode refuses a
// folder outside --folder, also through a link.
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import type { NotesStatus } from '../../../../src/shared/ipc/notes';
import { Library } from '../../../../src/main/services/library/library';
import { NotesSync } from '../../../../src/main/services/notes/sync';
import type { Word } from '../../../../src/shared/library';
import { addCompleted } from '../../../support/library';

let dir: string;
let lib: Library;
let sync: NotesSync;
let notes: string;
const statuses: NotesStatus[] = [];

function words(): Word[] {
  return ['Hello', 'from', 'the', 'team.'].map((text, i) => ({ text, start: i * 400, end: i * 400 + 300, confidence: 0.9, speaker: i < 2 ? 'A' : 'B' }));
}

function make(allowsFolder: (real: string) => boolean = () => true): NotesSync {
  return new NotesSync({ library: lib, dataDir: join(dir, 'data'), allowsFolder, changed: (s) => statuses.push(s), log: () => undefined, periodMs: 3_600_000 });
}

const files = () => readdirSync(notes).sort();
const read = (name: string) => readFileSync(join(notes, name), 'utf8');
const front = (md: string) => parse(/^---\n([\s\S]*?)\n---\n/.exec(md)![1]!) as Record<string, unknown>;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'verbatim-notes-'));
  notes = join(dir, 'vault', 'Meetings');
  mkdirSync(notes, { recursive: true });
  lib = new Library(join(dir, 'data'));
  statuses.length = 0;
});
afterEach(async () => {
  await sync?.dispose();
  lib.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('notes folder', () => {
  it('writes each finished transcript as a note and rewrites it after renames and a new summary', async () => {
    const { recordingId, transcriptId } = addCompleted(lib, 'Standup: "daily"', words());
    const date = lib.recordings.item(recordingId).createdAt.slice(0, 10);
    sync = make();
    await sync.setFolder(notes);
    const first = `${date} Standup  daily .md`.replace('  daily ', ' daily');
    expect(files()).toEqual([first]);
    expect(front(read(first))).toMatchObject({ title: 'Standup: "daily"', speakers: ['Speaker A', 'Speaker B'] });
    expect(sync.status()).toMatchObject({ folder: notes, notes: 1, kept: [], problem: null });

    lib.edits.renameSpeaker(recordingId, 'B', 'Bea: lead');
    await sync.pass();
    expect(read(first)).toContain('**Bea: lead:** the team.');

    lib.insights.save(transcriptId, '', 'test', { kind: 'summary', bullets: ['We said hello.'] });
    await sync.pass();
    expect(read(first)).toContain('## Summary\n\n- We said hello.');

    lib.recordings.rename(recordingId, 'Weekly sync');
    await sync.pass();
    expect(files()).toEqual([`${date} Weekly sync.md`]);
    expect(front(read(`${date} Weekly sync.md`)).title).toBe('Weekly sync');

    // Deleting the recording leaves its note.
    lib.recordings.delete([recordingId]);
    await sync.pass();
    expect(files()).toEqual([`${date} Weekly sync.md`]);
  });

  it('never overwrites a note the user edited: the update goes beside it, and the status says so', async () => {
    const { recordingId } = addCompleted(lib, 'Plan', words());
    const date = lib.recordings.item(recordingId).createdAt.slice(0, 10);
    sync = make();
    await sync.setFolder(notes);
    const note = `${date} Plan.md`;
    const edited = `${read(note)}\nMy own thoughts.\n`;
    writeFileSync(join(notes, note), edited);
    lib.edits.renameSpeaker(recordingId, 'A', 'Ana');
    await sync.pass();
    expect(read(note)).toBe(edited);
    const copy = `${date} Plan (update from Verbatim).md`;
    expect(files()).toEqual([copy, note]);
    expect(read(copy)).toContain('**Ana:** Hello from');
    expect(sync.status().kept).toEqual([{ note, copy }]);
    expect(statuses.at(-1)?.kept).toEqual([{ note, copy }]);
    // Later changes keep going to the copy; the user's note stays as they left it. No temporary files remain.
    lib.edits.renameSpeaker(recordingId, 'A', 'Ana Lopez');
    await sync.pass();
    expect(read(note)).toBe(edited);
    expect(read(copy)).toContain('**Ana Lopez:**');
    expect(files()).toEqual([copy, note]);
  });

  it('gives two recordings with the same date and title their own notes, and a new sync on restart picks up what changed', async () => {
    const a = addCompleted(lib, 'Call', words());
    addCompleted(lib, 'Call', words());
    sync = make();
    await sync.setFolder(notes);
    const date = lib.recordings.item(a.recordingId).createdAt.slice(0, 10);
    expect(files()).toEqual([`${date} Call (2).md`, `${date} Call.md`]);
    await sync.dispose();
    lib.edits.renameSpeaker(a.recordingId, 'A', 'Kim');
    sync = make();
    expect(sync.status().notes).toBe(2);
    await sync.pass();
    expect(read(`${date} Call.md`)).toContain('**Kim:**');
  });

  it('in host mode refuses a folder outside --folder, also through a link, and a path that is not a folder', async () => {
    const allowed = join(dir, 'vault');
    sync = make((real) => real === allowed || real.startsWith(`${allowed}/`));
    const outside = join(dir, 'elsewhere');
    mkdirSync(outside);
    await expect(sync.setFolder(outside)).rejects.toMatchObject({ code: 'forbidden' });
    symlinkSync(outside, join(allowed, 'link-out'));
    await expect(sync.setFolder(join(allowed, 'link-out'))).rejects.toThrow(/through a link/);
    await expect(sync.setFolder('relative/notes')).rejects.toThrow(/full path/);
    await expect(sync.setFolder(join(allowed, 'missing'))).rejects.toThrow(/not a folder/);
    expect((await sync.setFolder(notes)).folder).toBe(notes);
    expect((await sync.setFolder(null)).folder).toBeNull();
  });
});
