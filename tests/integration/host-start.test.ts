/**
 * Host mode's start order (issue 29: cold start): the server serves the page as
 * soon as it listens, while the services (`core`) still load; the bridge and the
 * token routes wait for them, and answer 503 when they failed to start. Services
 * given as a function start when the page's scripts are served or the bridge asks.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createCore, type Core } from '../../src/main/core';
import { startHostServer, type HostServer } from '../../src/main/host/server';
import { createHostPlatform } from '../../src/main/platform/host';

const token = 'test-token-start-0123456789';
let dir: string;
let host: HostServer | null = null;
let core: Core | null = null;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'verbatim-host-start-'));
  mkdirSync(join(dir, 'renderer'));
  writeFileSync(join(dir, 'renderer', 'index.html'), '<!doctype html><title>Verbatim</title>');
});

afterEach(async () => {
  await host?.close();
  await core?.dispose();
  host = null;
  core = null;
  rmSync(dir, { recursive: true, force: true });
});

function deferred<T>(): { promise: Promise<T>; resolve(v: T): void; reject(e: unknown): void } {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => ((resolve = res), (reject = rej)));
  return { promise, resolve, reject };
}

/** Opens the bridge; answers the HTTP status when the upgrade is refused. */
function openBridge(port: number): Promise<WebSocket | number> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${port}/bridge?token=${token}`);
    ws.once('open', () => resolve(ws));
    ws.once('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
    ws.once('error', reject);
  });
}

function call(ws: WebSocket, channel: string): Promise<Record<string, unknown>> {
  return new Promise((resolve) => {
    ws.once('message', (d: WebSocket.RawData) => resolve(JSON.parse(d.toString()) as Record<string, unknown>));
    ws.send(JSON.stringify({ id: 1, channel }));
  });
}

describe('host mode start order', () => {
  it('serves the page while the services load, and opens the bridge only once they are up', async () => {
    const services = deferred<Core>();
    host = await startHostServer({ core: services.promise, token, rendererDir: join(dir, 'renderer'), port: 0 });
    const page = await fetch(`http://127.0.0.1:${host.port}/`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<title>Verbatim</title>');

    let step = 0;
    const bridge = openBridge(host.port).then((ws) => ((step += 1), ws));
    // A token route asked now waits for the services too (it needs them to answer).
    const media = fetch(`http://127.0.0.1:${host.port}/media/none?token=${token}`).then((r) => ((step += 1), r.status));
    // The page is still served while the bridge waits.
    expect((await fetch(`http://127.0.0.1:${host.port}/`)).status).toBe(200);
    const platform = createHostPlatform({ dataDir: join(dir, 'data'), version: '0.0.0-test', keyFile: join(dir, 'keys', 'k') });
    core = createCore(platform, (s) => s.kind === 'host' && s.tokenValid, { log: () => undefined });
    const resolvedAt = step;
    services.resolve(core);

    const ws = await bridge;
    expect(ws).toBeInstanceOf(WebSocket);
    expect(resolvedAt).toBe(0);
    const reply = await call(ws as WebSocket, 'app.info');
    expect((reply.output as { mode: string }).mode).toBe('host');
    expect(await media).toBe(404);
    (ws as WebSocket).close();
  });

  it('refuses the bridge and the token routes with 503 when the services failed to start, and still serves the page', async () => {
    const services = deferred<Core>();
    host = await startHostServer({ core: services.promise, token, rendererDir: join(dir, 'renderer'), port: 0 });
    const bridge = openBridge(host.port);
    services.reject(new Error('the library could not be opened'));
    expect(await bridge).toBe(503);
    expect((await fetch(`http://127.0.0.1:${host.port}/upload?token=${token}&name=a.wav`, { method: 'POST', body: 'x' })).status).toBe(503);
    expect((await fetch(`http://127.0.0.1:${host.port}/`)).status).toBe(200);
  });

  it('starts services given as a function once the files index.html names have gone out, not for index.html alone, and once only', async () => {
    mkdirSync(join(dir, 'renderer', 'assets'));
    writeFileSync(
      join(dir, 'renderer', 'index.html'),
      '<!doctype html><script type="module" src="./assets/index.js"></script><link rel="stylesheet" href="./assets/index.css">',
    );
    writeFileSync(join(dir, 'renderer', 'assets', 'index.js'), 'export {};');
    writeFileSync(join(dir, 'renderer', 'assets', 'index.css'), 'body {}');
    const platform = createHostPlatform({ dataDir: join(dir, 'data'), version: '0.0.0-test', keyFile: join(dir, 'keys', 'k') });
    let calls = 0;
    const started = deferred<void>();
    const start = () => {
      calls += 1;
      core = createCore(platform, (s) => s.kind === 'host' && s.tokenValid, { log: () => undefined });
      started.resolve();
      return Promise.resolve(core);
    };
    host = await startHostServer({ core: start, token, rendererDir: join(dir, 'renderer'), port: 0 });
    expect((await fetch(`http://127.0.0.1:${host.port}/`)).status).toBe(200);
    expect((await fetch(`http://127.0.0.1:${host.port}/assets/index.js`)).status).toBe(200);
    expect(calls).toBe(0);
    expect((await fetch(`http://127.0.0.1:${host.port}/assets/index.css`)).status).toBe(200);
    await started.promise;
    const ws = await openBridge(host.port);
    expect(ws).toBeInstanceOf(WebSocket);
    expect(((await call(ws as WebSocket, 'settings.get')).output as { theme: string }).theme).toBeTypeOf('string');
    expect(calls).toBe(1);
    (ws as WebSocket).close();
  });

  it('starts services given as a function when the bridge asks for them first', async () => {
    const platform = createHostPlatform({ dataDir: join(dir, 'data'), version: '0.0.0-test', keyFile: join(dir, 'keys', 'k') });
    let calls = 0;
    const start = () => {
      calls += 1;
      core = createCore(platform, (s) => s.kind === 'host' && s.tokenValid, { log: () => undefined });
      return Promise.resolve(core);
    };
    host = await startHostServer({ core: start, token, rendererDir: join(dir, 'renderer'), port: 0 });
    const ws = await openBridge(host.port);
    expect(ws).toBeInstanceOf(WebSocket);
    expect(calls).toBe(1);
    (ws as WebSocket).close();
  });
});
