// The library store against a fake VerbatimApi: pages, refresh on library.changed, rename, delete, and connectLibrary's unsubscribe.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createStore } from 'zustand/vanilla';
import { connectLibrary, libraryState, PAGE, type LibraryState } from '../../../../src/renderer/src/stores/library';
import { useToasts } from '../../../../src/renderer/src/stores/toasts';
import type { LibraryItem } from '../../../../src/shared/library';
import { FakeApi } from '../support/fake-api';

const item = (n: number, title = `Recording ${n}`): LibraryItem => ({
  id: `rec-${n}`,
  title,
  source: `${n}.wav`,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  completedAt: null,
  durationMs: 1000,
  status: 'completed',
  error: null,
  region: 'us',
  remoteId: null,
  language: 'en',
  model: null,
  wordCount: 2,
  tags: [],
  hasAudio: false,
  hasRedactedAudio: false,
  preview: 'hello world',
});

function setup(total: number) {
  let all = Array.from({ length: total }, (_, i) => item(i));
  const api = new FakeApi()
    .handle('library.list', (q) => {
      const offset = q?.offset ?? 0;
      return { items: all.slice(offset, offset + (q?.limit ?? PAGE)), total: all.length };
    })
    .handle('library.tags', () => ({ tags: [{ name: 'work', count: 1 }] }))
    .handle('library.rename', ({ id, title }) => {
      all = all.map((it) => (it.id === id ? { ...it, title } : it));
      return all.find((it) => it.id === id)!;
    })
    .handle('library.delete', ({ ids }) => {
      all = all.filter((it) => !ids.includes(it.id));
      return { deleted: ids.length, remoteErrors: [] };
    });
  const store = createStore<LibraryState>()(libraryState(api));
  return { api, store, setAll: (items: LibraryItem[]) => (all = items) };
}

afterEach(() => useToasts.setState({ toasts: [] }));

describe('library store', () => {
  it('loads the first page, then the pages the list scrolls to, once each', async () => {
    const { api, store } = setup(250);
    await store.getState().reset();
    expect(store.getState().total).toBe(250);
    expect(store.getState().items.filter(Boolean)).toHaveLength(PAGE);
    store.getState().ensureRange(180, 240);
    store.getState().ensureRange(180, 240);
    await vi.waitFor(() => expect(store.getState().items.filter(Boolean)).toHaveLength(250));
    expect(api.callsTo('library.list').map((q) => (q as { offset: number }).offset)).toEqual([0, 100, 200]);
  });

  it('sends the query’s filters and resets to page 0 when they change', async () => {
    const { api, store } = setup(3);
    store.getState().setQuery({ title: '  meeting ', tag: 'work', order: 'asc' });
    await vi.waitFor(() => expect(api.callsTo('library.list')).toHaveLength(1));
    expect(api.callsTo('library.list')[0]).toMatchObject({ title: 'meeting', tag: 'work', order: 'asc', offset: 0 });
  });

  it('renames in place and deletes with a toast, then reloads', async () => {
    const { store } = setup(3);
    await store.getState().reset();
    expect(await store.getState().rename('rec-1', 'Board meeting')).toBe(true);
    expect(store.getState().items[1]?.title).toBe('Board meeting');
    await store.getState().remove(['rec-0'], false);
    expect(store.getState().total).toBe(2);
    expect(useToasts.getState().toasts.map((t) => t.text)).toContain('Deleted 1 recording.');
  });

  it('shows a refused rename as an error toast and keeps the old title', async () => {
    const { store } = setup(2);
    await store.getState().reset();
    expect(await store.getState().rename('rec-0', '   ')).toBe(false);
    expect(store.getState().items[0]?.title).toBe('Recording 0');
    expect(useToasts.getState().toasts.at(-1)?.tone).toBe('error');
  });

  it('refreshes on library.changed once connected, and stops listening when disconnected', async () => {
    const { api, store, setAll } = setup(2);
    const disconnect = connectLibrary(api, store);
    expect(api.listenerCount('library.changed')).toBe(1);
    await store.getState().reset();
    setAll([item(0, 'Renamed elsewhere'), item(1)]);
    api.emit('library.changed', { ids: ['rec-0'], reason: 'updated' });
    await vi.waitFor(() => expect(store.getState().items[0]?.title).toBe('Renamed elsewhere'));
    await vi.waitFor(() => expect(store.getState().tags).toEqual([{ name: 'work', count: 1 }]));
    disconnect();
    expect(api.listenerCount()).toBe(0);
  });
});
