import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createCore, type Core } from '../../src/main/core';
import { BRIDGE_OFF_THREAD_BYTES, startHostServer, type HostServer } from '../../src/main/host/server';
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

  it('reads big messages on the library worker and sends subtitles.open as the worker wrote it: same answers, same refusals', async () => {
    const ws = await connect(`?token=${token}`);
    const srt = (n: number) =>
      Array.from(
        { length: n },
        (_, i) => `${i + 1}\n00:00:${String(i % 60).padStart(2, '0')},000 --> 00:00:${String(i % 60).padStart(2, '0')},500\nline ${i}\n`,
      ).join('\n');
    // A big import (its content read on the worker), then a commit of 20,000 cues (~1 MB: its splice stays on the worker).
    const content = srt(8_000);
    expect(content.length).toBeGreaterThan(BRIDGE_OFF_THREAD_BYTES);
    const imported = await request(ws, { id: 10, channel: 'subtitles.importNew', input: { name: 'big.srt', content } });
    expect(imported).toMatchObject({ id: 10, output: { cues: 8_000 } });
    const id = (imported.output as { id: string }).id;
    const doc = (await request(ws, { id: 11, channel: 'subtitles.open', input: { id } })).output as { version: number; cues: unknown[] };
    expect(doc.cues).toHaveLength(8_000);
    const insert = Array.from({ length: 20_000 }, (_, i) => ({ start: i * 1000, end: i * 1000 + 500, text: `new ${i}` }));
    const commit = {
      id: 12,
      channel: 'subtitles.commit',
      input: { id, version: doc.version, label: 'Replace all', splice: { at: 0, remove: doc.cues, insert } },
    };
    expect(JSON.stringify(commit).length).toBeGreaterThan(BRIDGE_OFF_THREAD_BYTES);
    expect(await request(ws, commit)).toEqual({ id: 12, output: { version: doc.version + 1 } });
    // The JSON the worker wrote is the document the router answers any other transport.
    const opened = await request(ws, { id: 13, channel: 'subtitles.open', input: { id } });
    const direct = await core.router.dispatch('subtitles.open', { id }, { sender: { kind: 'host', tokenValid: true } });
    expect(direct.ok).toBe(true);
    expect(opened).toEqual({ id: 13, output: (direct as { output: unknown }).output });
    expect((opened.output as { cues: { text: string }[] }).cues[19_999]?.text).toBe('new 19999');
    // A big invalid input: the same bad_request as a small one; a big stale commit: the store's conflict.
    const invalid = (n: number) => ({ ...commit, id: 14, input: { ...commit.input, version: -1, splice: { at: 0, remove: [], insert: insert.slice(0, n) } } });
    const small = await request(ws, invalid(1));
    expect(small).toMatchObject({ error: { code: 'bad_request' } });
    expect(await request(ws, invalid(20_000))).toEqual(small);
    expect(await request(ws, { ...commit, id: 15 })).toMatchObject({ id: 15, error: { code: 'conflict' } });
    expect(await request(ws, { id: 16, channel: 'no.such', input: content })).toMatchObject({
      id: 16,
      error: { code: 'bad_request', message: /Unknown channel/ },
    });
    // Big garbage closes the socket as small garbage does.
    for (const garbage of [`not json ${content}`, JSON.stringify({ channel: 'app.info', input: content })]) {
      const bad = await connect(`?token=${token}`);
      const closed = new Promise<number>((resolve) => bad.once('close', (code) => resolve(code)));
      bad.send(garbage);
      expect(await closed).toBe(1003);
    }
    ws.close();
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
