/**
 * Shared by the app-* benchmarks: start a service process to measure against —
 * the real local engine when it implements uploads, else the test fake service
 * (the figure then says so).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';

export interface BenchService {
  url: string;
  key: string;
  kind: 'engine' | 'fake';
  proc: ChildProcess;
  stop(): void;
}

async function launch(entry: string, env: Record<string, string> = {}): Promise<{ url: string; key: string; proc: ChildProcess }> {
  const key = randomBytes(16).toString('hex');
  const data = mkdtempSync(join(tmpdir(), 'verbatim-bench-svc-'));
  const proc = spawn(process.execPath, ['--import', 'tsx', entry, '--port', '0', '--api-key', key, '--data', data], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, ...env },
  });
  const url = await new Promise<string>((res, rej) => {
    createInterface({ input: proc.stdout! }).on('line', (l) => {
      const m = /listening on (http:\/\/\S+)/.exec(l);
      if (m) res(m[1]!);
    });
    proc.once('exit', (c) => rej(new Error(`${entry} exited ${c}`)));
  });
  return { url, key, proc };
}

export async function startService(env: Record<string, string> = {}): Promise<BenchService> {
  if (process.env.BENCH_SERVICE !== 'fake') {
    try {
      const e = await launch(resolve('src/engine/index.ts'), env);
      const probe = await fetch(`${e.url}/v2/transcript?limit=1`, { headers: { authorization: e.key } });
      if (probe.status === 200) return { ...e, kind: 'engine', stop: () => e.proc.kill() };
      e.proc.kill();
    } catch {
      // fall through to the fake service
    }
  }
  const f = await launch(resolve('tests/unit/main/support/fake-engine-cli.ts'), env);
  return { ...f, kind: 'fake', stop: () => f.proc.kill() };
}

export function note(kind: 'engine' | 'fake'): string {
  return kind === 'engine' ? 'against the local engine (src/engine)' : 'against the test fake service (the local engine does not implement /v2 yet)';
}
