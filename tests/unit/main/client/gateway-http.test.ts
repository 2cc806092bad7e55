import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { AppError } from '../../../../src/shared/errors';
import type { RateLimit } from '../../../../src/shared/jobs';
import { GatewayClient } from '../../../../src/main/services/client/gateway';
import { backoffMs, httpError, withRetries } from '../../../../src/main/services/client/http';
import { classifyTranscriptError } from '../../../../src/main/services/jobs';

let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

async function serve(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<string> {
  const server = createServer(handler);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  close = () => new Promise<void>((r) => server.close(() => r()));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const limits = {
  'x-ratelimit-limit': '30',
  'x-ratelimit-remaining': '29',
  'x-ratelimit-reset': '42',
  'x-ratelimit-model': 'verbatim-extractive',
  'x-ratelimit-service': 'llm-gateway',
};

describe('gateway client', () => {
  it('streams chat deltas from server-sent events and reports the rate-limit state', async () => {
    const url = await serve((req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream', ...limits });
      for (const piece of ['Hel', 'lo', '!']) res.write(`data: ${JSON.stringify({ choices: [{ delta: { content: piece } }] })}\n\n`);
      res.end('data: [DONE]\n\n');
    });
    const seen: RateLimit[] = [];
    const deltas: string[] = [];
    const g = new GatewayClient(url, 'k', (r) => seen.push(r));
    expect(await g.chatStream({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }, (d) => deltas.push(d))).toBe('Hello!');
    expect(deltas).toEqual(['Hel', 'lo', '!']);
    expect(seen[0]).toMatchObject({ limit: 30, remaining: 29, resetSeconds: 42, model: 'verbatim-extractive', service: 'llm-gateway' });
  });

  it('asks /v1/speech-understanding first and falls back to /v1/understanding on a 404 for the path', async () => {
    const paths: string[] = [];
    const url = await serve((req, res) => {
      paths.push(req.url ?? '');
      req.resume();
      if (req.url === '/v1/speech-understanding') return void res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"Not found"}');
      res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          id: 't1',
          status: 'completed',
          text: 'hi',
          speech_understanding: { request: {}, response: { translation: { status: 'success' } } },
          translated_texts: { es: 'hola' },
          a_newer_field: { x: 1 },
        }),
      );
    });
    const out = await new GatewayClient(url, 'k').understanding({
      transcript_id: 't1',
      speech_understanding: { request: { translation: { target_languages: ['es'] } } },
    });
    expect(paths).toEqual(['/v1/speech-understanding', '/v1/understanding']);
    expect(out.translated_texts).toEqual({ es: 'hola' });
    expect((out as Record<string, unknown>).a_newer_field).toEqual({ x: 1 });
  });

  it('does not fall back when the 404 is about the transcript', async () => {
    const paths: string[] = [];
    const url = await serve((req, res) => {
      paths.push(req.url ?? '');
      req.resume();
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"Transcript not found"}');
    });
    const err = await new GatewayClient(url, 'k').understanding({ transcript_id: 'x', speech_understanding: { request: {} } }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect(paths).toEqual(['/v1/speech-understanding']);
  });

  it('reads a completion with fields it does not know, and refuses one without choices with a clear error', async () => {
    let body: unknown = {
      id: 'c',
      object: 'chat.completion',
      model: 'm',
      choices: [{ index: 0, message: { role: 'assistant', content: 'ok', refusal: null }, finish_reason: 'stop', logprobs: null }],
      system_fingerprint: 'fp',
      usage: { prompt_tokens: 1 },
    };
    const url = await serve((req, res) => {
      req.resume();
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    });
    const g = new GatewayClient(url, 'k');
    expect((await g.chat({ model: 'm', messages: [{ role: 'user', content: 'hi' }] })).choices[0]?.message.content).toBe('ok');
    body = { id: 'c', choices: [] };
    await expect(g.chat({ model: 'm', messages: [{ role: 'user', content: 'hi' }] })).rejects.toMatchObject({
      code: 'server_error',
      message: expect.stringContaining('choices'),
    });
  });

  it('turns a 429 into rate_limited with the reset time', async () => {
    const url = await serve((_req, res) => {
      res.writeHead(429, { 'content-type': 'application/json', ...limits, 'x-ratelimit-remaining': '0' }).end('{"error":"Rate limit exceeded"}');
    });
    const g = new GatewayClient(url, 'k');
    const err = await g.chat({ model: 'm', messages: [] }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'rate_limited', retryAfter: 42, message: expect.stringContaining('42 s') });
  });
});

describe('http errors and retries', () => {
  const res = (status: number, body = '', headers: Record<string, string> = {}) => ({ status, headers, body: Buffer.from(body) });

  it('maps statuses to typed errors a person can act on', () => {
    expect(httpError(res(401, '{"error":"Authentication error, API token missing/invalid"}'), 'x')).toMatchObject({
      code: 'invalid_key',
      message: expect.stringContaining('Settings'),
    });
    expect(httpError(res(429, '', { 'retry-after': '7' }), 'x')).toMatchObject({ code: 'rate_limited', retryAfter: 7 });
    expect(httpError(res(503, '<html>busy</html>'), 'x')).toMatchObject({ code: 'server_error_retryable' });
    expect(httpError(res(400, '{"error":"speaker_labels is not supported by the local engine"}'), 'creating')).toMatchObject({
      code: 'bad_request',
      message: expect.stringContaining('speaker_labels'),
    });
    expect(httpError(res(413), 'x').code).toBe('file_too_large');
  });

  it('retries only retryable errors, honouring Retry-After', async () => {
    let calls = 0;
    const out = await withRetries(
      async () => {
        calls++;
        if (calls < 3) throw new AppError('server_error_retryable', 'flaky');
        return 'ok';
      },
      undefined,
      { attempts: 5, baseMs: 1, capMs: 5 },
    );
    expect([out, calls]).toEqual(['ok', 3]);
    calls = 0;
    await expect(
      withRetries(
        async () => {
          calls++;
          throw new AppError('invalid_key', 'no');
        },
        undefined,
        { attempts: 5, baseMs: 1, capMs: 5 },
      ),
    ).rejects.toMatchObject({ code: 'invalid_key' });
    expect(calls).toBe(1);
    expect(backoffMs(new AppError('rate_limited', 'x', { retryAfter: 2 }), 1, { attempts: 3, baseMs: 500, capMs: 30000 })).toBeGreaterThanOrEqual(2000);
    const d = backoffMs(new AppError('network', 'x'), 10, { attempts: 3, baseMs: 500, capMs: 4000 });
    expect(d).toBeLessThanOrEqual(6000);
  });

  it('classifies transcript failures', () => {
    expect(classifyTranscriptError('Audio duration is too short.')).toMatchObject({ code: 'audio_too_short', retryable: false });
    expect(classifyTranscriptError('Download error, unable to download http://x. ...')).toMatchObject({ code: 'file_unreadable' });
    expect(classifyTranscriptError('File does not appear to contain audio.')).toMatchObject({ code: 'unsupported_media', retryable: false });
    expect(classifyTranscriptError('Internal server error, the file may be submitted again.')).toMatchObject({
      code: 'server_error_retryable',
      retryable: true,
    });
  });
});
