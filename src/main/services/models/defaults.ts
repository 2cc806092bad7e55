/** The default local models (files, live captions) kept in Settings: set only to an installed model made for that task, cleared when it is deleted. */
import { AppError } from '../../../shared/errors';
import { readManifest } from './install';
import type { ModelManager } from './manager';
import type { SettingsService } from '../settings';
import type { SettingsView } from '../../../shared/settings';

export async function setDefaultModel(manager: ModelManager, settings: SettingsService, task: 'files' | 'live', id: string): Promise<SettingsView> {
  if (id) {
    const manifest = await readManifest(manager.dir, id);
    if (!manifest) throw new AppError('not_found', `${id} is not installed. Download it first, then make it the default.`);
    if (manifest.task !== task)
      throw new AppError(
        'bad_request',
        `${manifest.name} is made for ${manifest.task === 'live' ? 'live captions' : manifest.task}, not ${task === 'live' ? 'live captions' : 'files'}.`,
      );
  }
  return settings.set({ models: { ...settings.get().models, [task]: id } });
}

/** After a delete: a default that named the model falls back to the built-in. */
export function forgetDefault(settings: SettingsService, id: string): void {
  const m = settings.get().models;
  if (m.files === id || m.live === id) settings.set({ models: { ...m, files: m.files === id ? '' : m.files, live: m.live === id ? '' : m.live } });
}
