/** The library's storage: its size, and the audio retention rule of Settings applied or undone. */
import { create, type StateCreator } from 'zustand';
import type { VerbatimApi } from '../../../shared/ipc';
import type { RetentionRun, StorageUsage } from '../../../shared/ipc/storage';
import { api as bridgeApi, errorMessage } from '../bridge';
import { whenConnected } from './app';
import { toast } from './toasts';

interface StorageState {
  usage: StorageUsage | null;
  /** Applying the rule or undoing a run. */
  busy: boolean;
  error: string | null;
  load(): Promise<void>;
  /** Applies the saved rule now; answers what it removed. */
  apply(): Promise<RetentionRun | null>;
  undo(batchId: string): Promise<void>;
}

/** "1.2 GB", "340 MB", "12 KB". */
export function formatBytes(n: number): string {
  if (n < 1024) return `${n} bytes`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let v = n / 1024;
  let u = 0;
  while (v >= 1024 && u < units.length - 1) {
    v /= 1024;
    u++;
  }
  return `${v >= 10 ? Math.round(v) : v.toFixed(1)} ${units[u]}`;
}

/** The sentence a run's outcome shows. */
export function runSentence(run: RetentionRun): string {
  if (run.recordings === 0) return 'No recorded audio was due for removal.';
  return `Removed the audio of ${run.recordings} recording${run.recordings === 1 ? '' : 's'} (${formatBytes(run.bytes)}). Their transcripts stay. You can undo this until Verbatim restarts.`;
}

export const storageState =
  (api: VerbatimApi): StateCreator<StorageState> =>
  (set, get) => ({
    usage: null,
    busy: false,
    error: null,
    async load() {
      try {
        set({ usage: await api.invoke('storage.usage'), error: null });
      } catch {
        // Not connected yet: the next connection loads it.
      }
    },
    async apply() {
      set({ busy: true, error: null });
      try {
        const run = await api.invoke('storage.applyRetention');
        await get().load();
        return run;
      } catch (err) {
        set({ error: errorMessage(err) });
        return null;
      } finally {
        set({ busy: false });
      }
    },
    async undo(batchId) {
      set({ busy: true, error: null });
      try {
        const r = await api.invoke('storage.undoRetention', { batchId });
        await get().load();
        toast(`Brought back the audio of ${r.recordings} recording${r.recordings === 1 ? '' : 's'}.`, 'ok');
      } catch (err) {
        set({ error: errorMessage(err) });
      } finally {
        set({ busy: false });
      }
    },
  });

export const useStorage = create<StorageState>()(storageState(bridgeApi));

/** A run the hourly rule made on its own is told with an Undo; called once from main.tsx. */
export function connectStorage(api: VerbatimApi): () => void {
  const offs = [
    api.on('storage.retention', (run) => {
      void useStorage.getState().load();
      if (run.batchId) toast(runSentence(run), 'ok', { label: 'Undo', run: () => void useStorage.getState().undo(run.batchId!) });
    }),
    whenConnected(() => void useStorage.getState().load()),
  ];
  return () => offs.forEach((off) => off());
}
