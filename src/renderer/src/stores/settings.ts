import { create } from 'zustand';
import { defaultSettings, type Settings, type SettingsPatch } from '../../../shared/settings';
import { api, errorMessage } from '../bridge';

interface SettingsState {
  settings: Settings;
  loaded: boolean;
  error: string | null;
  load(): Promise<void>;
  update(patch: SettingsPatch): Promise<void>;
}

export const useSettings = create<SettingsState>((set, get) => ({
  settings: defaultSettings,
  loaded: false,
  error: null,
  async load() {
    try {
      set({ settings: await api.invoke('settings.get'), loaded: true, error: null });
    } catch (err) {
      set({ error: errorMessage(err) });
    }
  },
  async update(patch) {
    const before = get().settings;
    set({ settings: { ...before, ...patch } }); // optimistic; main's answer is the truth
    try {
      set({ settings: await api.invoke('settings.set', patch), error: null });
    } catch (err) {
      set({ settings: before, error: errorMessage(err) });
    }
  },
}));

api.on('settings.changed', (settings) => useSettings.setState({ settings, loaded: true }));
