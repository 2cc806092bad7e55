/** The cloud key's status (never the key): present, masked, verified, last error. */
import { create, type StateCreator } from 'zustand';
import type { KeyStatus, VerbatimApi } from '../../../shared/ipc';
import { api as bridgeApi, errorCode, errorMessage } from '../bridge';
import { whenConnected } from './app';

interface KeysState {
  status: KeyStatus | null;
  busy: 'set' | 'verify' | 'remove' | null;
  /** The last action's failure, for the key form. */
  error: { code: string | null; message: string } | null;
  load(): Promise<void>;
  set(key: string, region?: 'us' | 'eu' | 'custom'): Promise<boolean>;
  verify(): Promise<void>;
  remove(): Promise<void>;
  clearError(): void;
}

/** The store's state and actions over `api` (zustand's StateCreator, apart from create). */
export const keysState =
  (api: VerbatimApi): StateCreator<KeysState> =>
  (set) => {
    async function run(kind: 'set' | 'verify' | 'remove', fn: () => Promise<KeyStatus>): Promise<boolean> {
      set({ busy: kind, error: null });
      try {
        set({ status: await fn(), busy: null });
        return true;
      } catch (err) {
        set({ busy: null, error: { code: errorCode(err), message: errorMessage(err) } });
        return false;
      }
    }
    return {
      status: null,
      busy: null,
      error: null,
      async load() {
        try {
          set({ status: await api.invoke('keys.status') });
        } catch (err) {
          set({ error: { code: errorCode(err), message: errorMessage(err) } });
        }
      },
      set: (key, region) => run('set', () => api.invoke('keys.set', region ? { key, region } : { key })),
      verify: async () => void (await run('verify', () => api.invoke('keys.verify'))),
      remove: async () => void (await run('remove', () => api.invoke('keys.remove'))),
      clearError: () => set({ error: null }),
    };
  };

export const useKeys = create<KeysState>()(keysState(bridgeApi));

/** Follows the key's status; called once from main.tsx. */
export function connectKeys(api: VerbatimApi): () => void {
  const offs = [api.on('keys.changed', (status) => useKeys.setState({ status })), whenConnected(() => void useKeys.getState().load())];
  return () => offs.forEach((off) => off());
}
