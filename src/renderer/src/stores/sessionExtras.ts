/**
 * What a saved live session keeps beside its transcript, for its transcript
 * view: the "What did I miss?" summaries asked during it, and its translated
 * lines (shown under the text when the user asks for them).
 */
import { useEffect } from 'react';
import { create, type StateCreator } from 'zustand';
import type { MissedSummary, SavedTranslation } from '../../../shared/captions-extras';
import type { VerbatimApi } from '../../../shared/ipc';
import { api as bridgeApi, errorMessage } from '../bridge';

export interface SessionExtrasState {
  /** The session these are of (null: none loaded yet). */
  recordingId: string | null;
  summaries: MissedSummary[];
  translations: SavedTranslation[];
  /** Why they could not be read, or null. */
  error: string | null;
  /** The user's choice, kept from one session to the next: a reader of translations wants them on the next one too. */
  showTranslation: boolean;
  /** Reads the session's summaries and translations (again: more may have been saved since). */
  load(recordingId: string): Promise<void>;
  setShowTranslation(on: boolean): void;
}

const EMPTY = { summaries: [] as MissedSummary[], translations: [] as SavedTranslation[], error: null };

/** The store's state and actions over `api` (zustand's StateCreator, apart from create). */
export const sessionExtrasState =
  (api: VerbatimApi): StateCreator<SessionExtrasState> =>
  (set, get) => {
    // One request per session at a time (the section and the toggle both ask when it opens).
    let inFlight: { id: string; done: Promise<void> } | null = null;
    return {
      recordingId: null,
      ...EMPTY,
      showTranslation: false,
      load(recordingId) {
        if (inFlight?.id === recordingId) return inFlight.done;
        // Another session's lines must never show under this one's text while it loads.
        if (get().recordingId !== recordingId) set({ recordingId, ...EMPTY });
        const done = Promise.all([api.invoke('captions.summaries', { id: recordingId }), api.invoke('captions.translations', { id: recordingId })]).then(
          ([s, t]) => {
            if (get().recordingId === recordingId) set({ summaries: s.summaries, translations: t.translations, error: null });
          },
          (err: unknown) => {
            if (get().recordingId === recordingId) set({ ...EMPTY, error: errorMessage(err) });
          },
        );
        const entry = { id: recordingId, done };
        inFlight = entry;
        void done.finally(() => {
          if (inFlight === entry) inFlight = null;
        });
        return done;
      },
      setShowTranslation: (on) => set({ showTranslation: on }),
    };
  };

export const useSessionExtras = create<SessionExtrasState>()(sessionExtrasState(bridgeApi));

/** Loads the session's summaries and translations when a view of it opens. */
export function useLoadSessionExtras(recordingId: string): void {
  useEffect(() => void useSessionExtras.getState().load(recordingId), [recordingId]);
}
