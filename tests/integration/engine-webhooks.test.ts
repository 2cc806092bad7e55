/**
 * Webhook delivery by the rules of API.md §7 against real receivers, with the
 * engine's webhook intervals and timeout made fast.
 */
import { rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEngine } from '../../src/engine/server';
import { CLIPS, makeSpeech } from '../fixtures/speech';
import { engineSandbox, type EngineSandbox } from '../support/engine';

const KEY = 'webhook-key';
let sandbox: EngineSandbox;
let dir: string;
let engine: RunningEngine;
let receiver: Server;
let receiverUrl = '';

interface Hit {
  path: string;
  query: string;
  headers: IncomingMessage['headers'];
  body: Record<string, unknown>;
}
const hits = new Map<string, Hit[]>();
/** Per receiver path: what to answer on each attempt (`hang` = never answer). */
const plans: Record<string, (number | 'hang')[]> = {
  '/flaky': [500, 200],
  '/gone': [404],
  '/silent': ['hang'],
  '/ok': [200],
};

beforeAll(async () => {
  sandbox = engineSandbox('engine-webhooks-');
  dir = sandbox.dir;
  receiver = createServer((req, res) => {
    const u = new URL(req.url ?? '/', 'http://x');
    let body = '';
    req.on('data', (d: Buffer) => (body += d.toString()));
    req.on('end', () => {
      const list = hits.get(u.pathname) ?? [];
      list.push({ path: u.pathname, query: u.search, headers: req.headers, body: JSON.parse(body || '{}') as Record<string, unknown> });
      hits.set(u.pathname, list);
      const plan = plans[u.pathname] ?? [200];
      const answer = plan[Math.min(list.length - 1, plan.length - 1)] as number | 'hang';
      if (answer !== 'hang') res.writeHead(answer).end();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  engine = await sandbox.start(KEY, { workers: 1, webhook: { intervalMs: 20, timeoutMs: 150 } });
});

afterAll(async () => {
  await engine?.close();
  receiver?.closeAllConnections();
  await new Promise<void>((r) => receiver.close(() => r()));
  rmSync(dir, { recursive: true, force: true });
});

async function submit(body: Record<string, unknown>): Promise<string> {
  const res = await fetch(`${engine.url}/v2/transcript`, {
    method: 'POST',
    headers: { authorization: KEY, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const t = (await res.json()) as Record<string, unknown>;
  expect(res.status).toBe(200);
  return t.id as string;
}

async function get(id: string): Promise<Record<string, unknown>> {
  return (await (await fetch(`${engine.url}/v2/transcript/${id}`, { headers: { authorization: KEY } })).json()) as Record<string, unknown>;
}

async function settle(path: string, attempts: number): Promise<Hit[]> {
  const until = Date.now() + 20_000;
  while ((hits.get(path)?.length ?? 0) < attempts && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
  await engine.ctx.webhooks.idle();
  return hits.get(path) ?? [];
}

// A job that fails fast (nothing listens on port 9) reaches a final status without decoding.
const FAILING_AUDIO = 'http://127.0.0.1:9/a.wav';

describe('engine webhooks', () => {
  it('500 then 200 → two attempts, auth header on both, query kept, secret never echoed', async () => {
    const id = await submit({
      audio_url: FAILING_AUDIO,
      webhook_url: `${receiverUrl}/flaky?client=abc&n=1`,
      webhook_auth_header_name: 'X-Hook-Secret',
      webhook_auth_header_value: 's3cret',
    });
    const list = await settle('/flaky', 2);
    expect(list).toHaveLength(2);
    for (const h of list) {
      expect(h.headers['x-hook-secret']).toBe('s3cret');
      expect(h.query).toBe('?client=abc&n=1');
      expect(h.body).toEqual({ transcript_id: id, status: 'error' });
    }
    const t = await get(id);
    expect(t.webhook_status_code).toBe(200);
    expect(t.webhook_url).toBe(`${receiverUrl}/flaky?client=abc&n=1`);
    expect(t.webhook_auth).toBe(true);
    expect(t.webhook_auth_header_name).toBe('X-Hook-Secret');
    expect(JSON.stringify(t)).not.toContain('s3cret');
  });

  it('404 → one attempt only', async () => {
    const id = await submit({ audio_url: FAILING_AUDIO, webhook_url: `${receiverUrl}/gone` });
    // settle() ends with the engine's webhooks.idle(): every delivery has ended, so no attempt is still to come.
    const list = await settle('/gone', 1);
    expect(hits.get('/gone')).toHaveLength(1);
    expect(list[0]!.body).toEqual({ transcript_id: id, status: 'error' });
    expect((await get(id)).webhook_status_code).toBe(404);
  });

  it('a receiver that never answers → 10 attempts, then it stops', async () => {
    await submit({ audio_url: FAILING_AUDIO, webhook_url: `${receiverUrl}/silent` });
    await settle('/silent', 10);
    expect(hits.get('/silent')).toHaveLength(10);
  });

  it('completed transcripts notify with status completed', async () => {
    const wav = makeSpeech(dir, 'fox', CLIPS.fox);
    const up = (await (
      await fetch(`${engine.url}/v2/upload`, { method: 'POST', headers: { authorization: KEY }, body: (await import('node:fs')).readFileSync(wav) })
    ).json()) as { upload_url: string };
    const id = await submit({ audio_url: up.upload_url, webhook_url: `${receiverUrl}/ok` });
    const list = await settle('/ok', 1);
    expect(list[0]!.body).toEqual({ transcript_id: id, status: 'completed' });
    expect((await get(id)).status).toBe('completed');
  });
});

describe('engine without its recognizer model', () => {
  it('starts, and jobs fail with an error naming the Debian packages to install', async () => {
    const { SphinxRecognizer } = await import('../../src/engine/recognizer/sphinx');
    const recognizer = new SphinxRecognizer({ modelDir: join(dir, 'no-model-here') });
    expect(recognizer.available).toBe(false);
    const bare = await sandbox.start(KEY, { data: 'data-nomodel', workers: 1, recognizer });
    try {
      const wav = makeSpeech(dir, 'fox2', CLIPS.fox);
      const up = (await (
        await fetch(`${bare.url}/v2/upload`, { method: 'POST', headers: { authorization: KEY }, body: (await import('node:fs')).readFileSync(wav) })
      ).json()) as { upload_url: string };
      const res = await fetch(`${bare.url}/v2/transcript`, {
        method: 'POST',
        headers: { authorization: KEY },
        body: JSON.stringify({ audio_url: up.upload_url }),
      });
      const id = ((await res.json()) as { id: string }).id;
      let t: Record<string, unknown> = {};
      for (let i = 0; i < 200; i++) {
        t = (await (await fetch(`${bare.url}/v2/transcript/${id}`, { headers: { authorization: KEY } })).json()) as Record<string, unknown>;
        if (t.status === 'error' || t.status === 'completed') break;
        await new Promise((r) => setTimeout(r, 50));
      }
      expect(t.status).toBe('error');
      expect(t.error).toMatch(/pocketsphinx-en-us/);
      expect(t.error).toMatch(/apt-get install/);
    } finally {
      await bare.close();
    }
  });
});
