/** Local models: the catalog with install state, live download progress, the first-run offer, speeds measured here, and the actions of the Models screen. */
import { create, type StateCreator } from 'zustand';
import type { VerbatimApi } from '../../../shared/ipc';
import type { ModelOffer, SpeedTest } from '../../../shared/models/offer';
import type { DownloadStatus, ModelsList } from '../../../shared/models/view';
import { api as bridgeApi, errorMessage, uploadFile } from '../bridge';
import { whenConnected } from './app';

/** Where a speed test stands for one model. */
export type TestState = { state: 'running' } | { state: 'failed'; message: string };

export interface ModelsState {
  list: ModelsList | null;
  /** The latest progress of each download, by model id (events and action answers; the list's own `download` until one arrives). */
  progress: Record<string, DownloadStatus>;
  /** What the last row action said went wrong, in a sentence, or null. */
  error: string | null;
  /** What the last row action did ("Deleted …, 622 MB freed"), for the status line. */
  notice: string | null;
  /** Install from a file: its upload's progress (host mode), or null. */
  installing: { name: string; percent: number | null; for: string | null } | null;
  /** Install from a file: how the last one ended, shown beside its button. */
  installResult: { ok: boolean; text: string; for: string | null } | null;
  /** The first-run offer for this computer, or null until main answers. */
  offer: ModelOffer | null;
  /** Speeds measured on this computer, by model id. */
  speeds: Record<string, SpeedTest>;
  /** Speed tests running or failed, by model id. */
  tests: Record<string, TestState>;
  load(): Promise<void>;
  loadOffer(): Promise<void>;
  /** `direct`: from the publisher's address, past a download mirror whose file matched no published version. */
  download(id: string, direct?: boolean): Promise<void>;
  pause(id: string): Promise<void>;
  resume(id: string): Promise<void>;
  cancel(id: string): Promise<void>;
  remove(id: string, name: string): Promise<void>;
  setDefault(task: 'files' | 'live', id: string): Promise<boolean>;
  /** Install from a file; `id` names the model when the user chose it (two models can share an archive name). */
  installFile(file: File, id?: string): Promise<void>;
  acceptOffer(id: string): Promise<void>;
  dismissOffer(): Promise<void>;
  test(id: string): Promise<void>;
}

const sizeText = (n: number) => (n >= 1e9 ? `${(n / 1e9).toFixed(1)} GB` : n >= 1e6 ? `${Math.round(n / 1e6)} MB` : `${Math.round(n / 1e3)} kB`);

/** The system's language, for choosing a model when the language setting says nothing more than its default. */
const locale = () => (typeof navigator === 'undefined' ? undefined : navigator.language);

/** The store's state and actions over `api` (apart from create: a test builds one against a fake api). */
export const modelsState =
  (api: VerbatimApi): StateCreator<ModelsState> =>
  (set, get) => {
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
      installResult: null,
      offer: null,
      speeds: {},
      tests: {},
      async load() {
        try {
          const [list, speeds] = await Promise.all([api.invoke('models.list'), api.invoke('models.speeds')]);
          set({ list, speeds });
        } catch (err) {
          set({ error: errorMessage(err) });
        }
      },
      async loadOffer() {
        try {
          set({ offer: await api.invoke('models.offer', { locale: locale() }) });
        } catch {
          // No offer is no loss: the Models screen lists every model.
        }
      },
      download: (id, direct) => act(async () => track(await api.invoke('models.download', direct ? { id, direct } : { id })), false).then(() => undefined),
      pause: (id) => act(async () => track(await api.invoke('models.pause', { id })), false).then(() => undefined),
      resume: (id) => act(async () => track(await api.invoke('models.resume', { id })), false).then(() => undefined),
      cancel: (id) => act(async () => track(await api.invoke('models.cancel', { id }))).then(() => undefined),
      remove: (id, name) =>
        act(async () => {
          const { freedBytes } = await api.invoke('models.delete', { id });
          set((st) => ({ notice: `Deleted ${name}: ${sizeText(freedBytes)} freed.`, ...forgetTest(st, id) }));
        }).then(() => undefined),
      setDefault: (task, id) => act(() => api.invoke('models.setDefault', { task, id })),
      async installFile(file, id) {
        // `for`: the model whose row asked (its details show the result), or null for the screen's own button.
        const at = id ?? null;
        set({ installing: { name: file.name, percent: 0, for: at }, installResult: null });
        try {
          const source = await uploadFile(file, (p) =>
            set({ installing: { name: file.name, percent: p.total > 0 ? (100 * p.bytes) / p.total : null, for: at } }),
          );
          set({ installing: { name: file.name, percent: null, for: at } });
          const chosen = id ? { id } : {};
          const got = await api.invoke('models.installFile', { file: source.kind === 'path' ? source : { ...source, name: file.name }, ...chosen });
          const name = get().list?.models.find((r) => r.entry.id === got.id)?.entry.name ?? got.id;
          set((st) => ({ installResult: { ok: true, text: `Installed ${name} from ${file.name}.`, for: at }, ...forgetTest(st, got.id) }));
        } catch (err) {
          set({ installResult: { ok: false, text: errorMessage(err), for: at } });
        } finally {
          set({ installing: null });
          await get().load();
        }
      },
      async acceptOffer(id) {
        await act(async () => track(await api.invoke('models.acceptOffer', { id, locale: locale() })), false);
        await get().loadOffer();
      },
      async dismissOffer() {
        set((s) => ({ offer: s.offer && { ...s.offer, dismissed: true } }));
        await api.invoke('models.dismissOffer').catch(() => undefined);
      },
      async test(id) {
        set((s) => ({ tests: { ...s.tests, [id]: { state: 'running' } } }));
        try {
          const result = await api.invoke('models.test', { id });
          set((s) => {
            const { [id]: _done, ...tests } = s.tests;
            return { tests, speeds: { ...s.speeds, [id]: result } };
          });
        } catch (err) {
          set((s) => ({ tests: { ...s.tests, [id]: { state: 'failed', message: errorMessage(err) } } }));
        }
      },
    };
  };

export const useModels = create<ModelsState>()(modelsState(bridgeApi));

/** A test's outcome is of the copy it ran on: a model deleted or installed afresh drops it (a failure would otherwise stay beside the new copy). */
export function forgetTest(st: Pick<ModelsState, 'tests'>, id: string): Pick<ModelsState, 'tests'> {
  if (!(id in st.tests)) return { tests: st.tests };
  const { [id]: _old, ...tests } = st.tests;
  return { tests };
}

/**
 * Whether the first-run offer is for now: it names a model, no speech model is
 * installed, the user neither dismissed nor took it, and files are transcribed
 * on this computer (the local region, or a cloud region with no key).
 */
export function offerShown(offer: ModelOffer | null, region: string, keyPresent: boolean): boolean {
  if (!offer?.id || offer.dismissed || offer.accepted || offer.hasSpeechModel) return false;
  return region === 'local' || ((region === 'us' || region === 'eu') && !keyPresent);
}

/** Follows download progress and installs; called once from main.tsx. */
export function connectModels(bridge: VerbatimApi): () => void {
  const offs = [
    bridge.on('models.progress', (s) => {
      useModels.setState((st) => ({ progress: { ...st.progress, [s.id]: s }, ...(s.state === 'installed' ? forgetTest(st, s.id) : {}) }));
      if (s.state === 'installed' || s.state === 'failed' || s.state === 'canceled') void useModels.getState().load();
      if (s.state === 'installed') void useModels.getState().loadOffer();
    }),
    bridge.on('models.changed', () => {
      void useModels.getState().load();
      void useModels.getState().loadOffer();
    }),
    whenConnected(() => {
      void useModels.getState().load();
      void useModels.getState().loadOffer();
    }),
  ];
  return () => offs.forEach((off) => off());
}
