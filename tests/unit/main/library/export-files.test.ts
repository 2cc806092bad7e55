import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Router } from '../../../../src/main/ipc/router';
import { registerLibraryHandlers } from '../../../../src/main/ipc/library';
import type { FileDialogs } from '../../../../src/main/platform/types';
import { ExportSaver } from '../../../../src/main/services/library/export-files';
import { Library } from '../../../../src/main/services/library/library';
import type { LibraryRemote } from '../../../../src/main/services/library/remote';
import type { WebhookFollower } from '../../../../src/main/services/library/webhook-status';
import { commands } from '../../../../src/shared/subtitles/index';
import { commitCueEdit } from '../../../support/library';

let dir: string;
let lib: Library;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'verbatim-export-'));
  lib = new Library(join(dir, 'data'));
});
afterEach(() => {
  lib.close();
  rmSync(dir, { recursive: true, force: true });
});

function addCompleted(title: string, text: string): string {
  const { recordingId, transcriptId } = lib.recordings.add({
    title,
    source: `${title}.wav`,
    sourceKind: 'file',
    sizeBytes: 10,
    region: 'local',
    baseUrl: null,
    options: {},
  });
  const words = text.split(' ').map((t, i) => ({ text: t, start: i * 400, end: i * 400 + 300, confidence: 0.9, speaker: null }));
  lib.transcripts.complete(transcriptId, {
    remoteId: `r-${title}`,
    text,
    words,
    sentences: null,
    paragraphs: null,
    confidence: 0.9,
    language: 'en_us',
    model: 'm',
    durationMs: 4000,
  });
  return recordingId;
}

/** What a person does in the dialogs, scripted: each answer is the path they pick (null = Cancel). */
function scriptedDialogs(answers: { save?: string | null; folder?: string | null }) {
  const calls: { kind: string; opts: unknown }[] = [];
  const revealed: string[] = [];
  const dialogs: FileDialogs = {
    saveFile: async (opts) => (calls.push({ kind: 'save', opts }), answers.save ?? null),
    pickFolder: async (opts) => (calls.push({ kind: 'folder', opts }), answers.folder ?? null),
    reveal: (p) => void revealed.push(p),
  };
  return { dialogs, calls, revealed };
}

describe('saving exports through the desktop dialogs', () => {
  it('asks where to save one transcript, offering its title and format, and writes exactly the export there', async () => {
    const id = addCompleted('Board meeting', 'we agreed on the budget');
    const target = join(dir, 'picked.srt');
    const { dialogs, calls } = scriptedDialogs({ save: target });
    const r = await new ExportSaver(lib, dialogs).save([id], 'srt');
    expect(calls).toEqual([
      { kind: 'save', opts: { title: 'Export transcript', defaultName: 'Board meeting.srt', filters: [{ name: 'SubRip subtitles', extensions: ['srt'] }] } },
    ]);
    expect(r).toEqual({ canceled: false, files: [{ id, path: target }], errors: [] });
    expect(readFileSync(target, 'utf8')).toBe(lib.exports.render(id, 'srt').content);
    expect(readFileSync(target, 'utf8')).toMatch(/^1\n00:00:00,000 --> /);
  });

  it('adds the extension when the user typed a name without one', async () => {
    const id = addCompleted('Notes', 'hello there');
    const { dialogs } = scriptedDialogs({ save: join(dir, 'my notes') });
    const r = await new ExportSaver(lib, dialogs).save([id], 'vtt');
    expect(r.files[0]?.path).toBe(join(dir, 'my notes.vtt'));
    expect(readFileSync(join(dir, 'my notes.vtt'), 'utf8')).toMatch(/^WEBVTT/);
  });

  it('writes nothing when the user cancels', async () => {
    const id = addCompleted('Kept', 'nothing to see');
    const { dialogs } = scriptedDialogs({ save: null });
    const before = readdirSync(dir);
    expect(await new ExportSaver(lib, dialogs).save([id], 'txt')).toEqual({ canceled: true, files: [], errors: [] });
    expect(readdirSync(dir)).toEqual(before);
  });

  it('saves several transcripts into one picked folder without overwriting anything', async () => {
    const a = addCompleted('Interview', 'first take');
    const b = addCompleted('Interview', 'second take');
    const c = addCompleted('Lecture', 'welcome everyone');
    const out = join(dir, 'out');
    mkdirSync(out);
    writeFileSync(join(out, 'Lecture.txt'), 'a file the user already had');
    const { dialogs, calls } = scriptedDialogs({ folder: out });
    const r = await new ExportSaver(lib, dialogs).save([a, b, c], 'txt');
    expect(calls.map((x) => x.kind)).toEqual(['folder']);
    expect(r.errors).toEqual([]);
    expect(r.files.map((f) => f.path)).toEqual([join(out, 'Interview.txt'), join(out, 'Interview (2).txt'), join(out, 'Lecture (2).txt')]);
    expect(readFileSync(join(out, 'Lecture.txt'), 'utf8')).toBe('a file the user already had');
    expect(readFileSync(join(out, 'Interview (2).txt'), 'utf8')).toBe('second take\n');
  });

  it('reports a folder it cannot write to per file, in words the user can act on', async () => {
    const id = addCompleted('Blocked', 'cannot write');
    const { dialogs } = scriptedDialogs({ save: join(dir, 'missing-folder', 'x.txt') });
    const r = await new ExportSaver(lib, dialogs).save([id], 'txt');
    expect(r.files).toEqual([]);
    expect(r.errors[0]?.message).toMatch(/^Could not save .*x\.txt: .*Pick another folder\.$/);
  });

  it('reveals only files it saved itself', async () => {
    const id = addCompleted('Shown', 'show me');
    const target = join(dir, 'shown.txt');
    const { dialogs, revealed } = scriptedDialogs({ save: target });
    const saver = new ExportSaver(lib, dialogs);
    await saver.save([id], 'txt');
    saver.reveal(target);
    expect(revealed).toEqual([target]);
    expect(() => saver.reveal('/etc/passwd')).toThrow(/only shows files it saved/);
  });

  it('answers `unavailable` over IPC where there are no dialogs (host mode: the browser downloads)', async () => {
    const id = addCompleted('Hosted', 'in a browser');
    const router = new Router(() => true);
    registerLibraryHandlers(
      router,
      { library: lib, remote: {} as LibraryRemote, saver: new ExportSaver(lib, null), webhooks: {} as WebhookFollower },
      () => null,
    );
    const reply = await router.dispatch('library.saveExport', { ids: [id], format: 'txt' }, { sender: { kind: 'host', tokenValid: true } });
    expect(reply).toMatchObject({ ok: false, error: { code: 'unavailable', message: expect.stringMatching(/downloads/) } });
    expect(existsSync(join(dir, 'Hosted.txt'))).toBe(false);
  });
});

/** The text of a DOCX's body (word/document.xml), tags removed. */
function docxText(bytes: Buffer): string {
  const f = join(dir, `d${Math.random().toString(36).slice(2)}.docx`);
  writeFileSync(f, bytes);
  return execFileSync('unzip', ['-p', f, 'word/document.xml'])
    .toString('utf8')
    .replace(/<[^>]+>/g, '');
}

describe('DOCX from the library', () => {
  function edited(): string {
    const id = addCompleted(
      'Board meeting',
      'we agreed on the budget for next year. Then we talked about hiring two engineers and a designer before the summer holidays. Finally the new office opens in March.',
    );
    // A word corrected in the transcript view.
    lib.edits.correctWords(id, [{ index: 1, text: 'settled' }]);
    // A word changed in a cue, and a cue's text rewritten beyond its words, in the Subtitles view.
    const cues = lib.subtitles.open(id).cues;
    const at = cues.findIndex((c) => c.text.includes('budget'));
    const after = commitCueEdit(lib, id, commands.editText, { index: at, text: cues[at]!.text.replace('budget', 'forecast') }, [at]);
    const last = after.length - 1;
    expect(after[last]!.text).toContain('in March');
    expect(last).toBeGreaterThan(at);
    commitCueEdit(lib, id, commands.editText, { index: last, text: 'The office opens in spring.' }, [last]);
    return id;
  }

  it('library.export answers a DOCX (base64) carrying the corrected word, the word edited in a cue and the rewritten cue', async () => {
    const id = edited();
    const router = new Router(() => true);
    registerLibraryHandlers(
      router,
      { library: lib, remote: {} as LibraryRemote, saver: new ExportSaver(lib, null), webhooks: {} as WebhookFollower },
      () => null,
    );
    const reply = await router.dispatch('library.export', { id, format: 'docx' }, { sender: { kind: 'host', tokenValid: true } });
    expect(reply).toMatchObject({
      ok: true,
      output: { filename: 'Board meeting.docx', mime: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', encoding: 'base64' },
    });
    const text = docxText(Buffer.from((reply as { output: { content: string } }).output.content, 'base64'));
    expect(text).toContain('Board meeting');
    expect(text).toContain('we settled on the forecast');
    expect(text).toContain('The office opens in spring.');
    expect(text).not.toContain('budget');
    expect(text).not.toContain('in March');
    // The same model in the other library formats.
    expect(lib.exports.render(id, 'txt').content).toContain('we settled on the forecast');
    expect(lib.exports.render(id, 'txt').content).toContain('The office opens in spring.');
  });

  it('saves the DOCX through the save dialog as the bytes of a Word document', async () => {
    const id = edited();
    const target = join(dir, 'minutes');
    const { dialogs, calls } = scriptedDialogs({ save: target });
    const r = await new ExportSaver(lib, dialogs).save([id], 'docx');
    expect(calls[0]).toMatchObject({ opts: { defaultName: 'Board meeting.docx', filters: [{ name: 'Word document', extensions: ['docx'] }] } });
    expect(r.files).toEqual([{ id, path: `${target}.docx` }]);
    const bytes = readFileSync(`${target}.docx`);
    expect(bytes.subarray(0, 2).toString()).toBe('PK');
    expect(docxText(bytes)).toContain('we settled on the forecast');
  });
});
