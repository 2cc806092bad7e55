/**
 * Review of doubtful words in the open transcript: the words accepted as heard (kept in the library so
 * the count survives a reload), the threshold (a setting), and the word review last jumped to, which the
 * transcript view turns into a caret in that word's editor while the player plays the audio around it.
 */
import { create, type StateCreator } from 'zustand';
import type { VerbatimApi } from '../../../shared/ipc';
import type { Word } from '../../../shared/library';
import { api as bridgeApi, errorMessage } from '../bridge';
import { DEFAULT_REVIEW_THRESHOLD, doubtfulWords, nextDoubtful, reviewWindow } from '../lib/review';
import { useSettings } from './settings';
import { toast } from './toasts';
import { originalOf, useTranscript } from './transcript';

export interface ReviewTarget {
  index: number;
  /** A fresh number each jump, so jumping to the same word again still moves the caret. */
  seq: number;
}

export interface ReviewState {
  /** The transcript version whose accepted words are loaded. */
  transcriptId: string | null;
  accepted: ReadonlySet<number>;
  target: ReviewTarget | null;
  load(id: string, transcriptId: string): Promise<void>;
  accept(index: number): Promise<void>;
  /** Puts the caret on the next doubtful word (`dir` -1: the one before) and plays around it; false when none is left. */
  jump(dir?: 1 | -1): boolean;
}

const empty: ReadonlySet<number> = new Set();

/** The threshold in use: the setting, else the default. */
export function reviewThreshold(): number {
  return useSettings.getState().settings.reviewThreshold ?? DEFAULT_REVIEW_THRESHOLD;
}

// The doubtful list of the last (words, threshold, accepted, corrected) asked for: the count and each jump share it.
let cache: { words: readonly Word[]; threshold: number; accepted: ReadonlySet<number>; corrected: Record<number, string>; list: number[] } | null = null;

/** Indexes of the open transcript's doubtful words at `threshold`, ascending. */
export function doubtfulOf(words: readonly Word[], threshold: number, accepted: ReadonlySet<number>, corrected: Record<number, string>): number[] {
  if (cache && cache.words === words && cache.threshold === threshold && cache.accepted === accepted && cache.corrected === corrected) return cache.list;
  const list = doubtfulWords(words, threshold, accepted, (i) => originalOf(words[i] as Word, i, corrected) !== null);
  cache = { words, threshold, accepted, corrected, list };
  return list;
}

let seq = 0;

export const reviewState =
  (api: VerbatimApi): StateCreator<ReviewState> =>
  (set, get) => ({
    transcriptId: null,
    accepted: empty,
    target: null,
    async load(id, transcriptId) {
      if (get().transcriptId === transcriptId) return;
      set({ transcriptId, accepted: empty, target: null });
      try {
        const { indexes } = await api.invoke('review.accepted', { id, transcriptId });
        if (get().transcriptId === transcriptId) set({ accepted: new Set(indexes) });
      } catch (err) {
        if (get().transcriptId === transcriptId) toast(`The words you accepted could not be loaded: ${errorMessage(err)}`, 'error');
      }
    },
    async accept(index) {
      const id = useTranscript.getState().id;
      const transcriptId = get().transcriptId;
      if (!id || !transcriptId || get().accepted.has(index)) return;
      // At once: the count drops as Enter is pressed; main's answer is the truth.
      set({ accepted: new Set([...get().accepted, index]) });
      try {
        const { indexes } = await api.invoke('review.accept', { id, transcriptId, indexes: [index], accepted: true });
        if (get().transcriptId === transcriptId) set({ accepted: new Set(indexes) });
      } catch (err) {
        if (get().transcriptId !== transcriptId) return;
        const back = new Set(get().accepted);
        back.delete(index);
        set({ accepted: back });
        toast(`The word was not marked as checked: ${errorMessage(err)}`, 'error');
      }
    },
    jump(dir = 1) {
      const t = useTranscript.getState();
      const words = t.transcript?.words;
      if (!words) return false;
      const list = doubtfulOf(words, reviewThreshold(), get().accepted, t.corrected);
      const here = get().target?.index ?? (t.active >= 0 ? t.active - (dir === 1 ? 1 : 0) : dir === 1 ? -1 : words.length);
      const index = nextDoubtful(list, here, dir);
      if (index < 0) return false;
      set({ target: { index, seq: ++seq } });
      const { from, to } = reviewWindow(words[index] as Word);
      t.playRange(from, to);
      return true;
    },
  });

export const useReview = create<ReviewState>()(reviewState(bridgeApi));
