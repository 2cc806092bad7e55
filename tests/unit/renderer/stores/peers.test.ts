// What features ask of the stores now that they never import one another or the bridge's api: the app-wide dialog
// registry (show/close), a chat about recordings that opens the Chat screen, and a backup import with its progress.
import { afterEach, describe, expect, it } from 'vitest';
import { createStore } from 'zustand/vanilla';
import { appState, useApp, type DialogRequest } from '../../../../src/renderer/src/stores/app';
import { chatState, type ChatStoreState } from '../../../../src/renderer/src/stores/chat';
import { connectLibrary, libraryState, type LibraryState } from '../../../../src/renderer/src/stores/library';
import type { ChatDetail } from '../../../../src/shared/chat/schema';
import { FakeApi } from '../support/fake-api';

const at = '2026-01-01T00:00:00.000Z';

afterEach(() => useApp.setState({ screen: 'library', dialog: null }));

describe('the app-wide dialog registry', () => {
  it('holds one dialog at a time: show replaces, close clears', () => {
    const store = createStore(appState(new FakeApi()));
    expect(store.getState().dialog).toBeNull();
    const exporting: DialogRequest = { kind: 'export', ids: ['rec-1'], title: 'Export “Standup”' };
    store.getState().show(exporting);
    expect(store.getState().dialog).toBe(exporting);
    store.getState().show({ kind: 'insights', recordingId: 'rec-1', title: 'Standup' });
    expect(store.getState().dialog).toEqual({ kind: 'insights', recordingId: 'rec-1', title: 'Standup' });
    store.getState().close();
    expect(store.getState().dialog).toBeNull();
  });

  it('has a Subtitles screen of its own beside the transcript', () => {
    const store = createStore(appState(new FakeApi()));
    store.getState().openTranscript('rec-1');
    store.getState().setScreen('subtitles');
    expect(store.getState()).toMatchObject({ screen: 'subtitles', open: { id: 'rec-1' } });
    store.getState().backToLibrary();
    expect(store.getState()).toMatchObject({ screen: 'library', returnFocusTo: 'rec-1' });
  });
});

describe('chat actions other features call', () => {
  const detail = (input: { scope: 'library' | 'recordings'; recordingIds?: string[] }): ChatDetail => ({
    id: 'chat-1',
    title: 'New chat',
    model: null,
    scope: input.scope,
    recordings: (input.recordingIds ?? []).map((id) => ({ id, title: id })),
    messageCount: 0,
    createdAt: at,
    updatedAt: at,
    preview: '',
    messages: [],
  });

  it('askAbout makes a chat about the recordings (or the library) and shows the Chat screen', async () => {
    const api = new FakeApi().handle('chat.create', detail);
    const store = createStore<ChatStoreState>()(chatState(api));
    expect(await store.getState().askAbout(['rec-1', 'rec-2'])).toBe(true);
    expect(await store.getState().askAbout(null)).toBe(true);
    expect(api.callsTo('chat.create')).toEqual([{ scope: 'recordings', recordingIds: ['rec-1', 'rec-2'] }, { scope: 'library' }]);
    expect(useApp.getState().screen).toBe('chat');
  });

  it('askAbout stays where it is when the chat could not be made', async () => {
    const api = new FakeApi().handle('chat.create', () => {
      throw new Error('The service is not reachable.');
    });
    const store = createStore<ChatStoreState>()(chatState(api));
    expect(await store.getState().askAbout(['rec-1'])).toBe(false);
    expect(useApp.getState().screen).toBe('library');
  });

  it('lists and runs speech-understanding actions through the contract', async () => {
    const saved = { kind: 'summary' as const, variant: '', model: 'm', createdAt: at, result: { kind: 'summary' as const, bullets: ['Short.'] } };
    const api = new FakeApi().handle('insights.list', () => ({ insights: [] })).handle('insights.run', () => saved);
    const store = createStore<ChatStoreState>()(chatState(api));
    expect(await store.getState().insightsOf('rec-1')).toEqual([]);
    expect(await store.getState().runInsight({ id: 'rec-1', kind: 'summary' })).toEqual(saved);
    expect(api.callsTo('insights.run')).toEqual([{ id: 'rec-1', kind: 'summary' }]);
  });
});

describe('making a backup from Settings', () => {
  it('follows library.exportProgress while it runs and forgets it when done', async () => {
    let finish!: (v: { dir: string; items: number; audioFiles: number }) => void;
    const api = new FakeApi().handle('library.exportAll', () => new Promise((resolve) => (finish = resolve)));
    const store = createStore<LibraryState>()(libraryState(api));
    const disconnect = connectLibrary(api, store);
    const running = store.getState().makeBackup('/backups/two');
    await Promise.resolve();
    api.emit('library.exportProgress', { done: 40, total: 400 });
    expect(store.getState().exportProgress).toEqual({ done: 40, total: 400 });
    finish({ dir: '/backups/two', items: 400, audioFiles: 0 });
    expect(await running).toEqual({ dir: '/backups/two', items: 400, audioFiles: 0 });
    expect(store.getState().exportProgress).toBeNull();
    disconnect();
  });
});

describe('a backup import from Settings', () => {
  it('follows library.importProgress while it runs and forgets it when done', async () => {
    let finish!: (v: { imported: number; skipped: number; notes: string[] }) => void;
    const api = new FakeApi()
      .handle('library.importAll', () => new Promise((resolve) => (finish = resolve)))
      .handle('library.importCancel', () => ({ canceled: true }));
    const store = createStore<LibraryState>()(libraryState(api));
    const disconnect = connectLibrary(api, store);
    const running = store.getState().importBackup('/backups/one');
    expect(store.getState().importProgress).toBeNull();
    await Promise.resolve();
    api.emit('library.importProgress', { done: 3, total: 12 });
    expect(store.getState().importProgress).toEqual({ done: 3, total: 12 });
    await store.getState().cancelImport();
    expect(api.callsTo('library.importCancel')).toHaveLength(1);
    finish({ imported: 12, skipped: 0, notes: [] });
    expect(await running).toEqual({ imported: 12, skipped: 0, notes: [] });
    expect(store.getState().importProgress).toBeNull();
    expect(api.callsTo('library.importAll')).toEqual([{ dir: '/backups/one' }]);
    disconnect();
  });
});
