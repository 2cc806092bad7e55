// The subtitle store against a real library (SQLite) playing main's part through a contract-checked fake api: edits go out as
// commands (name, argument, view) in order, main performs them too and both agree by digest; undo/redo follow, across a reload;
// a refused or disagreeing edit reloads what main kept.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serialize } from 'node:v8';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createStore } from 'zustand/vanilla';
import { Library } from '../../../../src/main/services/library/library';
import { importSubtitlesAsItem } from '../../../../src/main/services/library/subtitle-import';
import { saved, subtitlesState, type SubtitlesState } from '../../../../src/renderer/src/stores/subtitles';
import { useToasts } from '../../../../src/renderer/src/stores/toasts';
import { useTranscript } from '../../../../src/renderer/src/stores/transcript';
import { AppError } from '../../../../src/shared/errors';
import { wireDoc } from '../../../../src/shared/subtitles/cue-columns';
import { srtOf } from '../../../support/srt';
import { FakeApi } from '../support/fake-api';

const SRT = '1\n00:00:00,000 --> 00:00:01,500\nOne.\n\n2\n00:00:02,000 --> 00:00:03,500\nTwo.\n\n3\n00:00:04,000 --> 00:00:05,500\nThree.\n';

let dir: string;
let lib: Library;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'verbatim-subtitles-store-'));
  lib = new Library(join(dir, 'data'));
});
afterEach(() => {
  lib.close();
  rmSync(dir, { recursive: true, force: true });
  useToasts.setState({ toasts: [] });
  useTranscript.setState({ transcript: null });
});

/** main's part: the library's own subtitle store, as ipc/subtitles.ts calls it. */
function setup(opts: { refuseRuns?: boolean; content?: string } = {}) {
  const id = importSubtitlesAsItem(lib, 'three.srt', opts.content ?? SRT).id;
  useTranscript.setState({ transcript: lib.transcripts.get(id) });
  const api = new FakeApi()
    .handle('subtitles.open', ({ id }) => wireDoc(lib.subtitles.open(id)))
    .handle('subtitles.run', ({ id, version, ...edit }) => {
      if (opts.refuseRuns) throw new AppError('conflict', 'These subtitles were changed in another window.');
      return lib.subtitles.run(id, version, edit);
    })
    .handle('subtitles.undo', ({ id, version }) => lib.subtitles.undo(id, version))
    .handle('subtitles.redo', ({ id, version }) => lib.subtitles.redo(id, version))
    .handle('subtitles.setProfile', ({ id, profileId }) => (lib.subtitles.setProfile(id, profileId), { ok: true as const }));
  const store = createStore<SubtitlesState>()(subtitlesState(api));
  return { id, api, store, stored: () => lib.subtitles.open(id).cues };
}

describe('subtitles store', () => {
  it('opens a document sent as columns and sends each command by name on the version main holds; main stores the same cues', async () => {
    const { id, api, store, stored } = setup();
    await store.getState().open(id);
    expect(store.getState().cues.map((c) => c.text)).toEqual(['One.', 'Two.', 'Three.']);
    expect(store.getState().cues).toEqual(stored());
    store.getState().select(0);
    expect(store.getState().run('merge', undefined)).toBe(true);
    expect(store.getState().run('delete', undefined)).toBe(true);
    await saved();
    expect(api.callsTo('subtitles.run')).toMatchObject([
      { id, version: 1, command: 'merge', view: { selection: [[0, 0]] } },
      { id, version: 2, command: 'delete' },
    ]);
    expect(stored()).toEqual(store.getState().cues);
    expect(store.getState().undoStack.map((e) => e.label)).toEqual(['Import three.srt', 'Merge with next', 'Delete']);
    // Agreed by digest: no reload was needed.
    expect(api.callsTo('subtitles.open')).toHaveLength(1);
  });

  it('undoes here at once and in main in the same order', async () => {
    const { id, store, stored } = setup();
    await store.getState().open(id);
    store.getState().select(1);
    store.getState().run('merge', undefined);
    store.getState().undo();
    expect(store.getState().cues.map((c) => c.text)).toEqual(['One.', 'Two.', 'Three.']);
    expect(store.getState().redoStack).toHaveLength(1);
    store.getState().redo();
    await saved();
    expect(stored()).toEqual(store.getState().cues);
    expect(stored().map((c) => c.text)).toEqual(['One.', 'Two. Three.']);
  });

  it('undoes and redoes an edit made before a reload: main undoes it and the document is read again', async () => {
    const { id, api, store, stored } = setup();
    await store.getState().open(id);
    store.getState().select(0);
    store.getState().run('shiftAllLater');
    await saved();
    // Another session: the store opened afresh has the history as labels only.
    const again = createStore<SubtitlesState>()(subtitlesState(api));
    await again.getState().open(id);
    expect(again.getState().undoStack).toEqual([{ label: 'Import three.srt' }, { label: 'Shift all later by 100 ms' }]);
    expect(again.getState().cues[0]!.start).toBe(100);
    again.getState().undo();
    await saved();
    await expect.poll(() => again.getState().cues[0]!.start).toBe(0);
    expect(again.getState().redoStack.map((e) => e.label)).toEqual(['Shift all later by 100 ms']);
    again.getState().redo();
    await saved();
    await expect.poll(() => again.getState().cues[0]!.start).toBe(100);
    expect(stored()).toEqual(again.getState().cues);
  });

  it('reopens the document when main stored something else than this side made (digests differ)', async () => {
    const { id, api, store, stored } = setup();
    await store.getState().open(id);
    // Main lays lines out by another profile than this side (set behind its back): the merged cue breaks differently there.
    lib.subtitles.setProfile(id, 'social');
    store.getState().select(0);
    store.getState().run('editText', { index: 0, text: 'A first line of twenty.' });
    store.getState().run('merge', undefined);
    await saved();
    await expect.poll(() => api.callsTo('subtitles.open').length).toBe(2);
    await saved();
    await expect.poll(() => store.getState().cues).toEqual(stored());
    expect(stored()[0]!.text).toBe('A first line of twenty.\nTwo.');
    expect(store.getState().profileId).toBe('social');
  });

  it('says why an edit was refused and reloads what main kept', async () => {
    const { id, store } = setup({ refuseRuns: true });
    await store.getState().open(id);
    store.getState().select(0);
    store.getState().run('merge', undefined);
    expect(store.getState().cues).toHaveLength(2);
    await saved();
    await expect.poll(() => store.getState().cues.length).toBe(3);
    expect(useToasts.getState().toasts.at(-1)).toMatchObject({ tone: 'error', text: expect.stringMatching(/another window.*reloaded as last saved/) });
  });

  it('does nothing for a command that does not apply', async () => {
    const { id, api, store } = setup();
    await store.getState().open(id);
    store.setState({ selection: [] });
    expect(store.getState().run('merge', undefined)).toBe(false);
    await saved();
    expect(api.callsTo('subtitles.run')).toEqual([]);
  });

  it('Reset and an import onto the cues cross as rebuild and the file text, and both sides read the same cues', async () => {
    const { id, api, store, stored } = setup();
    await store.getState().open(id);
    store.getState().importOnto('WEBVTT\n\nNOTE kept\n\n00:00:01.000 --> 00:00:02.000 align:start\n<i>New</i> one\n', 'new.vtt');
    expect(store.getState().header).toEqual(['WEBVTT', 'NOTE kept']);
    store.getState().resetToGenerated();
    store.getState().undo();
    await saved();
    expect(api.callsTo('subtitles.run')).toMatchObject([{ command: 'replaceFrom', args: { name: 'new.vtt' } }, { command: 'rebuild' }]);
    expect(stored()).toEqual(store.getState().cues);
    expect(stored()).toMatchObject([{ start: 1000, end: 2000, text: '<i>New</i> one', settings: 'align:start' }]);
    expect(lib.subtitles.open(id).undo.at(-1)).toBe('Import new.vtt');
    expect(api.callsTo('subtitles.open')).toHaveLength(1);
  });

  it('shift-all on 200,000 cues sends a request under 1 KB, as JSON (host mode) and as a structured clone (Electron)', async () => {
    const { id, api, store, stored } = setup({ content: srtOf(200_000, () => 'a') });
    await store.getState().open(id);
    store.getState().select(0, false);
    store.getState().select(199_999, true);
    expect(store.getState().run('shiftAllLater')).toBe(true);
    await saved();
    const [input] = api.callsTo('subtitles.run');
    const json = JSON.stringify({ id: 1, channel: 'subtitles.run', input });
    console.log(`shift-all on 200,000 cues: ${json.length} bytes of JSON, ${serialize(input).length} bytes as a structured clone`);
    expect(json.length).toBeLessThan(1024);
    expect(serialize(input).length).toBeLessThan(1024);
    expect(stored()[199_999]!.start).toBe(199_999_100);
    expect(api.callsTo('subtitles.open')).toHaveLength(1);
  });
});
