/**
 * Intake: files on their way to main. Each accepted file is staged (host mode
 * uploads its bytes; Electron passes its path) and becomes a durable job in
 * the jobs store. Two files stage at a time; a failure stays in the queue with
 * a retry and never stops the rest of the batch. Skipped files are listed
 * with their reasons.
 */
import { create, type StateCreator } from 'zustand';
import type { VerbatimApi } from '../../../shared/ipc';
import { api as bridgeApi, errorCode, errorMessage, uploadFile } from '../bridge';
import type { Collected } from '../lib/collect';
import { probeDurationMs } from '../lib/probe';
import { useJobProgress, useJobs } from './jobs';
import { toast } from './toasts';

export interface IntakeItem {
  id: string;
  name: string;
  size: number;
  /** Read from the file's header by the browser; null until known (or if it cannot tell). */
  durationMs: number | null;
  state: 'waiting' | 'staging' | 'adding' | 'failed';
  error: { code: string | null; message: string } | null;
  file: File;
}

export interface SkippedFile {
  name: string;
  reason: string;
}

interface IntakeState {
  items: IntakeItem[];
  skipped: SkippedFile[];
  /** Queue what a drop or pick collected. */
  add(c: Collected): void;
  retry(id: string): void;
  /** Stop staging (or drop a failed item). */
  cancel(id: string): void;
  /** A job for a public URL; answers the error text, or null when added. */
  addUrl(url: string, name?: string): Promise<string | null>;
  clearSkipped(): void;
}

const STAGING_AT_ONCE = 2;

/** The store's state and actions over `api` (zustand's StateCreator, apart from create). */
export const intakeState =
  (api: VerbatimApi): StateCreator<IntakeState> =>
  (set, get) => {
    // Work in flight, not state anyone renders: kept beside the store, not in it.
    let seq = 0;
    let running = 0;
    const controllers = new Map<string, AbortController>();
    /** Lengths being read from the files' headers while they upload (kept across a retry). */
    const probes = new Map<string, Promise<number | null>>();

    const patch = (id: string, p: Partial<IntakeItem>) => set((s) => ({ items: s.items.map((x) => (x.id === id ? { ...x, ...p } : x)) }));
    const remove = (id: string) => {
      probes.delete(id);
      set((s) => ({ items: s.items.filter((x) => x.id !== id) }));
      useJobProgress.getState().clear(id);
    };

    async function stage(item: IntakeItem): Promise<void> {
      const ctl = new AbortController();
      controllers.set(item.id, ctl);
      patch(item.id, { state: 'staging', error: null });
      // Read the length while the bytes go up: at most STAGING_AT_ONCE media elements at a time, even for a folder of 500 files.
      if (!probes.has(item.id)) {
        const probe = probeDurationMs(item.file);
        probes.set(item.id, probe);
        void probe.then((durationMs) => durationMs !== null && patch(item.id, { durationMs }));
      }
      try {
        const source = await uploadFile(
          item.file,
          (p) => useJobProgress.getState().put({ id: item.id, bytes: p.bytes, total: p.total, bytesPerSecond: p.bytesPerSecond, etaSeconds: p.etaSeconds }),
          ctl.signal,
        );
        patch(item.id, { state: 'adding' });
        const durationMs = (await probes.get(item.id)) ?? null;
        const file = source.kind === 'path' ? source : { ...source, name: item.name };
        const { jobs } = await api.invoke('jobs.addFiles', { files: [file], durationsMs: [durationMs] });
        for (const j of jobs) useJobs.getState().upsert(j);
        remove(item.id);
      } catch (err) {
        if (errorCode(err) === 'canceled') remove(item.id);
        else patch(item.id, { state: 'failed', error: { code: errorCode(err), message: errorMessage(err) } });
      } finally {
        controllers.delete(item.id);
      }
    }

    function pump(): void {
      while (running < STAGING_AT_ONCE) {
        const next = get().items.find((x) => x.state === 'waiting');
        if (!next) return;
        running++;
        patch(next.id, { state: 'staging' });
        void stage(next).finally(() => {
          running--;
          pump();
        });
      }
    }

    return {
      items: [],
      skipped: [],
      add(c) {
        const items: IntakeItem[] = c.files.map(({ file, path }) => ({
          id: `intake-${++seq}`,
          name: path.split('/').pop() ?? path,
          size: file.size,
          state: 'waiting',
          error: null,
          durationMs: null,
          file,
        }));
        set((s) => ({ items: [...s.items, ...items], skipped: [...c.skipped, ...s.skipped].slice(0, 500) }));
        if (items.length === 0 && c.skipped.length > 0)
          toast(`Nothing to transcribe: ${c.skipped.length} ${c.skipped.length === 1 ? 'file was' : 'files were'} skipped. See the queue for why.`, 'error');
        else if (c.skipped.length > 0) toast(`Added ${items.length}, skipped ${c.skipped.length} (see the queue for why).`, 'info');
        pump();
      },
      retry(id) {
        patch(id, { state: 'waiting', error: null });
        pump();
      },
      cancel(id) {
        const ctl = controllers.get(id);
        if (ctl) ctl.abort();
        else remove(id);
      },
      async addUrl(url, name) {
        try {
          useJobs.getState().upsert(await api.invoke('jobs.addUrl', name ? { url, name } : { url }));
          return null;
        } catch (err) {
          return errorMessage(err);
        }
      },
      clearSkipped: () => set({ skipped: [] }),
    };
  };

export const useIntake = create<IntakeState>()(intakeState(bridgeApi));
