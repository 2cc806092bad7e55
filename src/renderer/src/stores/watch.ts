/** Watch folders: the list, which jobs came from which folder, and the actions on them. */
import { create, type StateCreator } from 'zustand';
import type { VerbatimApi } from '../../../shared/ipc';
import type { WatchFolder, WatchOptions } from '../../../shared/ipc/watch';
import { api as bridgeApi, errorMessage } from '../bridge';
import { whenConnected } from './app';
import { toast } from './toasts';

interface WatchState {
  folders: WatchFolder[];
  /** Job id → folder id. */
  origins: Record<string, string>;
  loaded: boolean;
  load(): Promise<void>;
  /** Answers the refusal's words, or null when the folder is watched. */
  add(path: string, options: WatchOptions): Promise<string | null>;
  update(id: string, change: { options?: WatchOptions; paused?: boolean }): Promise<void>;
  pauseAll(paused: boolean): Promise<void>;
  remove(id: string): Promise<void>;
  /** The desktop's folder dialog; null when canceled (or in host mode). */
  pick(): Promise<string | null>;
}

export const watchState =
  (api: VerbatimApi): StateCreator<WatchState> =>
  (set, get) => ({
    folders: [],
    origins: {},
    loaded: false,
    async load() {
      try {
        const r = await api.invoke('watch.list');
        set({ folders: r.folders, origins: r.origins, loaded: true });
      } catch {
        // Not connected yet: the next connection loads it.
      }
    },
    async add(path, options) {
      try {
        await api.invoke('watch.add', { path, options });
        await get().load();
        return null;
      } catch (err) {
        return errorMessage(err);
      }
    },
    async update(id, change) {
      try {
        await api.invoke('watch.update', { id, ...change });
        await get().load();
      } catch (err) {
        toast(errorMessage(err), 'error');
      }
    },
    async pauseAll(paused) {
      try {
        await api.invoke('watch.pauseAll', { paused });
        await get().load();
      } catch (err) {
        toast(errorMessage(err), 'error');
      }
    },
    async pick() {
      try {
        return (await api.invoke('watch.pickFolder')).path;
      } catch (err) {
        toast(errorMessage(err), 'error');
        return null;
      }
    },
    async remove(id) {
      try {
        await api.invoke('watch.remove', { id });
        await get().load();
      } catch (err) {
        toast(errorMessage(err), 'error');
      }
    },
  });

export const useWatch = create<WatchState>()(watchState(bridgeApi));

/** Follows main's watch folders (a file taken, a folder paused elsewhere); called once from main.tsx. */
export function connectWatch(api: VerbatimApi): () => void {
  const offs = [api.on('watch.changed', () => void useWatch.getState().load()), whenConnected(() => void useWatch.getState().load())];
  return () => offs.forEach((off) => off());
}
