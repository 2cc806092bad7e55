/** Handlers of the storage channels: the library's size and the audio retention rule applied now or undone. */
import type { StorageService } from '../services/storage/service';
import type { Router } from './router';

export function registerStorageHandlers(router: Router, storage: StorageService): void {
  router.handle('storage.usage', () => storage.usage());
  router.handle('storage.applyRetention', () => storage.apply());
  router.handle('storage.undoRetention', ({ batchId }) => storage.undo(batchId));
}
