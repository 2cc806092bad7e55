import type { EngineManager } from '../services/local-engine';
import type { Router } from './router';

export function registerEngineHandlers(router: Router, engine: EngineManager): void {
  router.handle('engine.status', () => engine.status());
  router.handle('engine.start', async () => {
    await engine.ensure();
    return engine.status();
  });
  engine.onStatus((s) => router.emit('engine.status', s));
}
