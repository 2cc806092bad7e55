/**
 * Host mode against requests that used to stop it (issue 12.1, 12.2, 12.13,
 * 12.14): sent as raw bytes to a real host-mode process, each followed by a
 * check that the process is alive and the bridge still answers.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import type { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { BRIDGE_MAX_PAYLOAD, isLoopbackHost, parseTarget } from '../../src/main/host/server';
import { WebhookReceiver } from '../../src/main/services/webhooks';
import { launchHost, rawRequest, type Child } from './support/processes';

let dir: string;
let host: Child & { token: string };

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'verbatim-host-hard-'));
  host = await launchHost(dir);
});

afterAll(async () => {
  await host?.stop();
  rmSync(dir, { recursive: true, force: true });
});

function bridge(opts: { host?: string; maxPayload?: number } = {}): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${host.port}/bridge?token=${host.token}`, {
      headers: opts.host ? { host: opts.host } : {},
      maxPayload: opts.maxPayload,
    });
    ws.once('open', () => resolve(ws));
    ws.once('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)));
    ws.once('error', reject);
  });
}

async function call(ws: WebSocket, channel: string, input?: unknown): Promise<Record<string, unknown>> {
  const id = Math.floor(Math.random() * 1e9);
  return new Promise((resolve) => {
    const on = (d: WebSocket.RawData) => {
      const m = JSON.parse(d.toString()) as Record<string, unknown>;
      if (m.id === id) {
        ws.off('message', on);
        resolve(m);
      }
    };
    ws.on('message', on);
    ws.send(JSON.stringify({ id, channel, input }));
  });
}

/** Host mode is alive: the process runs and a fresh bridge answers app.info. */
async function expectAlive(): Promise<void> {
  expect(host.alive(), host.stderr()).toBe(true);
  const ws = await bridge();
  const info = await call(ws, 'app.info');
  expect(info).toMatchObject({ output: { mode: 'host' } });
  ws.close();
}

describe('host mode under hostile requests', () => {
  it('answers 400 to GET //a:b/ and GET http://[ instead of 500 or exiting', async () => {
    for (const target of ['//a:b/', 'http://[', '//a:b/index.html', '*']) {
      const r = await rawRequest(host.port, `GET ${target} HTTP/1.1\r\nHost: 127.0.0.1:${host.port}\r\n\r\n`);
      expect(r.status, target).toBe(400);
    }
    await expectAlive();
  });

  it('answers 400 to an upgrade to //a:b/bridge before looking at the token, and stays up', async () => {
    const upgrade = (target: string) =>
      `GET ${target} HTTP/1.1\r\nHost: 127.0.0.1:${host.port}\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n`;
    expect((await rawRequest(host.port, upgrade('//a:b/bridge'))).status).toBe(400);
    expect((await rawRequest(host.port, upgrade(`//a:b/bridge?token=${host.token}`))).status).toBe(400);
    expect((await rawRequest(host.port, upgrade('http://[/bridge'))).status).toBe(400);
    await expectAlive();
  });

  it('answers 400 to a media path whose escapes do not decode (/media/%E0)', async () => {
    const r = await rawRequest(host.port, `GET /media/%E0?token=${host.token} HTTP/1.1\r\nHost: 127.0.0.1:${host.port}\r\n\r\n`);
    expect(r.status).toBe(400);
    await expectAlive();
  });

  it('closes a socket that sends a frame above the bridge limit with 1009 and keeps serving', async () => {
    const ws = await bridge();
    const closed = new Promise<number>((r) => ws.once('close', (code) => r(code)));
    ws.on('error', () => undefined);
    ws.send(Buffer.alloc(BRIDGE_MAX_PAYLOAD + 1024, 0x41));
    // 1009 (message too big); when the server's close overtakes our still-sending socket, the reset shows as 1006.
    expect([1009, 1006]).toContain(await closed);
    await expectAlive();
  });

  it('takes a 9 MB text frame (not JSON) with a clear close, not an exit', async () => {
    const ws = await bridge();
    const closed = new Promise<number>((r) => ws.once('close', (code) => r(code)));
    ws.send('x'.repeat(9 * 1024 * 1024));
    expect(await closed).toBe(1003);
    await expectAlive();
  });

  it('survives an unmasked client frame and a reserved opcode', async () => {
    for (const frame of [Buffer.from([0x81, 0x05, 0x68, 0x65, 0x6c, 0x6c, 0x6f]), Buffer.from([0x83, 0x80, 1, 2, 3, 4])]) {
      const ws = await bridge();
      const closed = new Promise<number>((r) => ws.once('close', (code) => r(code)));
      ws.on('error', () => undefined);
      (ws as unknown as { _socket: Socket })._socket.write(frame);
      expect([1002, 1006]).toContain(await closed);
    }
    await expectAlive();
  });
});

describe('host mode and DNS rebinding (Host header)', () => {
  it('accepts 127.0.0.1, localhost and [::1] with or without the port', () => {
    for (const h of ['127.0.0.1', '127.0.0.1:5180', 'localhost', 'LOCALHOST:5180', '[::1]', '[::1]:5180']) expect(isLoopbackHost(h), h).toBe(true);
    for (const h of [
      undefined,
      '',
      'evil.example',
      'evil.example:5180',
      '127.0.0.1.nip.io',
      '127.0.0.2',
      '0.0.0.0',
      'localhost.evil',
      '[::1]x',
      '127.0.0.1:99999',
      '::1',
    ])
      expect(isLoopbackHost(h), String(h)).toBe(false);
  });

  it('refuses HTTP requests naming another host with 421, and serves the loopback names', async () => {
    const get = (h: string) => rawRequest(host.port, `GET / HTTP/1.1\r\nHost: ${h}\r\nConnection: close\r\n\r\n`);
    const evil = await get(`evil.example:${host.port}`);
    expect(evil.status).toBe(421);
    expect(evil.text).toMatch(/127\.0\.0\.1, localhost or \[::1\]/);
    // HTTP/1.1 without Host: Node refuses it itself.
    expect((await rawRequest(host.port, `GET / HTTP/1.1\r\nConnection: close\r\n\r\n`)).status).toBe(400);
    expect((await rawRequest(host.port, `GET /upload?token=${host.token} HTTP/1.1\r\nHost: attacker.test\r\n\r\n`)).status).toBe(421);
    // No renderer was built for this test: the loopback names reach the page handler (503 says how to build it).
    for (const h of [`127.0.0.1:${host.port}`, `localhost:${host.port}`, `[::1]:${host.port}`]) expect((await get(h)).status, h).toBe(503);
  });

  it('refuses a bridge upgrade naming another host, even with the token', async () => {
    await expect(bridge({ host: `evil.example:${host.port}` })).rejects.toThrow('HTTP 421');
    const ws = await bridge({ host: `localhost:${host.port}` });
    ws.close();
    await expectAlive();
  });
});

describe('request targets', () => {
  it('parses paths and refuses what is not one', () => {
    expect(parseTarget('/media/abc?token=1')?.pathname).toBe('/media/abc');
    expect(parseTarget(undefined)?.pathname).toBe('/');
    for (const t of ['//a:b/', 'http://[', 'http://evil/x', '*', '/media/%E0', '/%']) expect(parseTarget(t), t).toBeNull();
  });

  it("main's webhook receiver answers 400 to an unparseable target and keeps receiving", async () => {
    const receiver = new WebhookReceiver();
    await receiver.start();
    try {
      const p = receiver.params('j');
      const port = Number(new URL(p.webhook_url as string).port);
      expect((await rawRequest(port, 'POST //a:b/ HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 0\r\n\r\n')).status).toBe(400);
      const w = receiver.wait('t-1');
      const res = await fetch(p.webhook_url as string, {
        method: 'POST',
        headers: { [p.webhook_auth_header_name as string]: p.webhook_auth_header_value as string },
        body: JSON.stringify({ transcript_id: 't-1' }),
      });
      expect(res.status).toBe(200);
      await w.promise;
    } finally {
      await receiver.close();
    }
  });
});
