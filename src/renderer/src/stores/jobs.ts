/**
 * The queue: durable jobs from main (files still on their way to main are in
 * the intake store). Upload progress lives in its own store so a progress
 * tick re-renders one bar, not the queue.
 */
import { create, type StateCreator } from 'zustand';
import type { Job, JobProgress } from '../../../shared/jobs';
import { isFinalStatus } from '../components/labels';
import { api as bridgeApi, errorCode, errorMessage } from '../bridge';
import type { VerbatimApi } from '../../../shared/ipc';
import { whenConnected } from './app';
import { toast } from './toasts';

interface JobsState {
  jobs: Record<string, Job>;
  /** Job ids, newest first. */
  order: string[];
  /** Jobs that were unfinished when the app (re)connected: they resumed after a restart. */
  resumed: Record<string, true>;
  loaded: boolean;
  error: string | null;
  load(markResumed: boolean): Promise<void>;
  upsert(job: Job): void;
  drop(id: string): void;
  cancel(id: string): Promise<void>;
  retry(id: string): Promise<void>;
  remove(id: string): Promise<void>;
  clearFinished(): Promise<void>;
  /** Transcribes a finished recording again with speaker labels, as a new version of the same item. */
  addSpeakers(recordingId: string): Promise<void>;
}

function sortIds(jobs: Record<string, Job>): string[] {
  return Object.values(jobs)
    .sort((a, b) => (a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : a.id < b.id ? 1 : -1))
    .map((j) => j.id);
}

export const isFinal = (j: Job) => isFinalStatus(j.status);

/**
 * When this page first saw each job completed (ms), so the queue can show a
 * finished row for a few seconds of the user's time, not of main's clock. A
 * job that finished long before the page loaded counts as seen long ago.
 */
const doneSeen = new Map<string, number>();
function noteDone(job: Job): void {
  if (job.status !== 'completed' || doneSeen.has(job.id)) return;
  const now = Date.now();
  const at = job.completedAt ? Date.parse(job.completedAt) : 0;
  doneSeen.set(job.id, now - at > 60_000 ? 0 : now);
}
export const doneSeenAt = (id: string): number => doneSeen.get(id) ?? 0;

/** The store's state and actions over `api` (zustand's StateCreator, apart from create). */
export const jobsState =
  (api: VerbatimApi): StateCreator<JobsState> =>
  (set, get) => {
    async function act(id: string, fn: () => Promise<unknown>): Promise<void> {
      try {
        await fn();
      } catch (err) {
        toast(errorMessage(err), 'error');
        if (errorCode(err) === 'not_found') get().drop(id);
      }
    }
    return {
      jobs: {},
      order: [],
      resumed: {},
      loaded: false,
      error: null,
      async load(markResumed) {
        try {
          const { jobs } = await api.invoke('jobs.list', { includeFinished: true, limit: 200 });
          const map: Record<string, Job> = {};
          for (const j of jobs) {
            map[j.id] = j;
            noteDone(j);
          }
          const resumed = { ...get().resumed };
          for (const j of jobs) {
            // main marks the jobs it resumed at start; a reconnect to a restarted main tells us too.
            const resumedAt = j.resumedAt;
            if (resumedAt || (markResumed && !isFinal(j) && j.status !== 'queued')) resumed[j.id] = true;
          }
          set({ jobs: map, order: sortIds(map), loaded: true, error: null, resumed });
        } catch (err) {
          set({ error: errorMessage(err) });
        }
      },
      upsert(job) {
        noteDone(job);
        if (job.resumedAt && !get().resumed[job.id]) set({ resumed: { ...get().resumed, [job.id]: true } });
        const jobs = { ...get().jobs, [job.id]: job };
        const order = get().jobs[job.id] ? get().order : sortIds(jobs);
        set({ jobs, order });
      },
      drop(id) {
        if (!get().jobs[id]) return;
        const jobs = { ...get().jobs };
        delete jobs[id];
        set({ jobs, order: get().order.filter((x) => x !== id) });
        useJobProgress.getState().clear(id);
      },
      cancel: (id) => act(id, async () => get().upsert(await api.invoke('jobs.cancel', { id }))),
      retry: (id) =>
        act(id, async () => {
          const job = await api.invoke('jobs.retry', { id });
          const resumed = { ...get().resumed };
          delete resumed[id];
          set({ resumed });
          get().upsert(job);
        }),
      remove: (id) =>
        act(id, async () => {
          await api.invoke('jobs.remove', { id });
          get().drop(id);
        }),
      async clearFinished() {
        // Failed jobs stay: they wait for Retry or Remove.
        const done = Object.values(get().jobs).filter((j) => j.status === 'completed' || j.status === 'canceled');
        await Promise.all(done.map((j) => get().remove(j.id)));
      },
      async addSpeakers(recordingId) {
        await api.invoke('jobs.addSpeakers', { id: recordingId });
      },
    };
  };

export const useJobs = create<JobsState>()(jobsState(bridgeApi));

/** Upload progress per job or intake id. */
interface ProgressState {
  byId: Record<string, JobProgress>;
  put(p: JobProgress): void;
  clear(id: string): void;
}
export const useJobProgress = create<ProgressState>((set, get) => ({
  byId: {},
  put: (p) => set({ byId: { ...get().byId, [p.id]: p } }),
  clear(id) {
    if (!(id in get().byId)) return;
    const byId = { ...get().byId };
    delete byId[id];
    set({ byId });
  },
}));

/** Follows main's job events and reloads the list on every (re)connect; called once from main.tsx. */
export function connectJobs(api: VerbatimApi): () => void {
  let firstConnect = true;
  const offs = [
    api.on('jobs.progress', (p) => useJobProgress.getState().put(p)),
    api.on('jobs.changed', ({ id, job }) => {
      if (job) useJobs.getState().upsert(job);
      else useJobs.getState().drop(id);
      if (job && isFinal(job)) useJobProgress.getState().clear(id);
    }),
    whenConnected(() => {
      // After a reconnect main may have restarted: every unfinished job it lists has resumed.
      void useJobs.getState().load(!firstConnect);
      firstConnect = false;
    }),
  ];
  return () => offs.forEach((off) => off());
}
