/**
 * Corrections that teach: after a spelling correction, the offer to learn the new form into the
 * vocabulary and to fix the same wrong form across the library (found, previewed, applied, undone).
 */
import { create, type StateCreator } from 'zustand';
import type { VerbatimApi } from '../../../shared/ipc';
import type { FixMatch } from '../../../shared/ipc/vocabulary';
import { cleanTerm, hasTerm, isSpellingChange, termProblem } from '../../../shared/vocabulary';
import { api as bridgeApi, errorMessage } from '../bridge';
import { useSettings } from './settings';
import { toast, useToasts } from './toasts';

export interface CorrectionOffer {
  recordingId: string;
  /** The word as it was (the wrong form) and as corrected. */
  from: string;
  to: string;
  /** The corrected form as the vocabulary would keep it. */
  term: string;
  /** Already in the vocabulary: only Fix everywhere is offered. */
  known: boolean;
}

export interface FixState {
  from: string;
  to: string;
  loading: boolean;
  matches: FixMatch[];
  total: number;
  /** False when the word is so common the search stopped early: there are more than `total`. */
  complete: boolean;
  error: string | null;
  applying: boolean;
  /** While the fix is written: how many of the chosen transcripts are done (vocabulary.fixProgress). */
  progress: { done: number; total: number } | null;
}

interface VocabularyState {
  offer: CorrectionOffer | null;
  fix: FixState | null;
  /** A correction was made: offer what it can teach (nothing for a deletion or punctuation). */
  corrected(recordingId: string, before: string, after: string): void;
  dismiss(): void;
  learn(): Promise<void>;
  openFix(): Promise<void>;
  closeFix(): void;
  applyFix(recordingIds: string[]): Promise<void>;
}

export const vocabularyState =
  (api: VerbatimApi): StateCreator<VocabularyState> =>
  (set, get) => ({
    offer: null,
    fix: null,
    corrected(recordingId, before, after) {
      if (!isSpellingChange(before, after)) return set({ offer: null });
      const term = cleanTerm(after);
      const from = cleanTerm(before);
      // A correction too long to be one term (over 6 words or 50 characters) is not offered rather than offered cut.
      if (!term || !from || termProblem(term)) return set({ offer: null });
      set({ offer: { recordingId, from, to: term, term, known: hasTerm(useSettings.getState().settings.vocabulary ?? [], term) } });
    },
    dismiss() {
      set({ offer: null });
    },
    async learn() {
      const offer = get().offer;
      if (!offer) return;
      try {
        await api.invoke('vocabulary.add', { term: offer.term });
        set({ offer: { ...offer, known: true } });
        toast(`“${offer.term}” is in your vocabulary: new transcripts and live captions will listen for it.`, 'ok');
      } catch (err) {
        toast(errorMessage(err), 'error');
      }
    },
    async openFix() {
      const offer = get().offer;
      if (!offer) return;
      set({ fix: { from: offer.from, to: offer.to, loading: true, matches: [], total: 0, complete: true, error: null, applying: false, progress: null } });
      try {
        const r = await api.invoke('vocabulary.fixFind', { from: offer.from });
        if (get().fix?.from === offer.from) set({ fix: { ...get().fix!, loading: false, matches: r.matches, total: r.total, complete: r.complete } });
      } catch (err) {
        if (get().fix) set({ fix: { ...get().fix!, loading: false, error: errorMessage(err) } });
      }
    },
    closeFix() {
      set({ fix: null });
    },
    async applyFix(recordingIds) {
      const fix = get().fix;
      if (!fix || recordingIds.length === 0) return;
      set({ fix: { ...fix, applying: true, progress: null } });
      // Hundreds of long transcripts take a few seconds: the dialog shows how far it is.
      const off = api.on('vocabulary.fixProgress', (p) => {
        const now = get().fix;
        if (now?.applying) set({ fix: { ...now, progress: p } });
      });
      try {
        const r = await api.invoke('vocabulary.fixApply', { from: fix.from, to: fix.to, recordingIds }).finally(off);
        set({ fix: null, offer: null });
        const what = `Changed “${fix.from}” to “${fix.to}” ${r.words === 1 ? 'once' : `${r.words} times`} in ${r.recordings} ${r.recordings === 1 ? 'transcript' : 'transcripts'}.`;
        // Longer than a plain toast: the user may open a transcript to look before deciding to undo.
        useToasts.getState().push(
          {
            text: what,
            tone: 'ok',
            action: {
              label: 'Undo',
              run: () => {
                toast(`Putting “${fix.from}” back in ${r.recordings} ${r.recordings === 1 ? 'transcript' : 'transcripts'}…`, 'info');
                void api.invoke('vocabulary.fixUndo', { batchId: r.batchId }).then(
                  (u) => toast(`Undone: ${u.recordings} ${u.recordings === 1 ? 'transcript is' : 'transcripts are'} as before.`, 'info'),
                  (err: unknown) => toast(errorMessage(err), 'error'),
                );
              },
            },
          },
          30_000,
        );
      } catch (err) {
        set({ fix: { ...fix, applying: false, progress: null, error: errorMessage(err) } });
      }
    },
  });

export const useVocabulary = create<VocabularyState>()(vocabularyState(bridgeApi));
