import type { SettingsService } from '../services/settings';
import type { Router } from './router';

export function registerSettingsHandlers(router: Router, settings: SettingsService): void {
  router.handle('settings.get', () => settings.view());
  router.handle('settings.set', (patch) => settings.set(patch));
  settings.onChange((s) => router.emit('settings.changed', s));
}
