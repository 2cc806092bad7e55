/** Local models: the catalog with install state, live download progress, and the actions of the Models screen. */
import { create } from 'zustand';
import type { VerbatimApi } from '../../../shared/ipc';
import type { DownloadStatus, ModelsList } from '../../../shared/models/view';
import { api, errorMessage, uploadFile } from '../bridge';
import { whenConnected } from './app';

export interface ModelsState {
  list: ModelsList | null;
  /** The latest progress of each download, by model id (events and action answers; the list's own `download` until one arrives). */
  progress: Record<string, DownloadStatus>;
  /** What the last action said went wrong, in a sentence, or null. */
  error: string | null;
  /** What the last action did ("Deleted …, 622 MB freed"), for the status line. */
  notice: string | null;
  /** Install from a file: its upload's progress (host mode), or null. */
  installing: { name: string; percent: number | null } | null;
  load(): Promise<void>;
  download(id: string): Promise<void>;
  pause(id: string): Promise<void>;
  resume(id: string): Promise<void>;
  cancel(id: string): Promise<void>;
  remove(id: string, name: string): Promise<void>;
  setDefault(task: 'files' | 'live', id: string): Promise<boolean>;
  installFile(file: File): Promise<void>;
}

const sizeText = (n: number) => (n >= 1e9 ? `${(n / 1e9).toFixed(1)} GB` : n >= 1e6 ? `${Math.round(n / 1e6)} MB` : `${Math.round(n / 1e3)} kB`);

export const useModels = create<ModelsState>((set, get) => {
  /** Run an action; its error goes to `error`, and the list is fetched again after. */
  const act = async (fn: () => Promise<unknown>, reload = true): Promise<boolean> => {
    try {
      set({ error: null });
      await fn();
      return true;
    } catch (err) {
      set({ error: errorMessage(err) });
      return false;
    } finally {
      if (reload) await get().load();
    }
  };
  const track = (s: DownloadStatus | null) => s && set((st) => ({ progress: { ...st.progress, [s.id]: s } }));
  return {
    list: null,
    progress: {},
    error: null,
    notice: null,
    installing: null,
    async load() {
      try {
        set({ list: await api.invoke('models.list') });
      } catch (err) {
        set({ error: errorMessage(err) });
      }
    },
    download: (id) => act(async () => track(await api.invoke('models.download', { id })), false).then(() => undefined),
    pause: (id) => act(async () => track(await api.invoke('models.pause', { id })), false).then(() => undefined),
    resume: (id) => act(async () => track(await api.invoke('models.resume', { id })), false).then(() => undefined),
    cancel: (id) => act(async () => track(await api.invoke('models.cancel', { id }))).then(() => undefined),
    remove: (id, name) =>
      act(async () => {
        const { freedBytes } = await api.invoke('models.delete', { id });
        set({ notice: `Deleted ${name}: ${sizeText(freedBytes)} freed.` });
      }).then(() => undefined),
    setDefault: (task, id) => act(() => api.invoke('models.setDefault', { task, id })),
    installFile: (file) =>
      act(async () => {
        set({ installing: { name: file.name, percent: 0 }, notice: null });
        try {
          const source = await uploadFile(file, (p) => set({ installing: { name: file.name, percent: p.total > 0 ? (100 * p.bytes) / p.total : null } }));
          set({ installing: { name: file.name, percent: null } });
          const { id } = await api.invoke(
            'models.installFile',
            source.kind === 'path' ? { path: source.path } : { uploadId: source.uploadId, name: file.name },
          );
          set({ notice: `Installed ${id} from ${file.name}.` });
        } finally {
          set({ installing: null });
        }
      }).then(() => undefined),
  };
});

/** Follows download progress and installs; called once from main.tsx. */
export function connectModels(bridge: VerbatimApi): () => void {
  const offs = [
    bridge.on('models.progress', (s) => {
      useModels.setState((st) => ({ progress: { ...st.progress, [s.id]: s } }));
      if (s.state === 'installed' || s.state === 'failed' || s.state === 'canceled') void useModels.getState().load();
    }),
    bridge.on('models.changed', () => void useModels.getState().load()),
    whenConnected(() => void useModels.getState().load()),
  ];
  return () => offs.forEach((off) => off());
}
