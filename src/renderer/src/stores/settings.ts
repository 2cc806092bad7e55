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
  /** Main told of settings changed (settings.changed): taken unless a change made here is still on its way. */
  changed(settings: SettingsView): void;
}

/** The store's state and actions over `api` (zustand's StateCreator, apart from create). */
export const settingsState =
  (api: VerbatimApi): StateCreator<SettingsState> =>
  (set, get) => {
    // Each answer from main is the whole of its settings at that moment, and must not undo a change made here that it
    // does not hold yet: on a busy machine the first load's answer came after the user picked "Custom", put the region
    // back for a moment, and the address they were typing went with the field it unmounted. A load's answer is taken
    // only when no change was made here since it was asked for, and a change's answer only when it is the latest change
    // (the order main answers in is not always the order asked: calls made before the bridge opens go after its first load).
    let updates = 0;
    let updating = 0;
    return {
      settings: initialSettings,
      loaded: false,
      error: null,
      async load() {
        const at = updates;
        try {
          const settings = await api.invoke('settings.get');
          set(updating === 0 && updates === at ? { settings, loaded: true, error: null } : { loaded: true });
        } catch (err) {
          set({ error: errorMessage(err) });
        }
      },
      async update(patch) {
        const mine = ++updates;
        updating++;
        const before = get().settings;
        // A secret is sent once and never kept here: main answers only whether one is saved.
        const { webhookAuthHeaderValue: secret, ...visible } = patch;
        set({ settings: { ...before, ...visible, ...(secret !== undefined ? { webhookAuthHeaderSaved: secret !== '' } : {}) } });
        try {
          const settings = await api.invoke('settings.set', patch);
          set(mine === updates ? { settings, loaded: true, error: null } : { error: null });
          return true;
        } catch (err) {
          // Refused: this change is taken back (a later one, still on its way, brings main's settings when it is answered).
          set(mine === updates ? { settings: before, error: settingsError(err) } : { error: settingsError(err) });
          return false;
        } finally {
          updating--;
        }
      },
      changed(settings) {
        if (updating === 0) set({ settings, loaded: true });
      },
    };
  };

export const useSettings = create<SettingsState>()(settingsState(bridgeApi));

/** Follows settings changed elsewhere (another window, main); called once from main.tsx. */
export function connectSettings(api: VerbatimApi): () => void {
  const offs = [api.on('settings.changed', (settings) => useSettings.getState().changed(settings)), whenConnected(() => void useSettings.getState().load())];
  return () => offs.forEach((off) => off());
}
