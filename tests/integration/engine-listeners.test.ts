/**
 * No single request may stop the engine (issue 12): raw bytes over a plain
 * TCP socket against the request and upgrade listeners, then `/health` must
 * still answer. Any throw inside a listener would be an uncaught exception
 * here, which fails the run.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startEngine, type RunningEngine } from '../../src/engine/server';
import { rawRequest } from './support/processes';

const KEY = 'listener-test-key';
let dir: string;
let engine: RunningEngine;

/**
 * Writes `bytes` in one write and collects the engine's first answer: its head
 * and its Content-Length body (a 101 has none), or what came before it closed
 * or `waitMs` passed.
 */
async function raw(bytes: Buffer | string, waitMs = 15_000): Promise<string> {
  return (await rawRequest(engine.port, bytes, waitMs)).text;
}

async function healthy(): Promise<void> {
  const res = await fetch(`${engine.url}/health`);
  expect(res.status).toBe(200);
  expect(((await res.json()) as { status: string }).status).toBe('ok');
}

/** An unmasked (server-style) WebSocket text frame: clients must mask, so the engine's parser errors. */
function unmaskedFrame(payload: string): Buffer {
  const p = Buffer.from(payload);
  return Buffer.concat([Buffer.from([0x81, p.length]), p]);
}

/** A masked binary frame of `size` bytes with a 64-bit length. */
function maskedBigFrame(size: number): Buffer {
  const head = Buffer.alloc(14);
  head[0] = 0x82;
  head[1] = 0x80 | 127;
  head.writeBigUInt64BE(BigInt(size), 2);
  // mask key 0: the payload goes out as is
  return Buffer.concat([head, Buffer.alloc(size, 1)]);
}

function upgrade(path: string, headers: Record<string, string> = {}): string {
  const h = {
    Host: '127.0.0.1',
    Upgrade: 'websocket',
    Connection: 'Upgrade',
    'Sec-WebSocket-Version': '13',
    'Sec-WebSocket-Key': 'dGhlIHNhbXBsZSBub25jZQ==',
    ...headers,
  };
  return `GET ${path} HTTP/1.1\r\n${Object.entries(h)
    .map(([k, v]) => `${k}: ${v}`)
    .join('\r\n')}\r\n\r\n`;
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'engine-listeners-'));
  engine = await startEngine({ host: '127.0.0.1', port: 0, apiKey: KEY, dataDir: join(dir, 'data'), workers: 1, quiet: true, streaming: { maxSessions: 2 } });
});

afterAll(async () => {
  await engine?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('request targets that are not URLs', () => {
  it('answers 400 to GET //a:b/ and GET http://[ and keeps serving', async () => {
    for (const target of ['//a:b/', 'http://[', '//a:b/v2/transcript', 'http://[/health']) {
      const answer = await raw(`GET ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${KEY}\r\nConnection: close\r\n\r\n`);
      expect(answer, target).toMatch(/^HTTP\/1\.1 400 /);
      expect(answer).toMatch(/"error":"/);
      await healthy();
    }
  });

  it('answers 400 to an upgrade whose target is not a URL', async () => {
    for (const target of ['//a:b/v3/ws', 'http://[']) {
      const answer = await raw(upgrade(target, { Authorization: KEY }));
      expect(answer, target).toMatch(/^HTTP\/1\.1 400 /);
      await healthy();
    }
  });
});

describe('WebSockets refused before a session starts', () => {
  it('survives an unmasked frame sent with an upgrade that has no key', async () => {
    const answer = await raw(Buffer.concat([Buffer.from(upgrade('/v3/ws')), unmaskedFrame('{"type":"KeepAlive"}')]));
    expect(answer).toMatch(/^HTTP\/1\.1 101 /);
    await healthy();
  });

  it('survives 600 KB sent on a connection opened with a bogus token', async () => {
    const answer = await raw(Buffer.concat([Buffer.from(upgrade('/v3/ws?token=bogus')), maskedBigFrame(600 * 1024)]));
    expect(answer).toMatch(/^HTTP\/1\.1 101 /);
    await healthy();
  });

  it('survives an unmasked frame on an upgrade to an unknown path, refused with 404', async () => {
    const answer = await raw(Buffer.concat([Buffer.from(upgrade('/nowhere', { Authorization: KEY })), unmaskedFrame('x')]));
    expect(answer).toMatch(/^HTTP\/1\.1 404 /);
    await healthy();
  });

  it('survives protocol errors after a refusal for bad parameters', async () => {
    const answer = await raw(
      Buffer.concat([Buffer.from(upgrade('/v3/ws?sample_rate=abc', { Authorization: KEY })), unmaskedFrame('x'), maskedBigFrame(600 * 1024)]),
    );
    expect(answer).toMatch(/^HTTP\/1\.1 101 /);
    await healthy();
  });
});

describe('close reasons are at most 123 bytes of UTF-8', () => {
  function open(query: string): { ws: WebSocket; begun: Promise<void>; closed: Promise<{ code: number; reason: string }> } {
    const ws = new WebSocket(`${engine.url.replace(/^http/, 'ws')}/v3/ws${query}`, { headers: { Authorization: KEY } });
    ws.on('error', () => undefined);
    const begun = new Promise<void>((r) => ws.on('message', () => r()));
    const closed = new Promise<{ code: number; reason: string }>((r) => ws.on('close', (code, reason) => r({ code, reason: reason.toString('utf8') })));
    return { ws, begun, closed };
  }

  it('closes 3006 (not 3005) for a sample_rate of 60 é, with a reason cut at a character boundary', async () => {
    const c = open(`?sample_rate=${encodeURIComponent('é'.repeat(60))}`);
    const { code, reason } = await c.closed;
    expect(code).toBe(3006);
    expect(reason).toMatch(/^Invalid sample_rate/);
    expect(Buffer.byteLength(reason)).toBeLessThanOrEqual(123);
    expect(reason).not.toContain('\ufffd');
    await healthy();
  });

  it('closes 3006 for a message type of 80 é in a session and keeps serving', async () => {
    const c = open('');
    await c.begun;
    c.ws.send(JSON.stringify({ type: 'é'.repeat(80) }));
    const { code, reason } = await c.closed;
    expect(code).toBe(3006);
    expect(reason).toMatch(/^Unknown message type/);
    expect(Buffer.byteLength(reason)).toBeLessThanOrEqual(123);
    expect(reason).not.toContain('\ufffd');
    await healthy();
  });
});

describe('transcript windows and encoded paths', () => {
  async function create(body: Record<string, unknown>): Promise<{ status: number; error?: string }> {
    const res = await fetch(`${engine.url}/v2/transcript`, {
      method: 'POST',
      headers: { authorization: KEY, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: res.status, error: ((await res.json()) as { error?: string }).error };
  }

  it('answers 400 for audio_end_at 0 and audio_start_from 1e300', async () => {
    const zero = await create({ audio_url: 'http://127.0.0.1:9/a.wav', audio_end_at: 0 });
    expect(zero.status).toBe(400);
    expect(zero.error).toMatch(/audio_end_at/);
    const huge = await create({ audio_url: 'http://127.0.0.1:9/a.wav', audio_start_from: 1e300 });
    expect(huge.status).toBe(400);
    expect(huge.error).toMatch(/audio_start_from/);
  });

  it('answers 4xx, not 500, for a path segment that is not valid percent-encoding', async () => {
    for (const path of ['/v2/transcript/%E0', '/v2/files/%E0', '/v2/transcript/%E0/srt']) {
      const res = await fetch(`${engine.url}${path}`, { headers: { authorization: KEY } });
      expect(res.status, path).toBeGreaterThanOrEqual(400);
      expect(res.status, path).toBeLessThan(500);
    }
    await healthy();
  });
});
