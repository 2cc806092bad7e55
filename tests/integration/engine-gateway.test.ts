/**
 * The LLM gateway over real HTTP: an OpenAI-compatible upstream started
 * here (a real server answering the chat-completions shape), the offline
 * extractive model over a transcript in the engine's real SQLite store,
 * rate limits and speech understanding.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEngine } from '../../src/engine/server';
import { engineSandbox, type EngineSandbox } from '../support/engine';
import type { TranscriptResult } from '../../src/engine/store';
import { transcriptParams } from '../support/transcript-params';

const KEY = 'gateway-test-key';
const UPSTREAM_KEY = 'upstream-secret';
let sandbox: EngineSandbox;
let engine: RunningEngine;
let bare: RunningEngine;
let upstream: Server;
let upstreamUrl: string;
const seen: { auth: string | undefined; body: Record<string, unknown> }[] = [];

const SENTENCES = [
  { text: 'Good morning and welcome to the planning meeting.', start: 400, end: 3100 },
  { text: 'The budget for the new warehouse is four million dollars.', start: 3500, end: 7200 },
  { text: 'Construction starts in the spring after the permits arrive.', start: 7600, end: 11_300 },
  {
    text: 'Call me at five five five one two three four five six seven on march fifth two thousand twenty four or email jane at example dot com.',
    start: 11_800,
    end: 19_000,
  },
];

function storeTranscript(e: RunningEngine, id: string): void {
  const params = transcriptParams();
  const sentences = SENTENCES.map((s) => ({ ...s, confidence: 0.9, words: [], speaker: null, channel: null }));
  const result = {
    text: SENTENCES.map((s) => s.text).join(' '),
    words: [],
    sentences,
    confidence: 0.9,
    audio_duration: 19,
    speech_model_used: 'universal-2',
    warnings: [],
  } as unknown as TranscriptResult;
  // Insert and complete in one tick, before the job runner can claim the row.
  e.ctx.store.insertTranscript(id, params, null);
  e.ctx.store.complete(id, result, null);
}

async function readBody(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
}

let schemaAttempts = 0;

beforeAll(async () => {
  sandbox = engineSandbox('verbatim-gateway-');
  upstream = createServer((req, res) => {
    void readBody(req).then((body) => {
      seen.push({ auth: req.headers.authorization, body });
      if (req.url !== '/v1/chat/completions') {
        res.writeHead(404).end();
        return;
      }
      const messages = body.messages as { role: string; content: string }[];
      const last = messages[messages.length - 1]?.content ?? '';
      if (body.stream) {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        for (const piece of ['Hel', 'lo ', 'there'])
          res.write(`data: ${JSON.stringify({ choices: [{ index: 0, delta: { content: piece }, finish_reason: null }] })}\n\n`);
        res.write(`data: ${JSON.stringify({ choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] })}\n\n`);
        res.end('data: [DONE]\n\n');
        return;
      }
      let message: Record<string, unknown> = { role: 'assistant', content: `echo: ${last.slice(0, 4000)}` };
      let finish = 'stop';
      if (Array.isArray(body.tools) && body.tools.length) {
        message = {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }],
        };
        finish = 'tool_calls';
      } else if (body.response_format) {
        schemaAttempts++;
        message = { role: 'assistant', content: schemaAttempts === 1 ? '{"city": 42}' : '```json\n{"city": "Paris", "days": 3}\n```' };
      } else if (String(messages[0]?.content).startsWith('You translate')) {
        message = { role: 'assistant', content: `[${/"(\w+)"/.exec(last)?.[1]}] Buenos dias` };
      }
      const out = JSON.stringify({
        id: 'up-1',
        object: 'chat.completion',
        created: 1,
        model: body.model,
        choices: [{ index: 0, message, finish_reason: finish }],
        usage: { prompt_tokens: 11, completion_tokens: 7, total_tokens: 18 },
      });
      res.writeHead(200, { 'content-type': 'application/json' }).end(out);
    });
  });
  await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', () => r()));
  upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}/v1`;
  engine = await sandbox.start(KEY, {
    gateway: { upstreams: [{ baseUrl: upstreamUrl, apiKey: UPSTREAM_KEY, models: ['up-small'] }], limits: { 'verbatim-extractive': 5 } },
  });
  bare = await sandbox.start(KEY, { data: 'bare' });
  storeTranscript(engine, 'a0000000-0000-4000-8000-000000000001');
  storeTranscript(bare, 'a0000000-0000-4000-8000-000000000001');
});

afterAll(async () => {
  await new Promise((r) => upstream?.close(r));
  await sandbox.cleanup();
});

const TID = 'a0000000-0000-4000-8000-000000000001';

async function post(path: string, body: unknown, e = engine) {
  return fetch(`${e.url}${path}`, { method: 'POST', headers: { Authorization: KEY, 'content-type': 'application/json' }, body: JSON.stringify(body) });
}

interface ChatAnswer {
  request_id: string;
  object: string;
  model: string;
  choices: { index: number; message: { role: string; content: string | null; tool_calls?: { function: { name: string } }[] }; finish_reason: string }[];
  usage: { prompt_tokens: number; completion_tokens: number; total_tokens: number; input_tokens: number; output_tokens: number };
}

describe('LLM gateway', () => {
  it('lists the upstream models and the built-in extractive one; requires the key', async () => {
    const r = await fetch(`${engine.url}/v1/models`, { headers: { Authorization: KEY } });
    expect(r.status).toBe(200);
    const { data } = (await r.json()) as { data: { id: string; name: string; description: string; context_length: number }[] };
    expect(data.map((m) => m.id)).toEqual(['up-small', 'verbatim-extractive']);
    for (const m of data) expect(m.name && m.description && m.context_length > 0).toBeTruthy();
    expect((await fetch(`${engine.url}/v1/models`)).status).toBe(401);
  });

  it('routes a chat to the OpenAI-compatible upstream with its key and injects the transcript', async () => {
    const r = await post('/v1/chat/completions', {
      model: 'up-small',
      transcript_id: TID,
      messages: [{ role: 'user', content: 'Summarize: {{ transcript }}' }],
    });
    expect(r.status).toBe(200);
    const a = (await r.json()) as ChatAnswer;
    expect(a.object).toBe('chat.completion');
    expect(a.model).toBe('up-small');
    expect(a.request_id).toBeTruthy();
    expect(a.choices[0]?.message.content).toMatch(/^echo: Summarize: Good morning and welcome/);
    expect(a.usage).toMatchObject({ prompt_tokens: 11, completion_tokens: 7, total_tokens: 18, input_tokens: 11, output_tokens: 7 });
    const got = seen.at(-1) as (typeof seen)[number];
    expect(got.auth).toBe(`Bearer ${UPSTREAM_KEY}`);
    expect(got.body.model).toBe('up-small');
    expect(got.body.max_tokens).toBe(1000);
    expect(r.headers.get('x-ratelimit-model')).toBe('up-small');
    expect(r.headers.get('x-ratelimit-service')).toBe('llm-gateway');
  });

  it('streams as server-sent events ending with [DONE]', async () => {
    const r = await post('/v1/chat/completions', { model: 'up-small', stream: true, messages: [{ role: 'user', content: 'hi' }] });
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toMatch(/text\/event-stream/);
    const text = await r.text();
    const events = text
      .split('\n\n')
      .filter(Boolean)
      .map((e) => e.replace(/^data: /, ''));
    expect(events.at(-1)).toBe('[DONE]');
    const chunks = events
      .slice(0, -1)
      .map((e) => JSON.parse(e) as { object: string; choices: { delta: { content?: string }; finish_reason: string | null }[] });
    expect(chunks.every((c) => c.object === 'chat.completion.chunk')).toBe(true);
    expect(chunks.map((c) => c.choices[0]?.delta.content ?? '').join('')).toBe('Hello there');
    expect(chunks.at(-1)?.choices[0]?.finish_reason).toBe('stop');
  });

  it('passes tools through and returns tool_calls', async () => {
    const tools = [{ type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } } }];
    const r = await post('/v1/chat/completions', { model: 'up-small', tools, tool_choice: 'auto', messages: [{ role: 'user', content: 'Weather in Paris?' }] });
    const a = (await r.json()) as ChatAnswer;
    expect(seen.at(-1)?.body.tools).toEqual(tools);
    expect(seen.at(-1)?.body.tool_choice).toBe('auto');
    expect(a.choices[0]?.finish_reason).toBe('tool_calls');
    expect(a.choices[0]?.message.tool_calls?.[0]?.function.name).toBe('get_weather');
  });

  it('validates a json_schema answer and repairs it once', async () => {
    const before = seen.length;
    const schema = { type: 'object', properties: { city: { type: 'string' }, days: { type: 'integer' } }, required: ['city'], additionalProperties: false };
    const r = await post('/v1/chat/completions', {
      model: 'up-small',
      response_format: { type: 'json_schema', json_schema: { name: 'trip', schema } },
      messages: [{ role: 'user', content: 'Plan a trip' }],
    });
    expect(r.status).toBe(200);
    const a = (await r.json()) as ChatAnswer;
    expect(seen.length - before).toBe(2);
    expect(JSON.stringify(seen.at(-1)?.body.messages)).toMatch(/does not match the required JSON schema/);
    expect(a.choices[0]?.message.content).toContain('"Paris"');
  });

  it('answers 400 for an unknown model and 404 for an unknown transcript', async () => {
    const r = await post('/v1/chat/completions', { model: 'gpt-9', messages: [{ role: 'user', content: 'x' }] });
    expect(r.status).toBe(400);
    expect(((await r.json()) as { error: { message: string } }).error.message).toMatch(/Unknown model.*\/v1\/models/);
    const r2 = await post('/v1/chat/completions', { model: 'up-small', transcript_id: 'nope', messages: [{ role: 'user', content: 'x' }] });
    expect(r2.status).toBe(404);
  });

  it('verbatim-extractive quotes the right sentence with its start time and says it is extractive', async () => {
    const r = await post(
      '/v1/chat/completions',
      { model: 'verbatim-extractive', transcript_id: TID, messages: [{ role: 'user', content: 'How much is the budget for the warehouse?' }] },
      bare,
    );
    expect(r.status).toBe(200);
    const content = ((await r.json()) as ChatAnswer).choices[0]?.message.content ?? '';
    expect(content).toMatch(/extractive/i);
    expect(content).toContain('[00:03] "The budget for the new warehouse is four million dollars."');
    expect(content.split('\n').filter((l) => l.startsWith('- '))[0]).toContain('budget');
    // Pasted text works too, without times.
    const r2 = await post(
      '/v1/chat/completions',
      {
        model: 'verbatim-extractive',
        messages: [
          { role: 'system', content: 'Notes: The cat sleeps all day. The dog guards the house at night.' },
          { role: 'user', content: 'Who guards the house?' },
        ],
      },
      bare,
    );
    expect(((await r2.json()) as ChatAnswer).choices[0]?.message.content).toContain('"The dog guards the house at night."');
  });

  it('limits requests per model in a 60 s window with all five headers, then 429 with Retry-After', async () => {
    const ask = () =>
      post('/v1/chat/completions', { model: 'verbatim-extractive', messages: [{ role: 'user', content: 'Text: The sky is blue. What color is the sky?' }] });
    for (let i = 0; i < 5; i++) {
      const r = await ask();
      expect(r.status).toBe(200);
      expect(r.headers.get('x-ratelimit-limit')).toBe('5');
      expect(r.headers.get('x-ratelimit-remaining')).toBe(String(4 - i));
      expect(Number(r.headers.get('x-ratelimit-reset'))).toBeGreaterThan(0);
      expect(Number(r.headers.get('x-ratelimit-reset'))).toBeLessThanOrEqual(60);
      expect(r.headers.get('x-ratelimit-model')).toBe('verbatim-extractive');
      expect(r.headers.get('x-ratelimit-service')).toBe('llm-gateway');
      await r.arrayBuffer();
    }
    const over = await ask();
    expect(over.status).toBe(429);
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(over.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(((await over.json()) as { error: { message: string } }).error.message).toMatch(/Rate limit/);
    // Another model has its own window.
    const other = await post('/v1/chat/completions', { model: 'up-small', messages: [{ role: 'user', content: 'x' }] });
    expect(other.status).toBe(200);
    expect(other.headers.get('x-ratelimit-limit')).toBe('30');
  });
});

describe('speech understanding', () => {
  it('formats dates, phone numbers and emails with local rules', async () => {
    const r = await post(
      '/v1/understanding',
      {
        transcript_id: TID,
        speech_understanding: { request: { custom_formatting: { date: 'mm/dd/yyyy', phone_number: '(xxx)xxx-xxxx', email: 'username@domain.com' } } },
      },
      bare,
    );
    expect(r.status).toBe(200);
    expect(r.headers.get('x-ratelimit-service')).toBe('speech-understanding');
    const t = (await r.json()) as {
      id: string;
      status: string;
      speech_understanding: { response: { custom_formatting: { formatted_text: string; mapping: Record<string, string>; status: string } } };
    };
    expect(t.id).toBe(TID);
    expect(t.status).toBe('completed');
    const cf = t.speech_understanding.response.custom_formatting;
    expect(cf.status).toBe('success');
    expect(cf.formatted_text).toContain('Call me at (555)123-4567 on 03/05/2024 or email jane@example.com.');
    expect(Object.values(cf.mapping)).toEqual(expect.arrayContaining(['(555)123-4567', '03/05/2024', 'jane@example.com']));
  });

  it("answers the same at /v1/speech-understanding (the seed's path) as at /v1/understanding, and 400 naming a missing transcript_id", async () => {
    const body = { transcript_id: TID, speech_understanding: { request: { custom_formatting: { date: 'mm/dd/yyyy' } } } };
    const [a, b] = [await post('/v1/speech-understanding', body, bare), await post('/v1/understanding', body, bare)];
    expect([a.status, b.status]).toEqual([200, 200]);
    const [ta, tb] = [(await a.json()) as Record<string, unknown>, (await b.json()) as Record<string, unknown>];
    expect(ta.speech_understanding).toEqual(tb.speech_understanding);
    expect(ta.id).toBe(TID);
    const noId = await post('/v1/speech-understanding', { speech_understanding: body.speech_understanding }, bare);
    expect(noId.status).toBe(400);
    expect(((await noId.json()) as { error: { message: string } }).error.message).toMatch(/transcript_id is required/);
  });

  it('translates through the configured provider', async () => {
    const r = await post('/v1/understanding', {
      transcript_id: TID,
      speech_understanding: { request: { translation: { target_languages: ['es', 'de'], formal: true } } },
    });
    expect(r.status).toBe(200);
    const t = (await r.json()) as { translated_texts: Record<string, string>; speech_understanding: { response: { translation: { status: string } } } };
    expect(t.translated_texts).toEqual({ es: '[es] Buenos dias', de: '[de] Buenos dias' });
    expect(t.speech_understanding.response.translation.status).toBe('success');
  });

  it('answers 400 for translation and speaker identification without a provider, and for an unknown transcript 404', async () => {
    const tr = await post('/v1/understanding', { transcript_id: TID, speech_understanding: { request: { translation: { target_languages: ['es'] } } } }, bare);
    expect(tr.status).toBe(400);
    expect(((await tr.json()) as { error: { message: string } }).error.message).toMatch(/translation needs a model that writes.*Settings → Models/);
    const si = await post(
      '/v1/understanding',
      { transcript_id: TID, speech_understanding: { request: { speaker_identification: { speaker_type: 'name' } } } },
      bare,
    );
    expect(si.status).toBe(400);
    expect(((await si.json()) as { error: { message: string } }).error.message).toMatch(/speaker_identification needs a model that writes/);
    const missing = await post(
      '/v1/understanding',
      { transcript_id: 'nope', speech_understanding: { request: { custom_formatting: { date: 'mm/dd/yyyy' } } } },
      bare,
    );
    expect(missing.status).toBe(404);
  });
});
