/**
 * The LLM gateway client (API.md §9): chat completions streamed (server-sent
 * events) or not, speech understanding, the model list, and the rate-limit
 * state read from X-RateLimit-* headers; a 429 becomes rate_limited with the
 * seconds until the window resets.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { z } from 'zod';
import {
  ChatCompletionChunkLooseSchema,
  ChatCompletionLooseSchema,
  ModelListLooseSchema,
  UnderstandingResponseLooseSchema,
  type ChatCompletionLoose,
  type ChatCompletionRequest,
  type UnderstandingRequest,
  type UnderstandingResponse,
  errorMessageOf,
} from '../../../shared/api/gateway';
import { AppError } from '../../../shared/errors';
import type { RateLimit } from '../../../shared/jobs';
import { httpError, openStream, send } from './http';

/** Wire shapes, from the one schema in src/shared/api/gateway.ts. */
export type ChatRequest = ChatCompletionRequest;
export type ChatResponse = ChatCompletionLoose;

/** The answer's JSON checked with a lenient wire schema (unknown fields pass). */
function parseWith<S extends z.ZodType>(schema: S, body: Buffer, what: string): z.infer<S> {
  let json: unknown;
  try {
    json = JSON.parse(body.toString('utf8'));
  } catch {
    throw new AppError('server_error_retryable', `The assistant sent an unreadable answer to ${what}. Try again.`);
  }
  const parsed = schema.safeParse(json);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  throw new AppError(
    'server_error',
    `The assistant's answer to ${what} is not in the expected shape (${issue?.path.join('.') || 'the answer'}: ${issue?.message ?? 'invalid'}).`,
  );
}

export function readRateLimit(headers: IncomingHttpHeaders): RateLimit | null {
  const limit = headers['x-ratelimit-limit'];
  if (typeof limit !== 'string') return null;
  const num = (h: string | string[] | undefined) => (typeof h === 'string' && Number.isFinite(Number(h)) ? Number(h) : 0);
  return {
    model: typeof headers['x-ratelimit-model'] === 'string' ? headers['x-ratelimit-model'] : null,
    service: typeof headers['x-ratelimit-service'] === 'string' ? headers['x-ratelimit-service'] : null,
    limit: num(limit),
    remaining: num(headers['x-ratelimit-remaining']),
    resetSeconds: num(headers['x-ratelimit-reset']),
    at: new Date().toISOString(),
  };
}

export class GatewayClient {
  constructor(
    readonly baseUrl: string,
    private readonly key: string,
    private readonly onRateLimit: (r: RateLimit) => void = () => undefined,
  ) {}

  private url(path: string): string {
    return `${this.baseUrl.replace(/\/+$/, '')}${path}`;
  }

  private check(status: number, headers: IncomingHttpHeaders, body: Buffer, what: string): void {
    const rl = readRateLimit(headers);
    if (rl) this.onRateLimit(rl);
    if (status === 429) {
      const reset = rl?.resetSeconds ?? Number(headers['retry-after'] ?? NaN);
      throw new AppError(
        'rate_limited',
        `The assistant's limit for ${rl?.model ?? 'this model'} is used up${Number.isFinite(reset) ? `; it resets in ${Math.ceil(reset)} s` : ''}. Try again then.`,
        Number.isFinite(reset) ? { retryAfter: reset } : undefined,
      );
    }
    if (status < 200 || status >= 300) throw httpError({ status, headers, body }, what);
  }

  async chat(req: ChatRequest, signal?: AbortSignal): Promise<ChatResponse> {
    const res = await send({
      method: 'POST',
      url: this.url('/v1/chat/completions'),
      headers: { authorization: this.key },
      json: { ...req, stream: false },
      signal,
      idleTimeoutMs: 120_000,
    });
    this.check(res.status, res.headers, res.body, 'the chat request');
    return parseWith(ChatCompletionLooseSchema, res.body, 'the chat request');
  }

  /** Streamed chat: calls onDelta with each piece of text; resolves with the whole answer. */
  async chatStream(req: ChatRequest, onDelta: (text: string) => void, signal?: AbortSignal): Promise<string> {
    const res = await openStream({
      method: 'POST',
      url: this.url('/v1/chat/completions'),
      headers: { authorization: this.key, accept: 'text/event-stream' },
      json: { ...req, stream: true },
      signal,
      idleTimeoutMs: 120_000,
    });
    if ((res.statusCode ?? 0) !== 200) {
      const chunks: Buffer[] = [];
      for await (const c of res) chunks.push(c as Buffer);
      this.check(res.statusCode ?? 0, res.headers, Buffer.concat(chunks), 'the chat request');
    }
    const rl = readRateLimit(res.headers);
    if (rl) this.onRateLimit(rl);
    let buf = '';
    let full = '';
    for await (const chunk of res) {
      buf += (chunk as Buffer).toString('utf8');
      let i: number;
      while ((i = buf.indexOf('\n\n')) >= 0) {
        const event = buf.slice(0, i);
        buf = buf.slice(i + 2);
        for (const line of event.split('\n')) {
          if (!line.startsWith('data:')) continue;
          const data = line.slice(5).trim();
          if (data === '[DONE]') return full;
          let json: unknown;
          try {
            json = JSON.parse(data);
          } catch {
            continue; // a keep-alive or comment line
          }
          // A failure after the answer began arrives as an error event (either shape of error body).
          const failed = errorMessageOf(json);
          if (failed) throw new AppError('server_error', `The assistant stopped with an error: ${failed}`);
          const parsed = ChatCompletionChunkLooseSchema.safeParse(json);
          const piece = parsed.success ? parsed.data.choices?.[0]?.delta?.content : null;
          if (piece) {
            full += piece;
            onDelta(piece);
          }
        }
      }
    }
    return full;
  }

  /**
   * Speech understanding on a completed transcript. The seed names
   * /v1/speech-understanding; a service that answers 404 there (the cloud's
   * current path is /v1/understanding) is asked again at the other path.
   */
  async understanding(body: UnderstandingRequest, signal?: AbortSignal): Promise<UnderstandingResponse> {
    let res = await send({
      method: 'POST',
      url: this.url('/v1/speech-understanding'),
      headers: { authorization: this.key },
      json: body,
      signal,
      idleTimeoutMs: 120_000,
    });
    if (res.status === 404 && !isTranscriptNotFound(res.body)) {
      res = await send({
        method: 'POST',
        url: this.url('/v1/understanding'),
        headers: { authorization: this.key },
        json: body,
        signal,
        idleTimeoutMs: 120_000,
      });
    }
    this.check(res.status, res.headers, res.body, 'speech understanding');
    return parseWith(UnderstandingResponseLooseSchema, res.body, 'speech understanding');
  }

  async models(signal?: AbortSignal): Promise<{ id: string; name?: string; description?: string }[]> {
    const res = await send({ method: 'GET', url: this.url('/v1/models'), headers: { authorization: this.key }, signal });
    this.check(res.status, res.headers, res.body, 'listing models');
    return parseWith(ModelListLooseSchema, res.body, 'listing models').data;
  }
}

/** A 404 that is about the transcript (the route exists), not about the path. */
function isTranscriptNotFound(body: Buffer): boolean {
  try {
    const e = errorMessageOf(JSON.parse(body.toString('utf8')));
    return typeof e === 'string' && /transcript/i.test(e);
  } catch {
    return false;
  }
}
