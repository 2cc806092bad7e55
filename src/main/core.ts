/**
 * Main's wiring shared by both modes: the services and the handlers of the
 * IPC contract. Electron (index.ts) and host mode (host/server.ts) each build a
 * Platform and call createCore; nothing below knows which one it runs in.
 */
import { registerAppHandlers } from './ipc/app';
import { registerSettingsHandlers } from './ipc/settings';
import { Router, type Sender } from './ipc/router';
import type { Platform } from './platform/types';
import { SettingsService } from './services/settings';

export interface Core {
  router: Router;
  platform: Platform;
  settings: SettingsService;
  dispose(): Promise<void>;
}

export function createCore(platform: Platform, isTrustedSender: (s: Sender) => boolean): Core {
  const router = new Router(isTrustedSender);
  const settings = new SettingsService(platform.settings);

  registerAppHandlers(router, platform);
  registerSettingsHandlers(router, settings);

  const disposers: Array<() => void | Promise<void>> = [];
  return {
    router,
    platform,
    settings,
    async dispose() {
      for (const d of disposers.reverse()) await d();
    },
  };
}
