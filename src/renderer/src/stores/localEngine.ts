/** The local engine's state, as main reports it. */
import { create, type StateCreator } from 'zustand';
import type { EngineStatus } from '../../../shared/jobs';
import { api as bridgeApi, errorMessage } from '../bridge';
import type { VerbatimApi } from '../../../shared/ipc';
import { whenConnected } from './app';

interface EngineState {
  status: EngineStatus | null;
  error: string | null;
  load(): Promise<void>;
  start(): Promise<void>;
}

/** The store's state and actions over `api` (zustand's StateCreator, apart from create). */
export const engineState =
  (api: VerbatimApi): StateCreator<EngineState> =>
  (set) => ({
    status: null,
    error: null,
    async load() {
      try {
        set({ status: await api.invoke('engine.status'), error: null });
      } catch (err) {
        set({ error: errorMessage(err) });
      }
    },
    async start() {
      try {
        set({ status: await api.invoke('engine.start'), error: null });
      } catch (err) {
        set({ error: errorMessage(err) });
      }
    },
  });

export const useEngine = create<EngineState>()(engineState(bridgeApi));

/** Follows the local engine's status; called once from main.tsx. */
export function connectEngine(api: VerbatimApi): () => void {
  const offs = [api.on('engine.status', (status) => useEngine.setState({ status })), whenConnected(() => void useEngine.getState().load())];
  return () => offs.forEach((off) => off());
}
