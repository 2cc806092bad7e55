/**
 * The official `openai` npm client (5.x) as a third client of the engine's
 * LLM gateway, only its baseURL changed: models.list, chat whole and
 * streamed, response_format json_schema through parse(), stop and
 * max_completion_tokens with an upstream that ignores both and with the
 * extractive model, and errors as its error classes with plain sentences.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import OpenAI from 'openai';
import { makeParseableResponseFormat } from 'openai/lib/parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEngine } from '../../src/engine/server';
import type { TranscriptParams, TranscriptResult } from '../../src/engine/store';
import { engineSandbox, type EngineSandbox } from '../support/engine';
import { installTinyGguf } from '../fixtures/models/gguf';

const KEY = 'openai-client-key';
const TID = 'b0000000-0000-4000-8000-000000000001';
/** What the upstream always writes, whatever stop it is sent: a provider that cannot honour stop. */
const ANSWER = 'alpha beta gamma END delta epsilon';
const STREAMED = ['alpha ', 'beta gam', 'ma E', 'ND delta', ' epsilon'];

let sandbox: EngineSandbox;
let engine: RunningEngine;
let upstream: Server;
let client: OpenAI;
const seen: Record<string, unknown>[] = [];

async function readBody(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
}

beforeAll(async () => {
  sandbox = engineSandbox('engine-openai-');
  upstream = createServer((req, res) => {
    void readBody(req).then((body) => {
      seen.push(body);
      if (body.stream) {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        for (const piece of STREAMED) res.write(`data: ${JSON.stringify({ choices: [{ index: 0, delta: { content: piece }, finish_reason: null }] })}\n\n`);
        res.write(`data: ${JSON.stringify({ choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] })}\n\n`);
        res.end('data: [DONE]\n\n');
        return;
      }
      const content = body.response_format ? '{"city": "Paris", "days": 3}' : ANSWER;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
          usage: { prompt_tokens: 5, completion_tokens: 9 },
        }),
      );
    });
  });
  await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', () => r()));
  // The local GGUF provider: a tiny llama whose greedy answer is always "The meeting agreed to ship the report on Friday." (tests/fixtures/models/gguf.ts).
  const modelsDir = join(sandbox.dir, 'models');
  installTinyGguf(modelsDir, 'tiny-llama-test');
  engine = await sandbox.start(KEY, {
    modelsDir,
    gateway: {
      local: { threads: 1 },
      upstreams: [{ baseUrl: `http://127.0.0.1:${(upstream.address() as AddressInfo).port}/v1`, models: ['up-small'] }],
      limits: { 'up-limited': 1 },
    },
  });
  const sentences = [
    { text: 'The budget for the new warehouse is four million dollars.', start: 400, end: 3100 },
    { text: 'Construction starts in the spring after the permits arrive.', start: 3500, end: 7200 },
  ];
  engine.ctx.store.insertTranscript(
    TID,
    { audio_url: 'http://example.invalid/a.wav', speech_models: ['universal-2'], language_code: 'en_us' } as TranscriptParams,
    null,
  );
  engine.ctx.store.complete(
    TID,
    {
      text: sentences.map((s) => s.text).join(' '),
      words: [],
      sentences: sentences.map((s) => ({ ...s, confidence: 0.9, words: [], speaker: null, channel: null })),
      confidence: 0.9,
      audio_duration: 8,
      speech_model_used: 'universal-2',
      warnings: [],
    } as TranscriptResult,
    null,
  );
  client = new OpenAI({ apiKey: KEY, baseURL: `${engine.url}/v1`, maxRetries: 0 });
});

afterAll(async () => {
  await new Promise((r) => upstream?.close(r));
  await sandbox?.cleanup();
});

/** The chat body the engine sends with `transcript_id` (not an OpenAI parameter, so passed as an extra body field). */
const withTranscript = { transcript_id: TID } as Record<string, unknown>;

describe('the openai client against the gateway', () => {
  it('lists the models', async () => {
    const ids: string[] = [];
    for await (const m of client.models.list()) ids.push(m.id);
    expect(ids).toEqual(expect.arrayContaining(['up-small', 'verbatim-extractive']));
  });

  it('chats, whole and streamed', async () => {
    const whole = await client.chat.completions.create({ model: 'up-small', messages: [{ role: 'user', content: 'Say something' }] });
    expect(whole.choices[0]?.message.content).toBe(ANSWER);
    expect(whole.choices[0]?.finish_reason).toBe('stop');
    const stream = await client.chat.completions.create({ model: 'up-small', messages: [{ role: 'user', content: 'Say something' }], stream: true });
    let text = '';
    let finish: string | null = null;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta.content ?? '';
      finish = chunk.choices[0]?.finish_reason ?? finish;
    }
    expect(text).toBe(ANSWER);
    expect(finish).toBe('stop');
  });

  it('answers a json_schema response_format that parse() reads', async () => {
    const schema = {
      type: 'object',
      properties: { city: { type: 'string' }, days: { type: 'integer' } },
      required: ['city', 'days'],
      additionalProperties: false,
    };
    const format = makeParseableResponseFormat(
      { type: 'json_schema', json_schema: { name: 'trip', schema, strict: true } },
      (content: string) => JSON.parse(content) as { city: string; days: number },
    );
    const r = await client.chat.completions.parse({ model: 'up-small', messages: [{ role: 'user', content: 'Plan a trip' }], response_format: format });
    expect(r.choices[0]?.message.parsed).toEqual({ city: 'Paris', days: 3 });
    expect(seen.at(-1)?.response_format).toEqual({ type: 'json_schema', json_schema: { name: 'trip', schema, strict: true } });
  });

  it('stop reaches the upstream, and the answer ends before it even though the upstream ignored it (whole and streamed)', async () => {
    const whole = await client.chat.completions.create({ model: 'up-small', messages: [{ role: 'user', content: 'Count' }], stop: ['END'] });
    expect(seen.at(-1)?.stop).toEqual(['END']);
    expect(whole.choices[0]?.message.content).toBe('alpha beta gamma ');
    expect(whole.choices[0]?.finish_reason).toBe('stop');
    const stream = await client.chat.completions.create({ model: 'up-small', messages: [{ role: 'user', content: 'Count' }], stop: 'END', stream: true });
    let text = '';
    const finishes: (string | null)[] = [];
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta.content ?? '';
      finishes.push(chunk.choices[0]?.finish_reason ?? null);
    }
    expect(seen.at(-1)?.stop).toEqual(['END']);
    expect(text).toBe('alpha beta gamma ');
    expect(finishes.filter(Boolean)).toEqual(['stop']);
  });

  it('stop ends the extractive model’s answer too', async () => {
    const full = await client.chat.completions.create({
      model: 'verbatim-extractive',
      messages: [{ role: 'user', content: 'What is the budget for the warehouse?' }],
      ...withTranscript,
    });
    const text = full.choices[0]?.message.content ?? '';
    expect(text).toContain('four million dollars');
    const cut = await client.chat.completions.create({
      model: 'verbatim-extractive',
      messages: [{ role: 'user', content: 'What is the budget for the warehouse?' }],
      stop: ['four million'],
      ...withTranscript,
    });
    expect(cut.choices[0]?.message.content).toBe(text.slice(0, text.indexOf('four million')));
    let streamed = '';
    const stream = await client.chat.completions.create({
      model: 'verbatim-extractive',
      messages: [{ role: 'user', content: 'What is the budget for the warehouse?' }],
      stop: ['four million'],
      stream: true,
      ...withTranscript,
    });
    for await (const chunk of stream) streamed += chunk.choices[0]?.delta.content ?? '';
    expect(streamed).toBe(text.slice(0, text.indexOf('four million')));
  });

  it('max_completion_tokens reaches the upstream and limits the extractive answer', async () => {
    await client.chat.completions.create({ model: 'up-small', messages: [{ role: 'user', content: 'Hi' }], max_completion_tokens: 7 });
    expect(seen.at(-1)).toMatchObject({ max_completion_tokens: 7 });
    expect(seen.at(-1)).not.toHaveProperty('max_tokens'); // OpenAI refuses both at once
    await client.chat.completions.create({ model: 'up-small', messages: [{ role: 'user', content: 'Hi' }], max_tokens: 9 });
    expect(seen.at(-1)).toMatchObject({ max_tokens: 9 });
    expect(seen.at(-1)).not.toHaveProperty('max_completion_tokens');
    const r = await client.chat.completions.create({
      model: 'verbatim-extractive',
      messages: [{ role: 'user', content: 'What is the budget for the warehouse?' }],
      max_completion_tokens: 6,
      ...withTranscript,
    });
    expect(r.choices[0]?.finish_reason).toBe('length');
    expect((r.choices[0]?.message.content ?? '').length).toBeGreaterThan(0);
    expect((r.choices[0]?.message.content ?? '').length).toBeLessThanOrEqual(24);
    expect(r.usage?.completion_tokens).toBeLessThanOrEqual(6);
  });

  it('the local GGUF model ends at stop and max_completion_tokens too, whole and streamed', async () => {
    const messages = [{ role: 'user' as const, content: 'What was agreed?' }];
    const stopped = await client.chat.completions.create({ model: 'tiny-llama-test', messages, stop: [' report'] });
    expect(stopped.choices[0]?.message.content).toBe('The meeting agreed to ship the');
    const short = await client.chat.completions.create({ model: 'tiny-llama-test', messages, max_completion_tokens: 3 });
    expect(short.choices[0]?.message.content).toBe('The meeting agreed');
    expect(short.choices[0]?.finish_reason).toBe('length');
    let streamed = '';
    for await (const chunk of await client.chat.completions.create({ model: 'tiny-llama-test', messages, stop: ' report', stream: true }))
      streamed += chunk.choices[0]?.delta.content ?? '';
    expect(streamed).toBe('The meeting agreed to ship the');
  });

  it('maps errors to its error classes with plain sentences (no JSON-quoted message)', async () => {
    const fail = async (p: Promise<unknown>) => {
      const e = await p.then(
        () => null,
        (err: unknown) => err,
      );
      expect(e).toBeInstanceOf(OpenAI.APIError);
      return e as InstanceType<typeof OpenAI.APIError>;
    };
    const unknown = await fail(client.chat.completions.create({ model: 'nope', messages: [{ role: 'user', content: 'x' }] }));
    expect(unknown).toBeInstanceOf(OpenAI.BadRequestError);
    expect(unknown.message).toMatch(/^400 Unknown model "nope"; GET \/v1\/models lists/);
    expect(unknown.type).toBe('invalid_request_error');

    const badStop = await fail(
      client.chat.completions.create({ model: 'up-small', messages: [{ role: 'user', content: 'x' }], stop: ['a', 'b', 'c', 'd', 'e'] }),
    );
    expect(badStop).toBeInstanceOf(OpenAI.BadRequestError);
    expect(badStop.message).toBe('400 stop must be a string or an array of at most 4 non-empty strings.');

    const wrongKey = new OpenAI({ apiKey: 'wrong', baseURL: `${engine.url}/v1`, maxRetries: 0 });
    const auth = await fail(wrongKey.models.list());
    expect(auth).toBeInstanceOf(OpenAI.AuthenticationError);
    expect(auth.message).toBe('401 Authentication error, API token missing/invalid');

    const missing = await fail(
      client.chat.completions.create({ model: 'verbatim-extractive', messages: [{ role: 'user', content: 'x' }], transcript_id: 'missing' } as never),
    );
    expect(missing).toBeInstanceOf(OpenAI.NotFoundError);
    expect(missing.message).toBe('404 Transcript missing was not found or is not completed.');

    for (const e of [unknown, badStop, auth, missing]) {
      expect(e.message).not.toMatch(/[{}"]error|\\"/);
      expect(typeof e.code).toBe('number');
    }
  });
});
