// The subtitle store against a fake VerbatimApi playing main's part: edits go out as splices in order, undo/redo follow, a refused edit reloads.
import { afterEach, describe, expect, it } from 'vitest';
import { createStore } from 'zustand/vanilla';
import { saved, subtitlesState, type SubtitlesState } from '../../../../src/renderer/src/stores/subtitles';
import { useToasts } from '../../../../src/renderer/src/stores/toasts';
import { AppError } from '../../../../src/shared/errors';
import { applySplice, builtInProfiles, defaultProfile, invertSplice, type Cue, type HistoryEntry } from '../../../../src/shared/subtitles/index';
import { FakeApi } from '../support/fake-api';

const cue = (start: number, text: string): Cue => ({ start, end: start + 1500, text });

/** A main that keeps the cues, the version and the history, as services/library/subtitles.ts does. */
function setup(opts: { refuseCommits?: boolean } = {}) {
  let cues = [cue(0, 'One.'), cue(2000, 'Two.'), cue(4000, 'Three.')];
  let version = 0;
  const undo: HistoryEntry[] = [];
  const redo: HistoryEntry[] = [];
  const api = new FakeApi()
    .handle('subtitles.open', ({ id }) => ({
      recordingId: id,
      version,
      edited: version > 0,
      profileId: defaultProfile.id,
      profiles: [...builtInProfiles],
      cues,
      header: [],
      trailer: [],
      undo,
      redo,
    }))
    .handle('subtitles.commit', (c) => {
      if (opts.refuseCommits) throw new AppError('conflict', 'These subtitles were changed in another window.');
      if (c.version !== version) throw new AppError('conflict', 'stale version');
      cues = applySplice(cues, c.splice);
      undo.push({ label: c.label, splice: c.splice });
      redo.length = 0;
      return { version: ++version };
    })
    .handle('subtitles.undo', (u) => {
      if (u.version !== version) throw new AppError('conflict', 'stale version');
      const entry = undo.pop() ?? null;
      if (entry) {
        cues = applySplice(cues, invertSplice(entry.splice));
        redo.unshift(entry);
      }
      return { version: ++version, entry };
    });
  const store = createStore<SubtitlesState>()(subtitlesState(api));
  return { api, store, stored: () => cues };
}

afterEach(() => useToasts.setState({ toasts: [] }));

describe('subtitles store', () => {
  it('opens a document and sends each command as a splice on the version main holds', async () => {
    const { api, store, stored } = setup();
    await store.getState().open('rec-1');
    expect(store.getState().cues.map((c) => c.text)).toEqual(['One.', 'Two.', 'Three.']);
    store.getState().select(0);
    expect(store.getState().run('merge', undefined)).toBe(true);
    expect(store.getState().run('delete', undefined)).toBe(true);
    await saved();
    expect(api.callsTo('subtitles.commit').map((c) => (c as { version: number; label: string }).version)).toEqual([0, 1]);
    expect(stored()).toEqual(store.getState().cues);
    expect(store.getState().undoStack.map((e) => e.label)).toEqual(['Merge with next', 'Delete']);
  });

  it('undoes here at once and in main in the same order', async () => {
    const { store, stored } = setup();
    await store.getState().open('rec-1');
    store.getState().select(1);
    store.getState().run('merge', undefined);
    store.getState().undo();
    expect(store.getState().cues.map((c) => c.text)).toEqual(['One.', 'Two.', 'Three.']);
    expect(store.getState().redoStack).toHaveLength(1);
    await saved();
    expect(stored()).toEqual(store.getState().cues);
  });

  it('says why an edit was refused and reloads what main kept', async () => {
    const { store } = setup({ refuseCommits: true });
    await store.getState().open('rec-1');
    store.getState().select(0);
    store.getState().run('merge', undefined);
    expect(store.getState().cues).toHaveLength(2);
    await saved();
    await expect.poll(() => store.getState().cues.length).toBe(3);
    expect(useToasts.getState().toasts.at(-1)).toMatchObject({ tone: 'error', text: expect.stringMatching(/another window.*reloaded as last saved/) });
  });

  it('does nothing for a command that does not apply', async () => {
    const { api, store } = setup();
    await store.getState().open('rec-1');
    store.setState({ selection: [] });
    expect(store.getState().run('merge', undefined)).toBe(false);
    await saved();
    expect(api.callsTo('subtitles.commit')).toEqual([]);
  });
});
