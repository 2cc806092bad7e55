// One export pipeline: an unedited transcript exported through the library and through the subtitle editor, with the same rules profile, gives byte-identical SRT and VTT files, over the real IPC router, SQLite library and saver.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { registerLibraryHandlers } from '../../src/main/ipc/library';
import { Router } from '../../src/main/ipc/router';
import { registerSubtitleHandlers } from '../../src/main/ipc/subtitles';
import type { FileDialogs } from '../../src/main/platform/types';
import { ExportSaver } from '../../src/main/services/library/export-files';
import { Library } from '../../src/main/services/library/library';
import type { LibraryRemote } from '../../src/main/services/library/remote';
import type { WebhookFollower } from '../../src/main/services/library/webhook-status';
import { PickedFiles } from '../../src/main/services/files/picked';
import { UserFiles } from '../../src/main/services/files/refs';
import { StagedUploads } from '../../src/main/services/files/staged';
import type { Word } from '../../src/shared/library';
import { buildCuesWith, builtInProfiles, parseSubtitles } from '../../src/shared/subtitles/index';
import { addCompleted } from '../support/library';
import { call } from '../support/router';

let dir: string;
let lib: Library;
let router: Router;
/** Where the scripted save dialog answers the next save, and what was revealed. */
let nextSave: string | null = null;
const revealed: string[] = [];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'verbatim-export-pipeline-'));
  lib = new Library(join(dir, 'data'));
  router = new Router(() => true);
  const dialogs: FileDialogs = { saveFile: async () => nextSave, pickFolder: async () => null, reveal: (p) => void revealed.push(p) };
  const saver = new ExportSaver(lib, dialogs);
  registerLibraryHandlers(router, { library: lib, remote: {} as LibraryRemote, saver, webhooks: {} as WebhookFollower }, () => null);
  registerSubtitleHandlers(router, lib, {
    files: new UserFiles(new PickedFiles(), new StagedUploads(join(dir, 'uploads'), () => new Set())),
    log: () => undefined,
  });
});
afterEach(() => {
  lib.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A two-speaker conversation long enough for many cues: sentences of a few words, a pause between turns. */
function conversation(): Word[] {
  const turns = [
    'Good morning everyone, thanks for joining the quarterly planning call today.',
    'Morning. Before we start, can we look at the budget numbers from last week?',
    'Sure. Spending came in under the forecast, mostly because hiring slipped into the next quarter.',
    'That makes sense. What does that mean for the launch date we promised the customers?',
    'Nothing changes for the launch. We still ship on the fourteenth, with the same scope.',
  ];
  const words: Word[] = [];
  let t = 0;
  turns.forEach((turn, k) => {
    for (const text of turn.split(' ')) {
      words.push({ text, start: t, end: t + 280, confidence: 0.9, speaker: k % 2 ? 'B' : 'A' });
      t += 330;
    }
    t += 900;
  });
  return words;
}

describe('one export pipeline', () => {
  it('gives byte-identical SRT and VTT from the library and from the subtitle editor (one channel pair, the editor asking with voices: false), by the chosen profile, and reveals both saved files', async () => {
    const words = conversation();
    const { recordingId: id } = addCompleted(lib, 'Planning call', words);
    lib.edits.renameSpeaker(id, 'A', 'Dana');
    const social = builtInProfiles.find((p) => p.id === 'social')!;
    await call(router, 'subtitles.setProfile', { id, profileId: social.id });
    const doc = await call(router, 'subtitles.open', { id });
    expect(doc).toMatchObject({ edited: false, profileId: 'social' });

    for (const format of ['srt', 'vtt'] as const) {
      const fromLibrary = await call(router, 'library.export', { id, format });
      const fromEditor = await call(router, 'library.export', { id, format, voices: false });
      expect(fromLibrary.content.length).toBeGreaterThan(500);
      expect(Buffer.from(fromLibrary.content, 'utf8').equals(Buffer.from(fromEditor.content, 'utf8'))).toBe(true);
      expect(fromLibrary.filename).toBe(fromEditor.filename);
      // The cues are the profile's (short lines for social video), not a builder of the library's own.
      const cues = parseSubtitles(fromLibrary.content).doc.cues;
      expect(cues.map((c) => [c.start, c.end])).toEqual(buildCuesWith(words, social).map((c) => [c.start, c.end]));
      for (const c of cues)
        for (const line of c.text.replace(/^(Dana|Speaker B): /, '').split('\n')) expect(line.length).toBeLessThanOrEqual(social.maxCharsPerLine);

      // Saved to disk through the one saver: the same bytes, each file revealable in its folder.
      nextSave = join(dir, `library.${format}`);
      const saved = await call(router, 'library.saveExport', { ids: [id], format });
      expect(saved.files).toEqual([{ id, path: nextSave }]);
      nextSave = join(dir, `editor.${format}`);
      expect((await call(router, 'library.saveExport', { ids: [id], format, voices: false })).files).toEqual([{ id, path: nextSave }]);
      expect(readFileSync(join(dir, `library.${format}`)).equals(readFileSync(join(dir, `editor.${format}`)))).toBe(true);
      expect(await call(router, 'library.revealExport', { path: join(dir, `editor.${format}`) })).toEqual({ ok: true });
    }
    expect(revealed).toEqual([join(dir, 'editor.srt'), join(dir, 'editor.vtt')]);
    // Speaker names at each change, as before in the library's SRT.
    expect((await call(router, 'library.export', { id, format: 'srt' })).content).toMatch(/^1\n00:00:00,000 --> [^\n]+\nDana: Good morning/);
  });

  it('keeps an imported WebVTT file’s STYLE and NOTE blocks in the library’s export too', async () => {
    const { recordingId: id } = addCompleted(lib, 'Styled', conversation());
    const vtt = 'WEBVTT\n\nSTYLE\n::cue { color: yellow }\n\nNOTE made by hand\n\n00:00.000 --> 00:01.500\nGood morning everyone.\n\nNOTE the end\n';
    const doc = await call(router, 'subtitles.open', { id });
    await call(router, 'subtitles.run', {
      id,
      version: doc.version,
      command: 'replaceFrom',
      args: { content: vtt, name: 'styled.vtt' },
      view: { selection: [], caret: null, playheadMs: 0 },
    });
    const fromLibrary = (await call(router, 'library.export', { id, format: 'vtt' })).content;
    expect(fromLibrary).toContain('STYLE\n::cue { color: yellow }\n\n');
    expect(fromLibrary).toContain('NOTE made by hand\n\n');
    expect(fromLibrary).toContain('NOTE the end\n');
    expect(fromLibrary).toBe((await call(router, 'library.export', { id, format: 'vtt', voices: false })).content);
  });

  it('rebuilds with another line length only when asked, and refuses a length outside the contract', async () => {
    const words = conversation();
    const { recordingId: id } = addCompleted(lib, 'Rebuilt', words);
    const editor = (await call(router, 'library.export', { id, format: 'srt', voices: false })).content;
    expect((await call(router, 'library.export', { id, format: 'srt' })).content).toBe(editor);
    const rebuilt = (await call(router, 'library.export', { id, format: 'srt', charsPerCaption: 20 })).content;
    expect(rebuilt).not.toBe(editor);
    for (const c of parseSubtitles(rebuilt).doc.cues)
      for (const line of c.text.split('\n')) expect(line.replace(/^Speaker [AB]: /, '').length).toBeLessThanOrEqual(20);
    await expect(call(router, 'library.export', { id, format: 'srt', charsPerCaption: 3 })).rejects.toMatchObject({ code: 'bad_request' });
  });
});
