/** Handlers of `models.*`: the catalog with install state, downloads, delete, install from a file, defaults; progress as events. */
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { AppError } from '../../shared/errors';
import { forgetDefault, setDefaultModel } from '../services/models/defaults';
import type { ModelManager } from '../services/models/manager';
import type { SettingsService } from '../services/settings';
import type { Router } from './router';

export function registerModelHandlers(router: Router, models: ModelManager, settings: SettingsService, uploadsDir: string): void {
  router.handle('models.list', () => models.list());
  router.handle('models.download', ({ id }) => models.download(id));
  router.handle('models.pause', ({ id }) => models.pause(id));
  router.handle('models.resume', ({ id }) => models.resume(id));
  router.handle('models.cancel', ({ id }) => models.cancel(id));
  router.handle('models.delete', async ({ id }) => {
    const freedBytes = await models.delete(id);
    forgetDefault(settings, id);
    return { freedBytes };
  });
  router.handle('models.installFile', async ({ path, uploadId, name }) => {
    if (uploadId !== undefined) {
      // A file the host-mode /upload route staged (data/uploads/<id>); its name says which model it is.
      if (!/^[A-Za-z0-9_-]{8,64}$/.test(uploadId)) throw new AppError('bad_request', 'That upload id is not valid.');
      if (!name) throw new AppError('bad_request', 'Give the file name of the uploaded archive.');
      const staged = join(uploadsDir, uploadId);
      try {
        return { id: await models.installFrom(staged, name) };
      } finally {
        await rm(staged, { force: true });
      }
    }
    return { id: await models.installFrom(path!) };
  });
  router.handle('models.setDefault', ({ task, id }) => setDefaultModel(models, settings, task, id));
  models.onProgress((s) => router.emit('models.progress', s));
}
