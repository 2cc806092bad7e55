import type { Platform } from '../platform/types';
import { missingEnginePackages } from '../services/system-check';
import type { Router } from './router';

export function registerAppHandlers(router: Router, platform: Platform): void {
  router.handle('app.info', () => ({
    name: 'Verbatim',
    version: platform.version,
    platform: process.platform,
    mode: platform.mode,
    dataDir: platform.dataDir,
    versions: platform.versions,
    missingEnginePackages: missingEnginePackages(),
  }));
}
