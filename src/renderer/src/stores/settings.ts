/** The settings object, updated optimistically; main's answer is the truth. */
import { create, type StateCreator } from 'zustand';
import type { SettingsPatch, SettingsView } from '../../../shared/settings';
import { initialSettings } from '../components/labels';
import { api as bridgeApi, errorCode, errorMessage } from '../bridge';
import type { VerbatimApi } from '../../../shared/ipc';
import { whenConnected } from './app';

/** main's refusal of a value carries the channel and schema path; the user needs only to know it was not saved. */
function settingsError(err: unknown): string {
  if (errorCode(err) === 'bad_request') return 'That value was not saved: Verbatim could not accept it. Check the field marked below.';
  return `Settings could not be saved: ${errorMessage(err)}`;
}

interface SettingsState {
  settings: SettingsView;
  loaded: boolean;
  error: string | null;
  load(): Promise<void>;
  update(patch: SettingsPatch): Promise<boolean>;
}

/** The store's state and actions over `api` (zustand's StateCreator, apart from create). */
export const settingsState =
  (api: VerbatimApi): StateCreator<SettingsState> =>
  (set, get) => ({
    settings: initialSettings,
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
      // A secret is sent once and never kept here: main answers only whether one is saved.
      const { webhookAuthHeaderValue: secret, ...visible } = patch;
      set({ settings: { ...before, ...visible, ...(secret !== undefined ? { webhookAuthHeaderSaved: secret !== '' } : {}) } });
      try {
        set({ settings: await api.invoke('settings.set', patch), error: null });
        return true;
      } catch (err) {
        set({ settings: before, error: settingsError(err) });
        return false;
      }
    },
  });

export const useSettings = create<SettingsState>()(settingsState(bridgeApi));

/** Follows settings changed elsewhere (another window, main); called once from main.tsx. */
export function connectSettings(api: VerbatimApi): () => void {
  const offs = [
    api.on('settings.changed', (settings) => useSettings.setState({ settings, loaded: true })),
    whenConnected(() => void useSettings.getState().load()),
  ];
  return () => offs.forEach((off) => off());
}
