/**
 * Host mode's start order (issue 29: cold start): the server serves the page as
 * soon as it listens, while the services (`core`) still load. The bridge opens at
 * once and answers its requests when they are up (issue 52: the page's first calls
 * are on their way meanwhile); the token routes wait for them. Once they failed to
 * start, the bridge's sockets are closed with the reason and both answer 503.
 * Services given as a function start when the page's scripts are served or the bridge asks.
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
  it('serves the page while the services load, opens the bridge at once, and answers its requests once they are up', async () => {
    const services = deferred<Core>();
    host = await startHostServer({ core: services.promise, token, rendererDir: join(dir, 'renderer'), port: 0 });
    const page = await fetch(`http://127.0.0.1:${host.port}/`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<title>Verbatim</title>');

    // The bridge opens while the services still load; a request sent now is answered once they are up.
    const ws = await openBridge(host.port);
    expect(ws).toBeInstanceOf(WebSocket);
    let answered = false;
    const reply = call(ws as WebSocket, 'app.info').then((r) => ((answered = true), r));
    // A token route asked now waits for the services too (it needs them to answer).
    let mediaDone = false;
    const media = fetch(`http://127.0.0.1:${host.port}/media/none?token=${token}`).then((r) => ((mediaDone = true), r.status));
    // The page is still served while the request and the token route wait.
    expect((await fetch(`http://127.0.0.1:${host.port}/`)).status).toBe(200);
    const platform = createHostPlatform({ dataDir: join(dir, 'data'), version: '0.0.0-test', keyFile: join(dir, 'keys', 'k') });
    core = createCore(platform, (s) => s.kind === 'host' && s.tokenValid, { log: () => undefined });
    const before = { answered, mediaDone };
    services.resolve(core);

    expect(before).toEqual({ answered: false, mediaDone: false });
    expect(((await reply).output as { mode: string }).mode).toBe('host');
    expect(await media).toBe(404);
    (ws as WebSocket).close();
  });

  it('answers the requests sent before the services were up in the order they were sent', async () => {
    const services = deferred<Core>();
    host = await startHostServer({ core: services.promise, token, rendererDir: join(dir, 'renderer'), port: 0 });
    const ws = (await openBridge(host.port)) as WebSocket;
    const ids: number[] = [];
    const all = new Promise<void>((resolve) =>
      ws.on('message', (d: WebSocket.RawData) => {
        const m = JSON.parse(d.toString()) as { id?: number };
        if (typeof m.id === 'number') ids.push(m.id);
        if (ids.length === 5) resolve();
      }),
    );
    for (let id = 1; id <= 5; id++) ws.send(JSON.stringify({ id, channel: 'app.info' }));
    const platform = createHostPlatform({ dataDir: join(dir, 'data'), version: '0.0.0-test', keyFile: join(dir, 'keys', 'k') });
    core = createCore(platform, (s) => s.kind === 'host' && s.tokenValid, { log: () => undefined });
    services.resolve(core);
    await all;
    expect(ids).toEqual([1, 2, 3, 4, 5]);
    ws.close();
  });

  it('closes the bridge with the reason, then refuses it and the token routes with 503, when the services failed to start, and still serves the page', async () => {
    const services = deferred<Core>();
    host = await startHostServer({ core: services.promise, token, rendererDir: join(dir, 'renderer'), port: 0 });
    const ws = (await openBridge(host.port)) as WebSocket;
    const closed = new Promise<{ code: number; reason: string }>((resolve) => ws.once('close', (code, reason) => resolve({ code, reason: reason.toString() })));
    services.reject(new Error('the library could not be opened'));
    expect(await closed).toEqual({ code: 1011, reason: 'Verbatim could not start its services' });
    expect(await openBridge(host.port)).toBe(503);
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
