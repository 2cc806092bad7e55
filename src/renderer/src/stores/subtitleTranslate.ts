/** Subtitles translated into a second track (the Translate… dialog of the Subtitles view): runs, Stop, progress by cue. */
import { create } from 'zustand';
import type { Input, Output, Payload } from '../../../shared/ipc';
import { api } from '../bridge';

export type TranslateProgress = Payload<'subtitles.translateProgress'>;
export type Translations = Output<'subtitles.translations'>;

interface TranslateState {
  /** The latest progress of each source's run (by the source's id). */
  progress: Record<string, TranslateProgress>;
  translations(id: string): Promise<Translations>;
  /** Translates (or continues) `id` into a language; answers the track when the run ends. */
  translate(input: Input<'subtitles.translate'>): Promise<Output<'subtitles.translate'>>;
  stop(id: string): Promise<void>;
  /** Follows the progress events while a view wants them; answers the unsubscribe. */
  follow(): () => void;
}

export const useSubtitleTranslate = create<TranslateState>()((set) => ({
  progress: {},
  async translations(id) {
    const r = await api.invoke('subtitles.translations', { id });
    if (r.running) set((s) => ({ progress: { ...s.progress, [id]: r.running! } }));
    return r;
  },
  translate: (input) => api.invoke('subtitles.translate', input),
  async stop(id) {
    await api.invoke('subtitles.translateStop', { id });
  },
  follow: () => api.on('subtitles.translateProgress', (p) => set((s) => ({ progress: { ...s.progress, [p.id]: p } }))),
}));
