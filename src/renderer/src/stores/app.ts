/** Which screen is shown, which app-wide dialog is open, the app's facts, and the connection to main. */
import { create, type StateCreator } from 'zustand';
import type { AppInfo, VerbatimApi } from '../../../shared/ipc';
import { api as bridgeApi, errorMessage, onConnectionState, type ConnectionState } from '../bridge';
import type { SubtitleFile } from '../lib/subtitleFile';

/** `subtitles`: the open transcript's cue editor, a screen of its own under the transcript's header. */
export type Screen = 'library' | 'transcript' | 'subtitles' | 'captions' | 'chat' | 'people' | 'models' | 'settings';

/**
 * A dialog that one feature opens and another draws (GitHub Desktop's PopupType union): features
 * ask with `show`, and DialogHost beside App renders the one open, so no feature imports another.
 */
export type DialogRequest =
  /** Export transcripts to files (the library's selection, or the open transcript). */
  | { kind: 'export'; ids: string[]; title?: string }
  /** A picked subtitle file: onto the open recording's cues (`onto`), or as a new library item. */
  | { kind: 'importSubtitles'; file: SubtitleFile; onto: boolean }
  /** Speech understanding of one recording's transcript (summary, chapters, translation, …). */
  | { kind: 'insights'; recordingId: string; title: string }
  /** A subtitle track translated into another language, same timings (the Subtitles view's Translate…). */
  | { kind: 'translateSubtitles'; recordingId: string };
export type DialogKind = DialogRequest['kind'];

/** The transcript being read, and where to start (a search hit's time). `nonce` re-seeks on a second open. */
export interface OpenTranscript {
  id: string;
  atMs: number | null;
  nonce: number;
  /** Start playing from atMs once the player is ready (a chat citation). */
  play?: boolean;
}

interface AppState {
  screen: Screen;
  open: OpenTranscript | null;
  info: AppInfo | null;
  connection: ConnectionState;
  loadError: string | null;
  /** The recording whose "Open" control should get focus back when the library shows again (after Back). */
  returnFocusTo: string | null;
  /** The app-wide dialog open now (at most one: a dialog is modal). */
  dialog: DialogRequest | null;
  show(dialog: DialogRequest): void;
  close(): void;
  setScreen(screen: Screen): void;
  openTranscript(id: string, atMs?: number | null, play?: boolean): void;
  /** Leave the transcript for the library, handing focus back to what opened it. */
  backToLibrary(): void;
  loadInfo(): Promise<void>;
}

let nonce = 0;
/** The store's state and actions over `api` (zustand's StateCreator, apart from create). */
export const appState =
  (api: VerbatimApi): StateCreator<AppState> =>
  (set) => ({
    screen: 'library',
    open: null,
    info: null,
    connection: 'connecting',
    loadError: null,
    returnFocusTo: null,
    dialog: null,
    show: (dialog) => set({ dialog }),
    close: () => set({ dialog: null }),
    setScreen: (screen) => set({ screen }),
    backToLibrary: () => set((s) => ({ screen: 'library', returnFocusTo: s.open?.id ?? null })),
    openTranscript: (id, atMs = null, play = false) => set({ screen: 'transcript', open: { id, atMs, nonce: ++nonce, play } }),
    async loadInfo() {
      try {
        set({ info: await api.invoke('app.info'), loadError: null });
      } catch (err) {
        set({ loadError: errorMessage(err) });
      }
    },
  });

export const useApp = create<AppState>()(appState(bridgeApi));

/** Hooks that want to refetch after a reconnect (main may have restarted) register here (from their store's connectX); the answer unregisters. */
const onReconnect = new Set<() => void>();
export function whenConnected(fn: () => void): () => void {
  onReconnect.add(fn);
  if (useApp.getState().connection === 'open') fn();
  return () => void onReconnect.delete(fn);
}

/** Follows the bridge's connection state (called once from main.tsx; importing this store opens nothing). */
export function connectApp(): () => void {
  return onConnectionState((connection) => {
    useApp.setState({ connection });
    if (connection === 'open') {
      void useApp.getState().loadInfo();
      for (const fn of onReconnect) fn();
    }
  });
}
