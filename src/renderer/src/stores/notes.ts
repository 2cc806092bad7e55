/** The notes folder (Settings → Notes folder): where notes are kept, and which ones the user edited. */
import { create, type StateCreator } from 'zustand';
import type { VerbatimApi } from '../../../shared/ipc';
import type { NotesStatus } from '../../../shared/ipc/notes';
import { api as bridgeApi, errorMessage } from '../bridge';
import { whenConnected } from './app';
import { toast } from './toasts';

interface NotesState {
  status: NotesStatus | null;
  load(): Promise<void>;
  /** Answers the refusal's words, or null when saved. */
  setFolder(folder: string | null): Promise<string | null>;
  /** The desktop's folder dialog; null when canceled (or in a browser). */
  pick(): Promise<string | null>;
}

export const notesState =
  (api: VerbatimApi): StateCreator<NotesState> =>
  (set) => ({
    status: null,
    async load() {
      try {
        set({ status: await api.invoke('notes.status') });
      } catch {
        // Not connected yet: the next connection loads it.
      }
    },
    async setFolder(folder) {
      try {
        set({ status: await api.invoke('notes.setFolder', { folder }) });
        return null;
      } catch (err) {
        return errorMessage(err);
      }
    },
    async pick() {
      try {
        return (await api.invoke('notes.pickFolder')).folder;
      } catch (err) {
        toast(errorMessage(err), 'error');
        return null;
      }
    },
  });

export const useNotes = create<NotesState>()(notesState(bridgeApi));

/** Follows main's notes folder (a note written, one kept); called once from main.tsx. */
export function connectNotes(api: VerbatimApi): () => void {
  const offs = [api.on('notes.changed', (status) => useNotes.setState({ status })), whenConnected(() => void useNotes.getState().load())];
  return () => offs.forEach((off) => off());
}
