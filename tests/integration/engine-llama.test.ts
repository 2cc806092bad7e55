/**
 * Local GGUF chat models in the gateway, over real HTTP, with tiny llama
 * models written by tests/fixtures/models/gguf.ts and run by node-llama-cpp's
 * prebuilt CPU binary: answers streamed and not, max_tokens, stop, a JSON
 * schema through the grammar, cancellation, the queue and its 429, unloading
 * after idle, and broken files and too little memory answered with a clear
 * message while /health still answers.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEngine } from '../../src/engine/server';
import type { TranscriptResult } from '../../src/engine/store';
import { transcriptParams } from '../support/transcript-params';
import { engineSandbox, type EngineSandbox } from '../support/engine';
import { fixedSentence, installTinyGguf, tinyGguf } from '../fixtures/models/gguf';

const KEY = 'llama-test-key';
const SENTENCE = fixedSentence();
let sandbox: EngineSandbox;
let engine: RunningEngine;
let modelsDir: string;

beforeAll(async () => {
  sandbox = engineSandbox('verbatim-llama-');
  modelsDir = join(sandbox.dir, 'models');
  installTinyGguf(modelsDir, 'tiny-llama-test');
  installTinyGguf(modelsDir, 'tiny-llama-loop', { loop: true });
  const whole = tinyGguf();
  installTinyGguf(modelsDir, 'broken-half', { bytes: whole.subarray(0, Math.floor(whole.length / 2)) });
  installTinyGguf(modelsDir, 'broken-not-gguf', { bytes: Buffer.from('<!doctype html><title>Not found</title>'.repeat(50)) });
  installTinyGguf(modelsDir, 'broken-no-ffn', { omit: ['llama.feed_forward_length'] });
  installTinyGguf(modelsDir, 'broken-no-heads', { omit: ['llama.attention.head_count'] });
  engine = await sandbox.start(KEY, { modelsDir, gateway: { local: { queueLimit: 1, threads: 1 } } });
});

afterAll(async () => {
  await sandbox.cleanup();
});

function post(e: RunningEngine, body: unknown, signal?: AbortSignal): Promise<Response> {
  return fetch(`${e.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: KEY, 'content-type': 'application/json' },
    body: JSON.stringify(body),
    signal,
  });
}

async function health(e: RunningEngine): Promise<number> {
  return (await fetch(`${e.url}/health`)).status;
}

async function until(cond: () => boolean, what: string, ms = 20_000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** Reads SSE events from a streamed answer; `onChunk` may stop reading by returning false. */
async function readEvents(res: Response, onChunk: (data: string) => boolean | void): Promise<void> {
  const reader = (res.body as ReadableStream<Uint8Array>).getReader();
  const dec = new TextDecoder();
  let buf = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buf += dec.decode(value, { stream: true });
    let at;
    while ((at = buf.indexOf('\n\n')) >= 0) {
      const ev = buf.slice(0, at);
      buf = buf.slice(at + 2);
      if (ev.startsWith('data: ') && onChunk(ev.slice(6)) === false) {
        await reader.cancel();
        return;
      }
    }
  }
}

const user = (content: string) => [{ role: 'user', content }];

describe('local GGUF models in the gateway', () => {
  it('lists the installed models on /v1/models', async () => {
    const res = await fetch(`${engine.url}/v1/models`, { headers: { authorization: KEY } });
    const data = ((await res.json()) as { data: { id: string; owned_by: string; context_length: number }[] }).data;
    const ids = data.map((m) => m.id);
    expect(data.find((m) => m.id === 'tiny-llama-test')).toMatchObject({ owned_by: 'verbatim', context_length: 4096 });
    expect(ids).toContain('tiny-llama-test');
    expect(ids).toContain('tiny-llama-loop');
    expect(ids).toContain('verbatim-extractive');
  });

  it('answers a chat completion with the fixed sentence of the model', async () => {
    const res = await post(engine, { model: 'tiny-llama-test', messages: [{ role: 'system', content: 'Be brief.' }, ...user('What was agreed?')] });
    expect(res.status).toBe(200);
    const body = (await res.json()) as {
      model: string;
      choices: { message: { content: string }; finish_reason: string }[];
      usage: { completion_tokens: number };
    };
    expect(body.model).toBe('tiny-llama-test');
    expect(body.choices[0]?.message.content).toBe(SENTENCE);
    expect(body.choices[0]?.finish_reason).toBe('stop');
    expect(body.usage.completion_tokens).toBeGreaterThan(5);
  });

  it('streams the same sentence as server-sent events', async () => {
    const res = await post(engine, { model: 'tiny-llama-test', stream: true, messages: user('Summarise the meeting.') });
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    let text = '';
    let chunks = 0;
    let done = false;
    let finish: string | null = null;
    await readEvents(res, (data) => {
      if (data === '[DONE]') {
        done = true;
        return;
      }
      const c = JSON.parse(data) as { choices: { delta: { content?: string }; finish_reason: string | null }[] };
      text += c.choices[0]?.delta.content ?? '';
      finish = c.choices[0]?.finish_reason ?? finish;
      chunks++;
    });
    expect(text).toBe(SENTENCE);
    // The role, the text (in as many pieces as the reader took to keep up) and the finish; streaming while the model writes is the cancel test's.
    expect(chunks).toBeGreaterThanOrEqual(3);
    expect(finish).toBe('stop');
    expect(done).toBe(true);
  });

  it('honours max_tokens and stop sequences', async () => {
    const short = (await (await post(engine, { model: 'tiny-llama-test', max_tokens: 3, messages: user('Go') })).json()) as {
      choices: { message: { content: string }; finish_reason: string }[];
    };
    expect(short.choices[0]?.finish_reason).toBe('length');
    expect(short.choices[0]?.message.content).toBe('The meeting agreed');
    const stopped = (await (await post(engine, { model: 'tiny-llama-test', stop: [' report'], messages: user('Go') })).json()) as {
      choices: { message: { content: string } }[];
    };
    expect(stopped.choices[0]?.message.content).toBe('The meeting agreed to ship the');
  });

  it('answers in a JSON schema through grammar-constrained output', async () => {
    const schema = {
      type: 'object',
      properties: { summary: { type: 'string' }, action_items: { type: 'array', items: { type: 'string' } } },
      required: ['summary', 'action_items'],
      additionalProperties: false,
    };
    const res = await post(engine, {
      model: 'tiny-llama-test',
      max_tokens: 300,
      response_format: { type: 'json_schema', json_schema: { name: 'notes', schema } },
      messages: user('Summarise as JSON.'),
    });
    expect(res.status).toBe(200);
    const content = ((await res.json()) as { choices: { message: { content: string } }[] }).choices[0]?.message.content ?? '';
    const value = JSON.parse(content) as { summary: string; action_items: string[] };
    expect(value.summary).toBe(SENTENCE);
    expect(Array.isArray(value.action_items)).toBe(true);
  });

  it('stops generating at once when the client goes away, and /health answers during generation', async () => {
    const abort = new AbortController();
    const res = await post(engine, { model: 'tiny-llama-loop', stream: true, max_tokens: 100_000, messages: user('Talk forever.') }, abort.signal);
    let pieces = 0;
    let ended = false;
    const reading = readEvents(res, (data) => {
      // Reads on until the abort below closes the connection: the client going away is what must stop the model.
      if (data === '[DONE]') ended = true;
      else pieces++;
    }).catch(() => undefined);
    await until(() => pieces >= 20 || ended, 'twenty streamed pieces');
    expect(engine.ctx.gateway.local.generating).toBe(1);
    expect(await health(engine)).toBe(200);
    expect(ended).toBe(false);
    abort.abort();
    await reading;
    await until(() => engine.ctx.gateway.local.generating === 0, 'the generation to stop');
    const next = await post(engine, { model: 'tiny-llama-test', max_tokens: 4, messages: user('Next') });
    expect(next.status).toBe(200);
  });

  it('runs one generation at a time, queues the next and answers 429 with Retry-After beyond the queue', async () => {
    const abort = new AbortController();
    const first = await post(engine, { model: 'tiny-llama-loop', stream: true, max_tokens: 100_000, messages: user('Long one') }, abort.signal);
    const reading = readEvents(first, () => undefined).catch(() => undefined);
    await until(() => engine.ctx.gateway.local.generating === 1, 'the first generation');
    const queued = post(engine, { model: 'tiny-llama-loop', max_tokens: 5, messages: user('Queued') });
    await until(() => (engine.ctx.gateway.local as unknown as { pending: number }).pending === 2, 'the second request to queue');
    const refused = await post(engine, { model: 'tiny-llama-loop', max_tokens: 5, messages: user('One too many') });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(JSON.stringify(await refused.json())).toContain('busy');
    abort.abort();
    await reading;
    const second = await queued;
    expect(second.status).toBe(200);
    expect(((await second.json()) as { choices: { finish_reason: string }[] }).choices[0]?.finish_reason).toBe('length');
  });

  it('turns the death of the model process mid-answer into a clear error and starts a fresh one next time', async () => {
    const res = post(engine, { model: 'tiny-llama-loop', max_tokens: 100_000, messages: user('Long one') });
    await until(() => engine.ctx.gateway.local.generating === 1, 'the generation');
    process.kill(engine.ctx.gateway.local.childPid as number, 'SIGKILL');
    const died = await res;
    expect(died.status).toBe(500);
    expect(JSON.stringify(await died.json())).toMatch(/The local model's process was stopped by SIGKILL while answering/);
    expect(await health(engine)).toBe(200);
    expect((await post(engine, { model: 'tiny-llama-test', max_tokens: 3, messages: user('Again') })).status).toBe(200);
  });

  it('says why a broken model cannot load, and keeps answering', async () => {
    const cases: [string, RegExp][] = [
      ['broken-half', /truncated/],
      ['broken-not-gguf', /not a GGUF model/],
      ['broken-no-ffn', /llama\.feed_forward_length/],
      ['broken-no-heads', /llama\.attention\.head_count/],
    ];
    for (const [id, why] of cases) {
      const res = await post(engine, { model: id, messages: user('Hello') });
      expect(res.status, id).toBe(422);
      const text = JSON.stringify(await res.json());
      expect(text).toMatch(/Failed to load model/);
      expect(text).toMatch(why);
      expect(await health(engine)).toBe(200);
    }
    // The good model still loads after the bad ones.
    expect((await post(engine, { model: 'tiny-llama-test', max_tokens: 2, messages: user('Hi') })).status).toBe(200);
  });

  it('answers 400 with the sizes when the messages alone overflow the context', async () => {
    const res = await post(engine, { model: 'tiny-llama-test', messages: [{ role: 'system', content: 'Notes. '.repeat(1200) }, ...user('Go')] });
    expect(res.status).toBe(400);
    expect(JSON.stringify(await res.json())).toMatch(/about \d+ tokens, more than tiny-llama-test's context of 4096 tokens/);
    expect(await health(engine)).toBe(200);
  });

  it('translates and names speakers offline with the local model when one is installed', async () => {
    const id = 'llama-understanding';
    const params = transcriptParams();
    const result = { text: 'We ship on Friday.', words: [], sentences: [], confidence: 0.9, audio_duration: 3, speech_model_used: 'universal-2', warnings: [] };
    engine.ctx.store.insertTranscript(id, params, null);
    engine.ctx.store.complete(id, result as unknown as TranscriptResult, null);
    const res = await fetch(`${engine.url}/v1/speech-understanding`, {
      method: 'POST',
      headers: { authorization: KEY, 'content-type': 'application/json' },
      body: JSON.stringify({ transcript_id: id, speech_understanding: { request: { translation: { target_languages: ['es'] } } } }),
    });
    const body = (await res.json()) as { translated_texts?: Record<string, string> };
    expect(res.status, JSON.stringify(body)).toBe(200);
    expect(body.translated_texts?.es).toBe(SENTENCE);
    // Speaker identification answers through the grammar: a JSON object naming each speaker, whatever the weights.
    const who = await fetch(`${engine.url}/v1/speech-understanding`, {
      method: 'POST',
      headers: { authorization: KEY, 'content-type': 'application/json' },
      body: JSON.stringify({ transcript_id: id, speech_understanding: { request: { speaker_identification: { speaker_type: 'name' } } } }),
    });
    const named = (await who.json()) as { speech_understanding: { response: { speaker_identification: { status: string; mapping: Record<string, string> } } } };
    expect(who.status, JSON.stringify(named)).toBe(200);
    expect(named.speech_understanding.response.speaker_identification).toEqual({ status: 'success', mapping: { A: SENTENCE } });
  });
});

describe('memory and idle time', () => {
  it('refuses a model that needs more memory than is free, with a clear message', async () => {
    const e = await sandbox.start(KEY, { data: 'ram', modelsDir, gateway: { local: { freeMemory: () => 32 * 1024 * 1024, threads: 1 } } });
    const res = await post(e, { model: 'tiny-llama-test', messages: user('Hello') });
    expect(res.status).toBe(422);
    expect(JSON.stringify(await res.json())).toMatch(/needs about \d+ MB of memory and 32 MB is free/);
    expect(await health(e)).toBe(200);
    expect(e.ctx.gateway.local.loadedModel).toBeNull();
  });

  it('frees the loaded model after the idle time', async () => {
    const e = await sandbox.start(KEY, { data: 'idle', modelsDir, gateway: { local: { idleMs: 300, threads: 1 } } });
    expect((await post(e, { model: 'tiny-llama-test', max_tokens: 3, messages: user('Hi') })).status).toBe(200);
    expect(e.ctx.gateway.local.events.map((x) => x.type)).toEqual(['binary', 'load']);
    await until(() => e.ctx.gateway.local.events.some((x) => x.type === 'unload'), 'the idle unload');
    expect(e.ctx.gateway.local.loadedModel).toBeNull();
    expect(e.ctx.gateway.local.events.map((x) => x.type)).toEqual(['binary', 'load', 'unload']);
    // And loads again on the next request.
    expect((await post(e, { model: 'tiny-llama-test', max_tokens: 3, messages: user('Again') })).status).toBe(200);
    expect(e.ctx.gateway.local.loadedModel).toBe('tiny-llama-test');
  });

  it('names the model to download when a feature needs one that writes', async () => {
    const e = await sandbox.start(KEY, { data: 'none', modelsDir: join(sandbox.dir, 'empty-models') });
    const res = await post(e, {
      model: 'verbatim-extractive',
      response_format: { type: 'json_schema', json_schema: { name: 'x', schema: { type: 'object' } } },
      messages: user('Hello'),
    });
    expect(res.status).toBe(400);
    expect(JSON.stringify(await res.json())).toMatch(/Download a chat model \(Qwen2\.5 1\.5B Instruct/);
  });
});
