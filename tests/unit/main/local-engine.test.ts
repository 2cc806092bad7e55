import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ForkEngineLauncher } from '../../../src/main/platform/host';
import { EngineManager } from '../../../src/main/services/local-engine';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'verbatim-engine-mgr-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('local engine manager', () => {
  it('starts on demand with a random key, answers /health, stops on request', async () => {
    const m = new EngineManager(new ForkEngineLauncher(resolve('tests/unit/main/support/fake-engine-cli.ts')), dir);
    const states: string[] = [];
    m.onStatus((s) => states.push(s.state));
    const [a, b] = await Promise.all([m.ensure(), m.ensure()]);
    expect(a).toBe(b);
    expect(a.key).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect((await fetch(`${a.url}/health`)).status).toBe(200);
    expect(m.status()).toMatchObject({ state: 'running', url: a.url, restarts: 0 });
    await m.stop();
    expect(states).toEqual(['starting', 'running', 'stopped']);
    await expect(fetch(`${a.url}/health`)).rejects.toThrow();
  });

  it('starts the real engine with a key that starts with a dash, passed outside the command line', async () => {
    const m = new EngineManager(new ForkEngineLauncher(resolve('src/engine/index.ts')), dir);
    // base64url keys start with '-' one time in 64; as an argument, the engine's parser took it for an option.
    Object.defineProperty(m, 'key', { value: '-startsWithADash_0123456789abcdef' });
    const h = await m.ensure();
    expect(h.key).toBe('-startsWithADash_0123456789abcdef');
    expect((await fetch(`${h.url}/v2/transcript?limit=1`, { headers: { authorization: h.key } })).status).toBe(200);
    await m.stop();
  });

  it('reports an engine that cannot start with its own words', async () => {
    const m = new EngineManager(new ForkEngineLauncher(resolve('tests/unit/main/support/broken-engine-cli.ts')), dir);
    await expect(m.ensure()).rejects.toMatchObject({ code: 'engine_unavailable', message: expect.stringContaining('pocketsphinx model missing') });
    expect(m.status()).toMatchObject({ state: 'failed', message: expect.stringContaining('exited with code 3') });
  });
});
