import type { KeyService } from '../services/keys';
import type { Router } from './router';

export function registerKeyHandlers(router: Router, keys: KeyService): void {
  router.handle('keys.status', () => keys.status());
  router.handle('keys.set', ({ key, region }) => keys.set(key, region));
  router.handle('keys.verify', () => keys.verify());
  router.handle('keys.remove', () => keys.remove());
  keys.onChange((s) => router.emit('keys.changed', s));
}
