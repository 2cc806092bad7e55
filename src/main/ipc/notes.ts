/** Handlers of the notes folder's channels. */
import type { FileDialogs } from '../platform/types';
import type { NotesSync } from '../services/notes/sync';
import type { Router } from './router';

export function registerNotesHandlers(router: Router, notes: NotesSync, dialogs: FileDialogs | null): void {
  router.handle('notes.status', () => notes.status());
  router.handle('notes.setFolder', ({ folder }) => notes.setFolder(folder));
  router.handle('notes.pickFolder', async () => ({
    folder: dialogs ? await dialogs.pickFolder({ title: 'Choose a folder for your notes', buttonLabel: 'Keep notes here' }) : null,
  }));
}
