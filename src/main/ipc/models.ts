/** Handlers of `models.*`: the catalog with install state, downloads, delete, install from a file, defaults; progress as events. */
import { AppError } from '../../shared/errors';
import { CATALOG } from '../../shared/models/lookup';
import { forgetDefault, PendingDefaults, setDefaultModel } from '../services/models/defaults';
import type { ModelManager } from '../services/models/manager';
import { SpeedTests } from '../services/models/model-test';
import { chooseLanguage, currentOffer, OfferState } from '../services/models/recommend';
import type { EngineHandle } from '../services/local-engine';
import type { SettingsService } from '../services/settings';
import type { Router } from './router';

export function registerModelHandlers(
  router: Router,
  models: ModelManager,
  settings: SettingsService,
  engine: { ensure(): Promise<EngineHandle> } = {
    ensure: () => Promise.reject(new AppError('engine_unavailable', 'The local engine is not available here.')),
  },
): void {
  const pending = new PendingDefaults(models.dir);
  const offer = new OfferState(models.dir);
  const speeds = new SpeedTests(models.dir, { engine });
  const language = (locale?: string) =>
    chooseLanguage(settings.get().transcriptionDefaults.languageCode, locale ?? Intl.DateTimeFormat().resolvedOptions().locale);
  /** A model just installed may be one to make the default again (a deleted default, a first-run offer taken). */
  const installed = (id: string) => void pending.installed(models, settings, id).catch(() => undefined);
  router.handle('models.list', () => models.list());
  router.handle('models.download', ({ id, direct }) => models.download(id, direct === true));
  router.handle('models.pause', ({ id }) => models.pause(id));
  router.handle('models.resume', ({ id }) => models.resume(id));
  router.handle('models.cancel', ({ id }) => models.cancel(id));
  router.handle('models.delete', async ({ id }) => {
    const freedBytes = await models.delete(id);
    // A default deleted comes back as the default when it is installed again.
    for (const task of forgetDefault(settings, id)) await pending.remember(id, task);
    await speeds.forget(id);
    return { freedBytes };
  });
  router.handle('models.installFile', async ({ file, id }) => {
    // Through the owner of the user's files: a host-mode upload (staged by /upload, taken once) or a path (its real path, inside
    // --folder in host mode, read from the descriptor the check opened); the entry the user chose, or else its name, says which model it is.
    let got: string;
    if (file.kind === 'path') got = await models.installFrom(file.path, undefined, id);
    else if (file.name) got = await models.installUpload(file.uploadId, file.name, id);
    else throw new AppError('bad_request', 'Give the file name of the uploaded archive.');
    installed(got);
    return { id: got };
  });
  router.handle('models.setDefault', ({ task, id }) => setDefaultModel(models, settings, task, id));
  router.handle('models.offer', ({ locale }) => currentOffer(models.dir, CATALOG, offer, language(locale)));
  router.handle('models.dismissOffer', async () => {
    await offer.set({ dismissed: true });
    return { dismissed: true as const };
  });
  router.handle('models.acceptOffer', async ({ id }) => {
    // The download answers at once; the model becomes the one for files when it is installed (after a restart too).
    await pending.remember(id, 'files');
    await offer.set({ accepted: id });
    return models.download(id);
  });
  router.handle('models.test', ({ id }) => speeds.run(id));
  router.handle('models.speeds', () => speeds.all());
  models.onProgress((s) => {
    router.emit('models.progress', s);
    if (s.state === 'installed') installed(s.id);
  });
}
