/** Which screen is shown, the app's facts, and the connection to main. */
import { create, type StateCreator } from 'zustand';
import type { AppInfo, VerbatimApi } from '../../../shared/ipc';
import { api as bridgeApi, errorMessage, onConnectionState, type ConnectionState } from '../bridge';

export type Screen = 'library' | 'transcript' | 'captions' | 'chat' | 'models' | 'settings';

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
