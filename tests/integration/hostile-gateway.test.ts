/**
 * Hostile inputs against the LLM gateway (issue 26, items 8–11), sent to /v1
 * of a real engine with a real OpenAI-compatible upstream: invalid and
 * catastrophic-backtracking `pattern`s, schemas nested deep or wide,
 * answers that make validation costly, and speech-understanding fan-out.
 * The engine runs in this process, so perf_hooks.monitorEventLoopDelay here
 * measures its event loop; figures are printed, and the assertions are only
 * what holds on a loaded machine too.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEngine } from '../../src/engine/server';
import type { TranscriptParams, TranscriptResult } from '../../src/engine/store';
import { MAX_TARGET_LANGUAGES } from '../../src/engine/gateway/gateway';
import { SCHEMA_LIMITS } from '../../src/engine/gateway/json-schema';
import { engineSandbox, type EngineSandbox } from '../support/engine';

const KEY = 'hostile-gateway-key';
const TID = 'b0000000-0000-4000-8000-000000000001';
const TRANSLATE_LIMIT = 30;
let sandbox: EngineSandbox;
let engine: RunningEngine;
let upstream: Server;
const calls = { schema: 0, translate: 0 };
/** What the upstream answers to a response_format request. */
let schemaAnswer = '{}';
const loop = monitorEventLoopDelay({ resolution: 10 });
/** A full collection before a memory reading, so the figure is what is held, not garbage not yet collected. */
function collect(): void {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
}
const figures = { inputs: 0, statuses: new Map<number, number>(), rssStart: 0, rssEnd: 0 };

async function readBody(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
}

beforeAll(async () => {
  sandbox = engineSandbox('verbatim-hostile-gateway-');
  upstream = createServer((req, res) => {
    void readBody(req).then((body) => {
      const messages = body.messages as { role: string; content: string }[];
      let content = 'ok';
      if (body.response_format) {
        calls.schema++;
        content = schemaAnswer;
      } else if (String(messages[0]?.content).startsWith('You translate')) calls.translate++;
      res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          id: 'u',
          object: 'chat.completion',
          created: 1,
          model: body.model,
          choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
        }),
      );
    });
  });
  await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', () => r()));
  const baseUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}/v1`;
  engine = await sandbox.start(KEY, {
    gateway: {
      upstreams: [{ baseUrl, models: ['up-chat', 'up-translate'] }],
      limits: { 'up-translate': TRANSLATE_LIMIT },
      defaultLimit: 100_000,
      understandingModel: 'up-translate',
    },
  });
  const params = { audio_url: 'http://example.invalid/a.wav', speech_models: ['universal-2'], language_code: 'en_us' } as unknown as TranscriptParams;
  const result = {
    text: 'Good morning.',
    words: [],
    sentences: [],
    confidence: 0.9,
    audio_duration: 1,
    speech_model_used: 'universal-2',
    warnings: [],
  } as unknown as TranscriptResult;
  engine.ctx.store.insertTranscript(TID, params, null);
  engine.ctx.store.complete(TID, result, null);
  // Warm the routes once, then measure.
  await chat({ type: 'string' });
  collect();
  figures.rssStart = process.memoryUsage().rss / 1048576;
  loop.enable();
});

afterAll(async () => {
  loop.disable();
  await new Promise((r) => upstream?.close(r));
  await sandbox.cleanup();
});

async function post(path: string, body: unknown): Promise<{ status: number; text: string }> {
  figures.inputs++;
  const r = await fetch(`http://127.0.0.1:${engine.port}${path}`, {
    method: 'POST',
    headers: { authorization: KEY, 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  figures.statuses.set(r.status, (figures.statuses.get(r.status) ?? 0) + 1);
  return { status: r.status, text: await r.text() };
}

const chat = (schema: unknown) =>
  post('/v1/chat/completions', {
    model: 'up-chat',
    messages: [{ role: 'user', content: 'Answer.' }],
    response_format: { type: 'json_schema', json_schema: { name: 'x', schema } },
  });

/** A schema nested `depth` deep, as JSON text (JSON.stringify itself overflows the stack on the deepest). */
function nested(depth: number, key: 'properties' | 'items' | 'anyOf' | 'raw'): string {
  const [open, close] =
    key === 'properties'
      ? ['{"type":"object","properties":{"a":', '}}']
      : key === 'items'
        ? ['{"type":"array","items":', '}']
        : key === 'anyOf'
          ? ['{"anyOf":[', ']}']
          : ['{"description":[', ']}'];
  return `${open.repeat(depth)}{"type":"string"}${close.repeat(depth)}`;
}

const chatText = (schemaText: string) =>
  post(
    '/v1/chat/completions',
    `{"model":"up-chat","messages":[{"role":"user","content":"Answer."}],"response_format":{"type":"json_schema","json_schema":{"name":"x","schema":${schemaText}}}}`,
  );

const BAD_PATTERNS = [
  '(',
  ')',
  'a{2,1}',
  '[',
  '[z-a]',
  '*',
  '+a',
  'a**',
  '(?<name',
  '\\',
  '(?=a)',
  '(?!a)',
  '(?<=a)b',
  '(?<!a)b',
  '(a)\\1',
  'a{1001}',
  '[[:bogus:]]',
  '\\p{Bogus}',
  '(?P<>a)',
  'x{2}{3}{4}{5}',
];
const EVIL = ['^(a+)+$', '^(a|a)+$', '^(a|aa)+$', '^(a*)*$', '^(.*a){12}$', '^([a-zA-Z]+)*$', '^(\\w+\\s?)*$', '(a+)+b', '^(a?){25}a{25}$', '^((ab)*)+$'];

describe('hostile gateway: patterns (items 8 and 9)', () => {
  it('refuses every invalid or backtracking-only pattern with a 400 naming it, before any upstream call', async () => {
    const before = calls.schema;
    for (const p of BAD_PATTERNS) {
      for (const schema of [
        { type: 'string', pattern: p },
        { type: 'object', properties: { deep: { type: 'array', items: { type: 'string', pattern: p } } } },
      ]) {
        const r = await chat(schema);
        expect(r.status, `${p}: ${r.text}`).toBe(400);
        expect(r.text).toContain(JSON.stringify(JSON.stringify(p)).slice(1, -1));
      }
    }
    const long = await chat({ type: 'string', pattern: 'a'.repeat(SCHEMA_LIMITS.patternLength + 1) });
    expect(long.status).toBe(400);
    expect(calls.schema).toBe(before);
  });

  it('checks answers against catastrophic patterns in linear time: the loop keeps turning', async () => {
    for (const p of EVIL) {
      for (const n of [20, 31, 36, 5000]) {
        schemaAnswer = JSON.stringify({ v: 'a'.repeat(n) + '!' });
        const r = await chat({ type: 'object', properties: { v: { type: 'string', pattern: p } }, required: ['v'] });
        // No match (502 after the one repair) or a match (200): either way an answer, at once.
        expect([200, 502], r.text).toContain(r.status);
      }
    }
    schemaAnswer = JSON.stringify({ v: 'aaaa' });
    const ok = await chat({ type: 'object', properties: { v: { type: 'string', pattern: '^(a+)+$' } } });
    expect(ok.status).toBe(200);
    expect(loop.max / 1e6).toBeLessThan(1000);
  });
});

describe('hostile gateway: schema depth, breadth and work (item 11)', () => {
  it('answers a clear 400 for schemas too deep, too wide or too large', async () => {
    const before = calls.schema;
    for (const depth of [SCHEMA_LIMITS.depth + 1, 100, 1000, 15_000]) {
      for (const key of ['properties', 'items', 'anyOf', 'raw'] as const) {
        const r = await chatText(nested(depth, key));
        expect(r.status, `${key} ${depth}: ${r.text.slice(0, 200)}`).toBe(400);
        expect(r.text).toMatch(/nested deeper than \d+ levels/);
      }
    }
    for (const n of [SCHEMA_LIMITS.branches + 1, 500, 2000]) {
      for (const k of ['anyOf', 'oneOf', 'allOf']) {
        const r = await chat({ [k]: Array.from({ length: n }, (_, i) => ({ const: i })) });
        expect(r.status).toBe(400);
      }
    }
    const wide = await chat({
      type: 'object',
      properties: Object.fromEntries(Array.from({ length: SCHEMA_LIMITS.subschemas + 1 }, (_, i) => [`p${i}`, { type: 'string' }])),
    });
    expect(wide.status).toBe(400);
    expect(wide.text).toContain('subschemas');
    const bigEnum = await chat({ enum: Array.from({ length: SCHEMA_LIMITS.enumEntries + 1 }, (_, i) => i) });
    expect(bigEnum.status).toBe(400);
    expect(calls.schema).toBe(before);
  });

  it('stops a costly validation (100 branches over 20,000 items) with an answer, not a stall', async () => {
    schemaAnswer = JSON.stringify(Array.from({ length: 20_000 }, (_, i) => ({ k: i })));
    const schema = {
      type: 'array',
      items: { anyOf: Array.from({ length: SCHEMA_LIMITS.branches }, (_, i) => ({ type: 'object', properties: { k: { const: -i - 1 } } })) },
    };
    for (let i = 0; i < 10; i++) {
      const r = await chat(schema);
      expect(r.status).toBe(502);
      expect(r.text).toContain('steps');
    }
    schemaAnswer = '{}';
  });
});

describe('hostile gateway: fan-out (item 10)', () => {
  const understand = (langs: string[]) =>
    post('/v1/understanding', { transcript_id: TID, speech_understanding: { request: { translation: { target_languages: langs } } } });

  it(`caps target_languages at ${MAX_TARGET_LANGUAGES} and counts every upstream call against the rate limit`, async () => {
    for (const n of [MAX_TARGET_LANGUAGES + 1, 50, 1000, 10_000]) {
      const r = await understand(Array.from({ length: n }, (_, i) => `l${i}`));
      expect(r.status, r.text.slice(0, 200)).toBe(400);
      expect(r.text).toContain(`at most ${MAX_TARGET_LANGUAGES}`);
    }
    expect(calls.translate).toBe(0);
    // The refused requests above were each counted once at the door: what is left of the minute's budget is spent in full-size requests.
    let answered = 0;
    for (let i = 0; i < 10; i++) {
      const r = await understand(Array.from({ length: MAX_TARGET_LANGUAGES }, (_, j) => `l${j}`));
      if (r.status === 200) answered++;
      else {
        expect(r.status).toBe(429);
        expect(r.text).toContain('Rate limit');
      }
    }
    expect(answered).toBeGreaterThan(0);
    expect(calls.translate).toBe(answered * MAX_TARGET_LANGUAGES);
    expect(calls.translate).toBeLessThanOrEqual(TRANSLATE_LIMIT);
  });
});

describe('hostile gateway: the end', () => {
  it('leaves the engine answering, its memory and event loop within bounds (printed)', async () => {
    const health = await fetch(`http://127.0.0.1:${engine.port}/health`);
    expect(health.status).toBe(200);
    collect();
    figures.rssEnd = process.memoryUsage().rss / 1048576;
    const f = {
      inputs: figures.inputs,
      statuses: Object.fromEntries(figures.statuses),
      loopMaxMs: Math.round(loop.max / 1e5) / 10,
      loopP99Ms: Math.round(loop.percentile(99) / 1e5) / 10,
      rssStartMiB: Math.round(figures.rssStart),
      rssEndMiB: Math.round(figures.rssEnd),
    };
    console.log(`hostile-gateway figures: ${JSON.stringify(f)}`);
    expect(figures.inputs).toBeGreaterThanOrEqual(120);
    expect(figures.rssEnd - figures.rssStart).toBeLessThan(150);
    expect(f.loopMaxMs).toBeLessThan(1000);
  });
});
