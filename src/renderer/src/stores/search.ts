/** Library-wide full-text search: the query, its hits, and how long it took. */
import { create, type StateCreator } from 'zustand';
import type { VerbatimApi } from '../../../shared/ipc';
import type { SearchHit } from '../../../shared/library';
import { api as bridgeApi, errorMessage } from '../bridge';

interface SearchState {
  query: string;
  hits: SearchHit[];
  tookMs: number | null;
  loading: boolean;
  error: string | null;
  setQuery(q: string): void;
  run(): Promise<void>;
  clear(): void;
}

let timer: ReturnType<typeof setTimeout> | undefined;
let seq = 0;

/** The store's state and actions over `api` (zustand's StateCreator, apart from create). */
export const searchState =
  (api: VerbatimApi): StateCreator<SearchState> =>
  (set, get) => ({
    query: '',
    hits: [],
    tookMs: null,
    loading: false,
    error: null,
    setQuery(query) {
      set({ query });
      clearTimeout(timer);
      if (!query.trim()) return set({ hits: [], tookMs: null, loading: false, error: null });
      set({ loading: true });
      timer = setTimeout(() => void get().run(), 160);
    },
    async run() {
      const q = get().query.trim();
      if (!q) return;
      const mine = ++seq;
      try {
        const res = await api.invoke('search.query', { query: q, limit: 50, offset: 0 });
        if (mine === seq) set({ hits: res.hits, tookMs: res.tookMs, loading: false, error: null });
      } catch (err) {
        if (mine === seq) set({ hits: [], loading: false, error: errorMessage(err) });
      }
    },
    clear() {
      clearTimeout(timer);
      seq++;
      set({ query: '', hits: [], tookMs: null, loading: false, error: null });
    },
  });

export const useSearch = create<SearchState>()(searchState(bridgeApi));
