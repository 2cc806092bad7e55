/** Helpers shared by the engine benchmarks. */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEngine, type EngineOptions, type RunningEngine } from '../src/engine/server';

export const KEY = 'bench-key';

export async function benchEngine(opts: Partial<EngineOptions> = {}): Promise<{ engine: RunningEngine; dir: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'engine-bench-'));
  const engine = await startEngine({ host: '127.0.0.1', port: 0, apiKey: KEY, dataDir: join(dir, 'data'), quiet: true, ...opts });
  return { engine, dir };
}

export async function call(engine: RunningEngine, path: string, init: RequestInit = {}): Promise<Record<string, unknown>> {
  const res = await fetch(`${engine.url}${path}`, {
    ...init,
    headers: { authorization: KEY, 'content-type': 'application/json', ...(init.headers as Record<string, string>) },
  });
  return (await res.json()) as Record<string, unknown>;
}

export async function waitFinal(engine: RunningEngine, id: string): Promise<Record<string, unknown>> {
  for (;;) {
    const t = await call(engine, `/v2/transcript/${id}`);
    if (t.status === 'completed' || t.status === 'error') return t;
    await new Promise((r) => setTimeout(r, 25));
  }
}

export function fmt(n: number, digits = 2): string {
  return n.toFixed(digits);
}
