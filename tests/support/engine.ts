/**
 * The integration tests' one way to run the local engine in-process: a
 * temporary folder, 127.0.0.1 on a random port, no request log; every engine
 * started from a sandbox is closed (once) and the folder removed by cleanup().
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEngine, type EngineOptions, type RunningEngine } from '../../src/engine/server';

export interface EngineSandbox {
  /** The temporary folder (fixtures may be written into it). */
  dir: string;
  /** Start an engine with this key; `data` names its data folder inside the sandbox (default "data"). */
  start(apiKey: string, opts?: Partial<Omit<EngineOptions, 'apiKey' | 'dataDir'>> & { data?: string }): Promise<RunningEngine>;
  cleanup(): Promise<void>;
}

export function engineSandbox(prefix: string): EngineSandbox {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const closers: (() => Promise<void>)[] = [];
  return {
    dir,
    async start(apiKey, opts = {}) {
      const { data = 'data', ...rest } = opts;
      const engine = await startEngine({ host: '127.0.0.1', port: 0, quiet: true, ...rest, apiKey, dataDir: join(dir, data) });
      // A test may close its engine itself; cleanup must not close it twice.
      const close = engine.close.bind(engine);
      let closing: Promise<void> | null = null;
      engine.close = () => (closing ??= close());
      closers.push(() => engine.close());
      return engine;
    },
    async cleanup() {
      for (const close of closers.splice(0)) await close().catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
