import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createCore, type Core } from '../../src/main/core';
import { startHostServer, type HostServer } from '../../src/main/host/server';
import { createHostPlatform } from '../../src/main/platform/host';
import { defaultSettings } from '../../src/shared/settings';

let dir: string;
let core: Core;
let host: HostServer;
const token = 'test-token-0123456789abcdef';

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'verbatim-host-'));
  const platform = createHostPlatform({ dataDir: join(dir, 'data'), version: '0.0.0-test', keyFile: join(dir, 'keys', 'k') });
  core = createCore(platform, (s) => s.kind === 'host' && s.tokenValid);
  host = await startHostServer({ core, token, rendererDir: join(dir, 'no-renderer'), port: 0 });
});

afterAll(async () => {
  await host.close();
  await core.dispose();
  rmSync(dir, { recursive: true, force: true });
});

function connect(query: string, origin?: string): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${host.port}/bridge${query}`, origin ? { origin } : {});
    ws.once('open', () => resolve(ws));
    ws.once('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)));
    ws.once('error', reject);
  });
}

function request(ws: WebSocket, msg: object): Promise<Record<string, unknown>> {
  return new Promise((resolve) => {
    const onMessage = (data: WebSocket.RawData) => {
      const parsed = JSON.parse(data.toString()) as Record<string, unknown>;
      if ('id' in parsed) {
        ws.off('message', onMessage);
        resolve(parsed);
      }
    };
    ws.on('message', onMessage);
    ws.send(JSON.stringify(msg));
  });
}

describe('host-mode bridge', () => {
  it('prints a URL with the launch token', () => {
    expect(host.url).toBe(`http://127.0.0.1:${host.port}/?token=${token}`);
  });

  it('refuses a socket with no token or a wrong token', async () => {
    await expect(connect('')).rejects.toThrow('HTTP 401');
    await expect(connect('?token=wrong')).rejects.toThrow('HTTP 401');
    await expect(connect(`?token=${token}x`)).rejects.toThrow('HTTP 401');
  });

  it('refuses a socket opened from another web page', async () => {
    await expect(connect(`?token=${token}`, 'http://evil.example')).rejects.toThrow('HTTP 403');
  });

  it('carries the contract: request, typed error, event', async () => {
    const ws = await connect(`?token=${token}`, `http://127.0.0.1:${host.port}`);
    const info = await request(ws, { id: 1, channel: 'app.info' });
    expect(info).toMatchObject({ id: 1, output: { mode: 'host', version: '0.0.0-test', dataDir: join(dir, 'data') } });

    const bad = await request(ws, { id: 2, channel: 'settings.set', input: { theme: 'neon' } });
    expect(bad).toMatchObject({ id: 2, error: { code: 'bad_request' } });

    const event = new Promise<unknown>((resolve) =>
      ws.on('message', (d) => {
        const m = JSON.parse(d.toString()) as { event?: string };
        if (m.event) resolve(m);
      }),
    );
    const set = await request(ws, { id: 3, channel: 'settings.set', input: { theme: 'dark' } });
    const want = { ...defaultSettings, theme: 'dark', region: 'local' };
    const seen = { ...want, webhookAuthHeaderSaved: false };
    expect(set).toEqual({ id: 3, output: seen });
    expect(await event).toEqual({ event: 'settings.changed', payload: seen });
    expect(JSON.parse(readFileSync(join(dir, 'data', 'settings.json'), 'utf8'))).toEqual(want);
    ws.close();
  });

  it('closes a socket that sends garbage', async () => {
    const ws = await connect(`?token=${token}`);
    const closed = new Promise<number>((resolve) => ws.once('close', (code) => resolve(code)));
    ws.send('not json');
    expect(await closed).toBe(1003);
  });

  it('keeps the host secret key file private', () => {
    expect(statSync(join(dir, 'keys', 'k')).mode & 0o777).toBe(0o600);
    const box = createHostPlatform({ dataDir: join(dir, 'data'), version: 'x', keyFile: join(dir, 'keys', 'k') }).secrets;
    const sealed = box.encrypt('sk-secret');
    expect(sealed.toString('utf8')).not.toContain('sk-secret');
    expect(box.decrypt(sealed)).toBe('sk-secret');
  });

  it('says when the renderer is not built', async () => {
    const res = await fetch(`http://127.0.0.1:${host.port}/`);
    expect(res.status).toBe(503);
    expect(await res.text()).toContain('npm run build:renderer');
  });
});
