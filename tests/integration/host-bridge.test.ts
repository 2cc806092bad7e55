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

  it('answers big messages and subtitle commands over the bridge as the router answers them: same answers, same refusals', async () => {
    const ws = await connect(`?token=${token}`);
    const srt = (n: number, text = 'line') =>
      Array.from(
        { length: n },
        (_, i) => `${i + 1}\n00:00:${String(i % 60).padStart(2, '0')},000 --> 00:00:${String(i % 60).padStart(2, '0')},500\n${text} ${i}\n`,
      ).join('\n');
    // A big import, then the whole document replaced by a 20,000-cue file's text (an edit crosses as its command).
    const content = srt(8_000);
    const imported = await request(ws, { id: 10, channel: 'subtitles.importNew', input: { name: 'big.srt', content } });
    expect(imported).toMatchObject({ id: 10, output: { cues: 8_000 } });
    const id = (imported.output as { id: string }).id;
    const doc = (await request(ws, { id: 11, channel: 'subtitles.open', input: { id } })).output as { version: number; cues: { text: string[] } };
    expect(doc.cues.text).toHaveLength(8_000);
    const view = { selection: [[0, 0]], caret: null, playheadMs: 0 };
    const run = {
      id: 12,
      channel: 'subtitles.run',
      input: { id, version: doc.version, command: 'replaceFrom', args: { content: srt(20_000, 'new'), name: 'new.srt' }, view },
    };
    expect(await request(ws, run)).toEqual({ id: 12, output: { version: doc.version + 1, digest: expect.stringMatching(/^20000:/) } });
    // The document on the bridge is the one the router answers any other transport.
    const opened = await request(ws, { id: 13, channel: 'subtitles.open', input: { id } });
    const direct = await core.router.dispatch('subtitles.open', { id }, { sender: { kind: 'host', tokenValid: true } });
    expect(direct.ok).toBe(true);
    expect(opened).toEqual({ id: 13, output: (direct as { output: unknown }).output });
    expect((opened.output as { cues: { text: string[] } }).cues.text[19_999]).toBe('new 19999');
    // A big invalid input: the same bad_request as a small one; a stale command: the store's conflict.
    const invalid = (n: number) => ({ ...run, id: 14, input: { ...run.input, version: -1, args: { content: srt(n), name: 'x.srt' } } });
    const small = await request(ws, invalid(1));
    expect(small).toMatchObject({ error: { code: 'bad_request' } });
    expect(await request(ws, invalid(20_000))).toEqual(small);
    expect(await request(ws, { ...run, id: 15 })).toMatchObject({ id: 15, error: { code: 'conflict' } });
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
