import { addCompleted as addTranscript, commitCueEdit } from '../../../support/library';
import BetterSqlite3 from 'better-sqlite3';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Router } from '../../../../src/main/ipc/router';
import { registerSubtitleHandlers } from '../../../../src/main/ipc/subtitles';
import type { FileDialogs } from '../../../../src/main/platform/types';
import { Library } from '../../../../src/main/services/library/library';
import { ExportSaver } from '../../../../src/main/services/library/export-files';
import { PickedFiles } from '../../../../src/main/services/files/picked';
import { UserFiles } from '../../../../src/main/services/files/refs';
import { StagedUploads } from '../../../../src/main/services/files/staged';
import { importSubtitlesAsItem } from '../../../../src/main/services/library/subtitle-import';
import { buildCuesWith, builtInProfiles, commands, parseSubtitles, type Cue, type EditorState } from '../../../../src/shared/subtitles/index';

let dir: string;
let lib: Library;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'verbatim-subtitles-'));
  lib = new Library(join(dir, 'data'));
});
afterEach(() => {
  lib.close();
  rmSync(dir, { recursive: true, force: true });
});

const speech =
  'Welcome to the quarterly review. We will look at the market, the budget and the product launch. Then the design team will answer questions about the schedule.';

function addCompleted(title = 'Review', text = speech, speakers = false): string {
  const words = text
    .split(' ')
    .map((t, i) => ({ text: t, start: 300 + i * 350, end: 300 + i * 350 + 300, confidence: 0.9, speaker: speakers ? (i < 5 ? 'A' : 'B') : null }));
  const { recordingId } = addTranscript(lib, title, words, { remoteId: `r-${title}`, durationMs: 20_000, sizeBytes: 10 });
  return recordingId;
}

/** Runs a command on the stored document and commits its splice, as the view does. */
function edit<A>(
  id: string,
  cmd: { name: string; perform(s: EditorState, a: A): { cues: Cue[] } | null },
  arg: A,
  selection = [0],
  caret: number | null = null,
): Cue[] {
  return commitCueEdit(lib, id, cmd, arg, selection, caret);
}

describe('subtitle store', () => {
  it('opens a never-edited transcript as cues built from its words by the Netflix-like profile', () => {
    const id = addCompleted();
    const doc = lib.subtitles.open(id);
    expect(doc).toMatchObject({ version: 0, edited: false, profileId: 'netflix', undo: [], redo: [] });
    expect(doc.cues).toEqual(buildCuesWith(lib.transcripts.get(id).words, builtInProfiles[0]!));
    expect(doc.profiles.map((p) => p.id)).toEqual(['netflix', 'social', 'lenient']);
  });

  it('a word changed in a cue corrects the word: transcript, search and every export follow; undo takes it back', async () => {
    const id = addCompleted();
    const before = lib.subtitles.open(id).cues[1]!;
    expect(before.text).toContain('budget');
    edit(id, commands.editText, { index: 1, text: before.text.replace('budget', 'forecast') });
    const t = lib.transcripts.get(id);
    const at = t.words.findIndex((w) => w.text === 'forecast');
    expect(t.words[at]).toMatchObject({ text: 'forecast', original: 'budget' });
    expect(lib.search.search('forecast').map((h) => h.recordingId)).toEqual([id]);
    expect(lib.search.search('budget')).toEqual([]);
    for (const format of ['srt', 'vtt', 'txt', 'json'] as const) expect((await lib.exports.file(id, format)).content).toContain('forecast');
    const docx = await lib.exports.file(id, 'docx');
    expect(docx.encoding).toBe('base64');
    expect(unzipText(Buffer.from(docx.content, 'base64'))).toContain('forecast');
    expect(lib.exports.render(id, 'srt').content).toContain('forecast');

    // Undo, from a library opened again: the history was stored, not kept in memory.
    lib.close();
    lib = new Library(join(dir, 'data'));
    const doc = lib.subtitles.open(id);
    expect(doc.undo).toEqual(['Edit text']);
    const r = lib.subtitles.undo(id, doc.version);
    expect(r.label).toBe('Edit text');
    expect(lib.transcripts.get(id).words[at]!.text).toBe('budget');
    expect(lib.transcripts.get(id).words[at]!.original ?? null).toBeNull();
    expect(lib.search.search('budget').map((h) => h.recordingId)).toEqual([id]);
    expect(lib.subtitles.open(id).cues[1]!.text).toBe(before.text);
    // And redo.
    lib.subtitles.redo(id, r.version);
    expect(lib.transcripts.get(id).words[at]!.text).toBe('forecast');
    expect(lib.subtitles.open(id).redo).toEqual([]);
  });

  it('a word corrected in the transcript view appears in the edited cues', () => {
    const id = addCompleted();
    edit(id, commands.split, undefined, [0], 8);
    const idx = lib.transcripts.get(id).words.findIndex((w) => w.text === 'market,');
    lib.edits.correctWords(id, [{ index: idx, text: 'markets,' }]);
    expect(
      lib.subtitles
        .open(id)
        .cues.map((c) => c.text)
        .join(' '),
    ).toContain('markets,');
    expect(lib.exports.render(id, 'vtt').content).toContain('markets,');
  });

  it('keeps a cue rewritten beyond one word per word as cue text, and puts it in SRT, VTT, TXT and DOCX', async () => {
    const id = addCompleted();
    const cue = lib.subtitles.open(id).cues[0]!;
    edit(id, commands.editText, { index: 0, text: 'Hello and welcome.' });
    expect((await lib.exports.file(id, 'srt')).content).toContain('Hello and welcome.');
    expect((await lib.exports.file(id, 'txt')).content).toMatch(/^Hello and welcome\. We will look/);
    expect(unzipText(Buffer.from((await lib.exports.file(id, 'docx')).content, 'base64'))).toContain('Hello and welcome.');
    // The words themselves are untouched.
    expect(
      lib.transcripts
        .get(id)
        .words.slice(cue.words![0], cue.words![1] + 1)
        .map((w) => w.text)
        .join(' '),
    ).toBe('Welcome to the quarterly review.');
  });

  it('refuses an edit made on an older version, and one that does not fit the stored cues', () => {
    const id = addCompleted();
    const doc = lib.subtitles.open(id);
    edit(id, commands.delete, undefined);
    expect(() => lib.subtitles.save(id, doc.version, 'stale', { at: 0, remove: [doc.cues[0]!], insert: [] })).toThrow(/changed in another window/);
    const now = lib.subtitles.open(id);
    expect(() => lib.subtitles.save(id, now.version, 'bad', { at: 0, remove: [{ start: 1, end: 2, text: 'nope' }], insert: [] })).toThrow(/no longer matches/);
  });

  it('keeps at most 500 history entries', () => {
    const id = addCompleted();
    for (let i = 0; i < 505; i++) edit(id, commands.shiftAllLater, undefined);
    // Read the file as another process would: the library keeps its handle to itself.
    const probe = new BetterSqlite3(join(dir, 'data', 'library.sqlite'), { readonly: true });
    const n = (probe.prepare(`SELECT count(*) AS n FROM subtitle_history`).get() as { n: number }).n;
    probe.close();
    expect(n).toBe(500);
  });

  it('saves and deletes user profiles; built-in ones cannot be replaced', () => {
    const mine = { ...builtInProfiles[0]!, id: 'mine', name: 'Kids', maxCharsPerLine: 32 };
    expect(lib.subtitles.saveProfile(mine).map((p) => p.id)).toContain('mine');
    expect(() => lib.subtitles.saveProfile({ ...mine, id: 'netflix' })).toThrow(/built-in/);
    const id = addCompleted();
    lib.subtitles.setProfile(id, 'mine');
    expect(lib.subtitles.open(id).profileId).toBe('mine');
    expect(lib.subtitles.open(id).cues.every((c) => c.text.split('\n').every((l) => l.length <= 32))).toBe(true);
    expect(lib.subtitles.deleteProfile('mine').map((p) => p.id)).not.toContain('mine');
  });

  it('computes waveform peaks with ffmpeg once and stores them with the recording', async () => {
    const id = addCompleted();
    const wav = join(dir, 'talk.wav');
    execFileSync('flite', ['-voice', 'slt', '-t', 'Welcome to the quarterly review.', '-o', wav]);
    lib.audio.attach(id, wav);
    const p = await lib.subtitles.peaks(id, lib.subtitles.audioOf(id));
    const bytes = Buffer.from(p.data, 'base64');
    expect(p.rate).toBe(50);
    expect(bytes.length).toBe(Math.ceil(p.durationMs / 20));
    expect(Math.max(...new Int8Array(bytes.buffer, bytes.byteOffset, bytes.length))).toBeGreaterThan(20);
    // Stored: a second call reads the library even with the audio gone.
    expect(await lib.subtitles.peaks(id, null)).toEqual(p);
    await expect(lib.subtitles.peaks(addCompleted('No audio'), null)).rejects.toThrow(/no audio/);
  });

  it('imports an SRT file as a new item that reads, searches and exports like a transcript', async () => {
    const srt = readFileSync(join(import.meta.dirname, '../../../fixtures/subtitles/dot-ms-tags.srt'), 'utf8');
    const r = importSubtitlesAsItem(lib, 'clip.srt', srt);
    expect(r).toMatchObject({ cues: 3, problems: [] });
    expect(lib.transcripts.get(r.id).item).toMatchObject({ title: 'clip', status: 'completed' });
    expect(lib.search.search('milliseconds').map((h) => h.recordingId)).toEqual([r.id]);
    const out = await lib.exports.file(r.id, 'srt');
    expect(parseSubtitles(out.content).doc.cues.map((c) => [c.start, c.end, c.text])).toEqual(
      parseSubtitles(srt).doc.cues.map((c) => [c.start, c.end, c.text]),
    );
    expect(() => importSubtitlesAsItem(lib, 'junk.srt', 'nothing here')).toThrow(/junk\.srt has no cue Verbatim could read/);
  });

  it('saves an export through the dialog by writing a temporary file and renaming it', async () => {
    const id = addCompleted();
    const target = join(dir, 'out.srt');
    const dialogs: FileDialogs = { saveFile: async () => target, pickFolder: async () => null, reveal: () => undefined };
    const saver = new ExportSaver(lib, dialogs);
    expect(await saver.save([id], 'srt', {}, 'Export subtitles')).toEqual({ canceled: false, files: [{ id, path: target }], errors: [] });
    expect(readFileSync(target, 'utf8')).toMatch(/^1\n00:00:00,300 --> /);
    expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
    // Saved by the one saver, so it can be shown in its folder like a library export.
    expect(() => saver.reveal(target)).not.toThrow();
    await expect(new ExportSaver(lib, null).save([id], 'srt')).rejects.toThrow(/only in the desktop app/);
  });

  it('answers bad IPC input with bad_request and a missing item with not_found', async () => {
    const router = new Router(() => true);
    registerSubtitleHandlers(router, lib, {
      files: new UserFiles(new PickedFiles(), new StagedUploads(join(dir, 'uploads'), () => new Set())),
      log: () => undefined,
    });
    const ctx = { sender: { kind: 'host' as const, tokenValid: true } };
    expect(await router.dispatch('subtitles.commit', { id: 'x', version: -1 }, ctx)).toMatchObject({ ok: false, error: { code: 'bad_request' } });
    expect(await router.dispatch('subtitles.open', { id: 'missing' }, ctx)).toMatchObject({ ok: false, error: { code: 'not_found' } });
    const id = addCompleted();
    expect(await router.dispatch('subtitles.open', { id }, ctx)).toMatchObject({ ok: true });
  });
});

/** The text of word/document.xml in a DOCX (a zip), read with the system's unzip. */
function unzipText(buf: Buffer): string {
  const f = join(dir, `d${Math.random().toString(36).slice(2)}.docx`);
  writeFileSync(f, buf);
  return execFileSync('unzip', ['-p', f, 'word/document.xml']).toString('utf8');
}
