import { create } from 'zustand';
import type { AppInfo } from '../../../shared/ipc';
import { api, errorMessage, onConnectionState, type ConnectionState } from '../bridge';

export type Screen = 'library' | 'captions' | 'chat' | 'settings';

interface AppState {
  screen: Screen;
  info: AppInfo | null;
  connection: ConnectionState;
  loadError: string | null;
  setScreen(screen: Screen): void;
  loadInfo(): Promise<void>;
}

export const useApp = create<AppState>((set) => ({
  screen: 'library',
  info: null,
  connection: 'connecting',
  loadError: null,
  setScreen: (screen) => set({ screen }),
  async loadInfo() {
    try {
      set({ info: await api.invoke('app.info'), loadError: null });
    } catch (err) {
      set({ loadError: errorMessage(err) });
    }
  },
}));

onConnectionState((connection) => {
  useApp.setState({ connection });
  if (connection === 'open') void useApp.getState().loadInfo();
});
