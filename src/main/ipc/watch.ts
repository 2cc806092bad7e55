/** Handlers of the watch-folder channels. */
import type { FileDialogs } from '../platform/types';
import type { WatchService } from '../services/watch/service';
import type { Router } from './router';

export function registerWatchHandlers(router: Router, watch: WatchService, dialogs: FileDialogs | null): void {
  router.handle('watch.pickFolder', async () => ({
    path: dialogs ? await dialogs.pickFolder({ title: 'Choose a folder to watch', buttonLabel: 'Watch this folder' }) : null,
  }));
  router.handle('watch.list', () => watch.list());
  router.handle('watch.add', ({ path, options }) => watch.add(path, options));
  router.handle('watch.update', ({ id, options, paused }) => watch.update(id, { options, paused }));
  router.handle('watch.pauseAll', async ({ paused }) => ({ folders: await watch.pauseAll(paused) }));
  router.handle('watch.remove', async ({ id }) => {
    await watch.remove(id);
    return { ok: true as const };
  });
}
