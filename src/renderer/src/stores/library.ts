/**
 * The library list as a sparse array the size of the whole result: pages are
 * fetched as the virtual list scrolls to them, so 10,000 items cost only the
 * rows on screen. Filters and sort reset it; `library.changed` refreshes the
 * pages already loaded without blanking them.
 */
import { create, type StateCreator, type StoreApi } from 'zustand';
import type { Output, Payload, VerbatimApi } from '../../../shared/ipc';
import type { LibraryItem, TranscriptStatus } from '../../../shared/library';
import { api as bridgeApi, errorMessage } from '../bridge';
import { whenConnected } from './app';
import { toast } from './toasts';

export const PAGE = 100;
export type SortKey = 'created' | 'updated' | 'title' | 'duration';

export interface LibraryQuery {
  sort: SortKey;
  order: 'asc' | 'desc';
  status: TranscriptStatus[] | null;
  tag: string | null;
  title: string;
}

export interface LibraryState {
  query: LibraryQuery;
  items: Array<LibraryItem | undefined>;
  total: number;
  loaded: boolean;
  error: string | null;
  /** Bumped on every reset so stale page answers are dropped. */
  generation: number;
  selected: Record<string, true>;
  tags: Array<{ name: string; count: number }>;
  setQuery(patch: Partial<LibraryQuery>): void;
  reset(): Promise<void>;
  ensureRange(from: number, to: number): void;
  refresh(): Promise<void>;
  toggle(id: string, on?: boolean): void;
  selectAll(on: boolean): void;
  rename(id: string, title: string): Promise<boolean>;
  setTags(id: string, tags: string[]): Promise<void>;
  remove(ids: string[], remote: boolean): Promise<void>;
  loadTags(): Promise<void>;
  /** Asks the service now what the user's webhook server answered for this transcript (the answer comes as library.changed). */
  checkWebhook(id: string): Promise<void>;
  /** A backup import's progress while one runs (library.importProgress), null before its first report and after it ends. */
  importProgress: Payload<'library.importProgress'> | null;
  /** Making a backup: its progress while it runs (library.exportProgress), null before its first report and after it ends. */
  exportProgress: Payload<'library.exportProgress'> | null;
  /** Backs the library up into a new or empty folder (remembered voices only when the backupVoiceprints setting is on). */
  makeBackup(dir: string): Promise<Output<'library.exportAll'>>;
  /** Imports a backup folder; rejects with `canceled` when cancelImport stopped it. */
  importBackup(dir: string): Promise<Output<'library.importAll'>>;
  cancelImport(): Promise<void>;
}

/** The store's state and actions over `api` (zustand's StateCreator, apart from create: a test builds one against a fake api). */
export const libraryState =
  (api: VerbatimApi): StateCreator<LibraryState> =>
  (set, get) => {
    const inflight = new Set<string>();
    function input(offset: number, limit: number) {
      const q = get().query;
      return {
        sort: q.sort,
        order: q.order,
        offset,
        limit,
        ...(q.status ? { status: q.status } : {}),
        ...(q.tag ? { tag: q.tag } : {}),
        ...(q.title.trim() ? { title: q.title.trim() } : {}),
      };
    }
    async function fetchPage(page: number, generation: number): Promise<void> {
      const key = `${generation}:${page}`;
      if (inflight.has(key)) return;
      inflight.add(key);
      try {
        // Marks let benchmarks and the browser's profiler see where list time goes.
        performance.mark(`library:list:${page}:sent`);
        const res = await api.invoke('library.list', input(page * PAGE, PAGE));
        performance.mark(`library:list:${page}:answered`);
        if (get().generation !== generation) return;
        const items = get().items.slice();
        if (items.length !== res.total) items.length = res.total;
        res.items.forEach((it, i) => (items[page * PAGE + i] = it));
        set({ items, total: res.total, loaded: true, error: null });
      } catch (err) {
        if (get().generation === generation) set({ error: errorMessage(err), loaded: true });
      } finally {
        inflight.delete(key);
      }
    }
    return {
      query: { sort: 'created', order: 'desc', status: null, tag: null, title: '' },
      items: [],
      total: 0,
      loaded: false,
      error: null,
      generation: 0,
      selected: {},
      tags: [],
      setQuery(patch) {
        set({ query: { ...get().query, ...patch } });
        void get().reset();
      },
      async reset() {
        const generation = get().generation + 1;
        set({ generation, items: [], total: 0, selected: {} });
        await fetchPage(0, generation);
      },
      ensureRange(from, to) {
        const { items, generation } = get();
        for (let page = Math.floor(from / PAGE); page <= Math.floor(Math.max(from, to) / PAGE); page++) {
          if (page * PAGE >= Math.max(get().total, 1)) break;
          if (items[page * PAGE] === undefined || items[Math.min(get().total - 1, page * PAGE + PAGE - 1)] === undefined) void fetchPage(page, generation);
        }
      },
      async refresh() {
        const { items, generation } = get();
        const pages = new Set<number>([0]);
        items.forEach((it, i) => it && pages.add(Math.floor(i / PAGE)));
        await Promise.all([...pages].map((p) => fetchPage(p, generation)));
      },
      toggle(id, on) {
        const selected = { ...get().selected };
        if (on ?? !selected[id]) selected[id] = true;
        else delete selected[id];
        set({ selected });
      },
      selectAll(on) {
        if (!on) return set({ selected: {} });
        const selected: Record<string, true> = {};
        for (const it of get().items) if (it) selected[it.id] = true;
        set({ selected });
      },
      async rename(id, title) {
        try {
          const item = await api.invoke('library.rename', { id, title });
          set({ items: get().items.map((it) => (it?.id === id ? item : it)) });
          return true;
        } catch (err) {
          toast(errorMessage(err), 'error');
          return false;
        }
      },
      async setTags(id, tags) {
        try {
          const item = await api.invoke('library.setTags', { id, tags });
          set({ items: get().items.map((it) => (it?.id === id ? item : it)) });
        } catch (err) {
          toast(errorMessage(err), 'error');
        }
      },
      async remove(ids, remote) {
        try {
          const res = await api.invoke('library.delete', { ids, remote });
          set({ selected: {} });
          toast(`Deleted ${res.deleted} ${res.deleted === 1 ? 'recording' : 'recordings'}.`, 'ok');
          for (const e of res.remoteErrors) toast(`Deleted here, but not on the service: ${e.message}`, 'error');
          await get().reset();
        } catch (err) {
          toast(errorMessage(err), 'error');
        }
      },
      async loadTags() {
        try {
          set({ tags: (await api.invoke('library.tags')).tags });
        } catch {
          set({ tags: [] });
        }
      },
      async checkWebhook(id) {
        await api.invoke('library.checkWebhook', { id });
      },
      importProgress: null,
      exportProgress: null,
      async makeBackup(dir) {
        set({ exportProgress: null });
        try {
          return await api.invoke('library.exportAll', { dir });
        } finally {
          set({ exportProgress: null });
        }
      },
      async importBackup(dir) {
        set({ importProgress: null });
        try {
          return await api.invoke('library.importAll', { dir });
        } finally {
          set({ importProgress: null });
        }
      },
      async cancelImport() {
        await api.invoke('library.importCancel', undefined).catch(() => undefined);
      },
    };
  };

export const useLibrary = create<LibraryState>()(libraryState(bridgeApi));

/** Refreshes the list when the library changes, and loads it on every (re)connect; called once from main.tsx (a test passes its own store). */
export function connectLibrary(api: VerbatimApi, store: StoreApi<LibraryState> = useLibrary): () => void {
  let refreshTimer: ReturnType<typeof setTimeout> | undefined;
  const offs = [
    api.on('library.changed', (c) => {
      // Coalesce bursts (a batch of jobs completing) into one refresh.
      clearTimeout(refreshTimer);
      refreshTimer = setTimeout(() => {
        const s = store.getState();
        if (c.reason === 'deleted' || c.reason === 'imported' || c.reason === 'added') void s.reset();
        else void s.refresh();
        void s.loadTags();
      }, 120);
    }),
    api.on('library.importProgress', (p) => store.setState({ importProgress: p })),
    api.on('library.exportProgress', (p) => store.setState({ exportProgress: p })),
    whenConnected(() => {
      void store.getState().reset();
      void store.getState().loadTags();
    }),
  ];
  return () => {
    clearTimeout(refreshTimer);
    offs.forEach((off) => off());
  };
}
