/**
 * Chats over recordings: the saved list (searchable), the open chat with its
 * messages, the answer being written (pieces appended as they arrive), what
 * each chat is doing (thinking, streaming, waiting out a rate limit), the
 * region's models, and the gateway's rate-limit state.
 */
import { create, type StateCreator, type StoreApi } from 'zustand';
import type { ChatDetail, ChatMessage, ChatModel, ChatState, ChatSummary, Insight } from '../../../shared/chat/schema';
import type { Input, VerbatimApi } from '../../../shared/ipc';
import type { RateLimit } from '../../../shared/jobs';
import { api as bridgeApi, errorMessage, saveText } from '../bridge';
import { useApp, whenConnected } from './app';
import { toast } from './toasts';

/** A recording a new chat can be about. */
export interface ChatRecordingRef {
  id: string;
  title: string;
}

/** What the next new chat asks about: the whole library (the default) or some recordings. */
export type ChatTarget = { scope: 'library' } | { scope: 'recordings'; recordings: ChatRecordingRef[] };

export interface ChatStoreState {
  chats: ChatSummary[];
  listLoaded: boolean;
  query: string;
  current: ChatDetail | null;
  loading: boolean;
  error: string | null;
  models: ChatModel[];
  defaultModel: string | null;
  modelsError: string | null;
  states: Record<string, ChatState>;
  rateLimit: RateLimit | null;
  /** Bumped when a new chat opens: its composer takes focus. */
  focusKey: number;
  /** What a question asked with no chat open starts a chat about. */
  target: ChatTarget;
  /** The recordings of the last chat about recordings, offered again by the scope control. */
  recent: ChatRecordingRef[];
  /** The model a question asked with no chat open starts with (null: the region's default). */
  draftModel: string | null;
  /** The composer's text (kept when the scope changes). */
  draft: string;
  setDraft(text: string): void;
  /** Close the open chat: the composer asks a new one about `target`. */
  startNew(target: ChatTarget): void;
  /** Ask in the open chat, or start a chat about `target` and ask there. */
  ask(text: string): Promise<boolean>;
  loadList(): Promise<void>;
  setQuery(q: string): void;
  loadModels(fresh?: boolean): Promise<void>;
  open(id: string): Promise<void>;
  close(): void;
  create(input: { scope: 'recordings' | 'library'; recordingIds?: string[]; model?: string }): Promise<ChatDetail | null>;
  send(text: string): Promise<boolean>;
  stop(): Promise<void>;
  rename(id: string, title: string): Promise<void>;
  remove(id: string): Promise<boolean>;
  setModel(model: string): Promise<void>;
  exportMarkdown(id: string): Promise<void>;
  /** A new chat about these recordings (null: the whole library), then the Chat screen; false when it could not be made. */
  askAbout(recordingIds: string[] | null): Promise<boolean>;
  /** A recording's saved speech-understanding results. */
  insightsOf(recordingId: string): Promise<Insight[]>;
  /** Runs one speech-understanding action and answers the saved result. */
  runInsight(input: Input<'insights.run'>): Promise<Insight>;
  /** Stops the action running on a recording. */
  stopInsight(recordingId: string): Promise<void>;
  /** Parts read by the action running on each recording (`done` of `total`). */
  insightProgress: Record<string, { done: number; total: number }>;
}

function replaceMessage(messages: ChatMessage[], m: ChatMessage): ChatMessage[] {
  const i = messages.findIndex((x) => x.id === m.id);
  if (i < 0) return [...messages, m];
  const next = messages.slice();
  next[i] = m;
  return next;
}

/** The store's state and actions over `api` (zustand's StateCreator, apart from create: a test builds one against a fake api). */
export const chatState =
  (api: VerbatimApi): StateCreator<ChatStoreState> =>
  (set, get) => {
    let listSeq = 0;
    let openSeq = 0;
    return {
      chats: [],
      listLoaded: false,
      query: '',
      current: null,
      loading: false,
      error: null,
      models: [],
      defaultModel: null,
      modelsError: null,
      states: {},
      rateLimit: null,
      focusKey: 0,
      target: { scope: 'library' },
      recent: [],
      draftModel: null,
      draft: '',
      setDraft(draft) {
        set({ draft });
      },
      startNew(target) {
        openSeq++;
        set((s) => ({
          current: null,
          loading: false,
          error: null,
          target,
          recent: target.scope === 'recordings' && target.recordings.length ? target.recordings : s.recent,
          focusKey: s.focusKey + 1,
        }));
      },
      async askAbout(recordingIds) {
        const chat = await get().create(recordingIds === null ? { scope: 'library' } : { scope: 'recordings', recordingIds });
        if (!chat) return false;
        useApp.getState().setScreen('chat');
        return true;
      },
      insightsOf: async (recordingId) => (await api.invoke('insights.list', { id: recordingId })).insights,
      runInsight: async (input) => {
        try {
          return await api.invoke('insights.run', input);
        } finally {
          set((s) => {
            const { [input.id]: _gone, ...rest } = s.insightProgress;
            return { insightProgress: rest };
          });
        }
      },
      async stopInsight(recordingId) {
        await api.invoke('insights.stop', { id: recordingId });
      },
      insightProgress: {},
      async ask(text) {
        const q = text.trim();
        if (!q) return false;
        if (!get().current) {
          const { target, draftModel } = get();
          const input =
            target.scope === 'library' ? { scope: 'library' as const } : { scope: 'recordings' as const, recordingIds: target.recordings.map((r) => r.id) };
          if (!(await get().create(draftModel ? { ...input, model: draftModel } : input))) return false;
        }
        if (!(await get().send(q))) return false;
        set({ draft: '' });
        return true;
      },
      async loadList() {
        const mine = ++listSeq;
        try {
          const q = get().query.trim();
          const { chats } = await api.invoke('chat.list', q ? { query: q } : {});
          if (mine === listSeq) set({ chats, listLoaded: true });
        } catch (err) {
          if (mine === listSeq) set({ listLoaded: true, error: errorMessage(err) });
        }
      },
      setQuery(query) {
        set({ query });
        void get().loadList();
      },
      async loadModels(fresh = false) {
        try {
          const r = await api.invoke('chat.models', { fresh });
          set({ models: r.models, defaultModel: r.defaultModel, modelsError: null });
        } catch (err) {
          set({ modelsError: errorMessage(err) });
        }
      },
      async open(id) {
        const mine = ++openSeq;
        set({ loading: get().current?.id !== id, error: null });
        try {
          const chat = await api.invoke('chat.get', { id });
          if (mine === openSeq)
            set((s) => ({ current: chat, loading: false, focusKey: s.focusKey + 1, recent: chat.recordings.length ? chat.recordings : s.recent }));
        } catch (err) {
          if (mine === openSeq) set({ loading: false, error: errorMessage(err) });
        }
      },
      close() {
        openSeq++;
        set({ current: null, error: null });
      },
      async create(input) {
        try {
          const chat = await api.invoke('chat.create', input);
          set((s) => ({
            current: chat,
            error: null,
            focusKey: s.focusKey + 1,
            recent: chat.recordings.length ? chat.recordings : s.recent,
            chats: [chat, ...s.chats.filter((c) => c.id !== chat.id)],
          }));
          return chat;
        } catch (err) {
          toast(errorMessage(err), 'error');
          return null;
        }
      },
      async send(text) {
        const chat = get().current;
        if (!chat) return false;
        try {
          const { question, answer } = await api.invoke('chat.send', { id: chat.id, text });
          const cur = get().current;
          if (cur?.id === chat.id) set({ current: { ...cur, messages: replaceMessage(replaceMessage(cur.messages, question), answer) } });
          return true;
        } catch (err) {
          toast(errorMessage(err), 'error');
          return false;
        }
      },
      async stop() {
        const chat = get().current;
        if (chat) await api.invoke('chat.stop', { id: chat.id }).catch((err: unknown) => toast(errorMessage(err), 'error'));
      },
      async rename(id, title) {
        try {
          const s = await api.invoke('chat.rename', { id, title });
          set((st) => ({ chats: st.chats.map((c) => (c.id === id ? s : c)), current: st.current?.id === id ? { ...st.current, title: s.title } : st.current }));
        } catch (err) {
          toast(errorMessage(err), 'error');
        }
      },
      async remove(id) {
        try {
          await api.invoke('chat.delete', { id });
          set((s) => ({ chats: s.chats.filter((c) => c.id !== id), current: s.current?.id === id ? null : s.current }));
          return true;
        } catch (err) {
          toast(errorMessage(err), 'error');
          return false;
        }
      },
      async setModel(model) {
        const chat = get().current;
        if (!chat) return;
        set({ current: { ...chat, model } });
        try {
          await api.invoke('chat.setModel', { id: chat.id, model });
        } catch (err) {
          toast(errorMessage(err), 'error');
        }
      },
      async exportMarkdown(id) {
        try {
          const out = await api.invoke('chat.export', { id });
          saveText(out.filename, out.mime, out.content);
          toast(`Saved ${out.filename} to your downloads.`, 'ok');
        } catch (err) {
          toast(errorMessage(err), 'error');
        }
      },
    };
  };

export const useChat = create<ChatStoreState>()(chatState(bridgeApi));

/** Follows answers as they stream, chat states and the list; called once from main.tsx (a test passes its own store). */
export function connectChat(api: VerbatimApi, store: StoreApi<ChatStoreState> = useChat): () => void {
  let listTimer: ReturnType<typeof setTimeout> | null = null;
  function refreshListSoon(): void {
    if (listTimer) return;
    listTimer = setTimeout(() => {
      listTimer = null;
      void store.getState().loadList();
    }, 150);
  }
  const offs = [
    api.on('chat.delta', ({ chatId, messageId, text }) => {
      const cur = store.getState().current;
      if (cur?.id !== chatId) return;
      const m = cur.messages.find((x) => x.id === messageId);
      const base: ChatMessage = m ?? {
        id: messageId,
        role: 'assistant',
        content: '',
        createdAt: new Date().toISOString(),
        status: 'streaming',
        error: null,
        model: cur.model,
        citations: [],
        sources: [],
      };
      store.setState({ current: { ...cur, messages: replaceMessage(cur.messages, { ...base, content: base.content + text, status: 'streaming' }) } });
    }),
    api.on('chat.message', ({ chatId, message }) => {
      const cur = store.getState().current;
      if (cur?.id === chatId) store.setState({ current: { ...cur, model: message.model ?? cur.model, messages: replaceMessage(cur.messages, message) } });
    }),
    api.on('chat.state', (s) => store.setState((st) => ({ states: { ...st.states, [s.chatId]: s } }))),
    api.on('chat.changed', () => refreshListSoon()),
    api.on('insights.progress', (p) =>
      store.setState((st) => ({ insightProgress: { ...st.insightProgress, [p.recordingId]: { done: p.done, total: p.total } } })),
    ),
    api.on('gateway.rateLimit', (r) => store.setState({ rateLimit: r })),
    // The region decides the models: a switch in Settings lists others.
    api.on('settings.changed', () => void store.getState().loadModels(true)),
    whenConnected(() => {
      void store.getState().loadList();
      const cur = store.getState().current;
      if (cur) void store.getState().open(cur.id);
    }),
  ];
  return () => {
    if (listTimer) clearTimeout(listTimer);
    offs.forEach((off) => off());
  };
}
