/** Library-wide full-text search: the query, the person it is narrowed to (a remembered voice), its hits, and how long it took. */
import { create, type StateCreator } from 'zustand';
import type { VerbatimApi } from '../../../shared/ipc';
import type { SearchHit } from '../../../shared/library';
import { api as bridgeApi, errorMessage } from '../bridge';

/** A remembered voice the search is narrowed to: only what that person said. */
export interface SearchPerson {
  id: string;
  name: string;
}

interface SearchState {
  query: string;
  person: SearchPerson | null;
  hits: SearchHit[];
  tookMs: number | null;
  loading: boolean;
  error: string | null;
  setQuery(q: string): void;
  /** Narrows the search to one person's sentences (null: everyone's); runs it again when there is a query. */
  setPerson(person: SearchPerson | null): void;
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
    person: null,
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
    setPerson(person) {
      const same = person?.id === get().person?.id;
      if (same && person?.name === get().person?.name) return;
      set({ person });
      // A new name of the same voice changes no hit.
      if (same || !get().query.trim()) return;
      clearTimeout(timer);
      set({ loading: true });
      void get().run();
    },
    async run() {
      const q = get().query.trim();
      if (!q) return;
      const mine = ++seq;
      const voiceId = get().person?.id;
      try {
        const res = await api.invoke('search.query', { query: q, limit: 50, offset: 0, ...(voiceId ? { voiceId } : {}) });
        if (mine === seq) set({ hits: res.hits, tookMs: res.tookMs, loading: false, error: null });
      } catch (err) {
        if (mine === seq) set({ hits: [], loading: false, error: errorMessage(err) });
      }
    },
    clear() {
      clearTimeout(timer);
      seq++;
      set({ query: '', person: null, hits: [], tookMs: null, loading: false, error: null });
    },
  });

export const useSearch = create<SearchState>()(searchState(bridgeApi));
