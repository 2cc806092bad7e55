/**
 * The HTTP layer of the service client: one request function over node:http
 * (streams in both directions, AbortSignal, keep-alive), the mapping of every
 * failure to a typed AppError with a message a person understands, and the
 * retry loop with capped, jittered exponential backoff that honours Retry-After.
 */
import http, { type ClientRequest, type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import https from 'node:https';
import type { Readable } from 'node:stream';
import { errorMessageOf } from '../../../shared/api/gateway';
import { AppError, type ErrorCode } from '../../../shared/errors';

// Idle sockets are dropped after 4 s, before a server's usual 5 s keep-alive
// timeout can close one under a new request (which would fail as ECONNRESET).
const agents = {
  'http:': new http.Agent({ keepAlive: true, maxSockets: 16, timeout: 4000 }),
  'https:': new https.Agent({ keepAlive: true, maxSockets: 16, timeout: 4000 }),
};

export interface HttpRequest {
  method: string;
  url: string;
  headers?: Record<string, string | number>;
  /** A JSON value, a Buffer/string, or a stream (sent chunked unless content-length is set). */
  json?: unknown;
  body?: Buffer | string | Readable | BodyWriter;
  signal?: AbortSignal;
  /** Abort when no byte moves for this long (ms). Default 60 s. */
  idleTimeoutMs?: number;
}

/** Writes the body itself (then ends the request); rejects to abort it. */
export type BodyWriter = (req: ClientRequest) => Promise<void>;

export interface HttpResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** What the service said, if its body was JSON with an `error`: a string (API.md §1) or a gateway's `{message}` object. */
export function serviceMessage(body: Buffer): string | null {
  try {
    return errorMessageOf(JSON.parse(body.toString('utf8')));
  } catch {
    return null;
  }
}

/** Send a request; resolves with any status (the caller decides), rejects on network failure or abort. */
export function send(req: HttpRequest): Promise<HttpResponse> {
  return openStream(req).then(
    (res) =>
      new Promise<HttpResponse>((resolve, reject) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
        res.on('error', (e) => reject(toNetworkError(e, req)));
      }),
  );
}

/** Like send, but hands back the response stream (downloads). */
export function openStream(req: HttpRequest): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    if (req.signal?.aborted) {
      reject(canceled());
      return;
    }
    let url: URL;
    try {
      url = new URL(req.url);
    } catch {
      reject(new AppError('bad_request', `The service address ${req.url} is not a valid URL. Check Settings → Transcription service.`));
      return;
    }
    const mod = url.protocol === 'https:' ? https : http;
    const agent = agents[url.protocol as 'http:' | 'https:'];
    if (!agent) {
      reject(new AppError('bad_request', `The service address must start with http:// or https:// (got ${url.protocol}).`));
      return;
    }
    const headers: Record<string, string | number> = { 'user-agent': 'Verbatim', ...req.headers };
    let payload: Buffer | string | Readable | BodyWriter | undefined = req.body;
    if (req.json !== undefined) {
      payload = JSON.stringify(req.json);
      headers['content-type'] = 'application/json';
    }
    if (typeof payload === 'string' || Buffer.isBuffer(payload)) headers['content-length'] = Buffer.byteLength(payload);
    const r = mod.request(url, { method: req.method, headers, agent, signal: req.signal });
    r.setTimeout(req.idleTimeoutMs ?? 60_000, () => r.destroy(Object.assign(new Error('timed out'), { code: 'ETIMEDOUT' })));
    r.on('response', (res) => {
      res.setTimeout(req.idleTimeoutMs ?? 60_000, () => res.destroy(Object.assign(new Error('timed out'), { code: 'ETIMEDOUT' })));
      resolve(res);
    });
    r.on('error', (e) => reject(req.signal?.aborted ? canceled() : toNetworkError(e, req)));
    if (payload === undefined || typeof payload === 'string' || Buffer.isBuffer(payload)) {
      r.end(payload);
    } else if (typeof payload === 'function') {
      payload(r).then(
        () => r.end(),
        (e: unknown) => {
          if (e instanceof AppError) reject(e);
          r.destroy(e instanceof Error ? e : new Error(String(e)));
        },
      );
    } else {
      payload.on('error', (e) => r.destroy(e));
      payload.pipe(r);
    }
  });
}

export function canceled(): AppError {
  return new AppError('canceled', 'Canceled.');
}

function toNetworkError(e: Error, req: HttpRequest): AppError {
  if (e instanceof AppError) return e;
  if (e.name === 'AbortError' || req.signal?.aborted) return canceled();
  const code = (e as NodeJS.ErrnoException).code ?? '';
  const host = safeHost(req.url);
  const why =
    code === 'ECONNREFUSED'
      ? `nothing answers at ${host}`
      : code === 'ENOTFOUND' || code === 'EAI_AGAIN'
        ? `${host} could not be found (are you offline?)`
        : code === 'ETIMEDOUT'
          ? `${host} stopped answering`
          : `the connection to ${host} failed (${code || e.message})`;
  // No "Verbatim retries" in these messages: they are read once retrying is over (withRetries says how many tries there were).
  return new AppError('network', `Could not reach the transcription service: ${why}. Check your connection.`, {
    cause: e,
  });
}

function safeHost(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

/** Seconds from a Retry-After header (seconds or an HTTP date). */
export function retryAfterSeconds(headers: IncomingHttpHeaders): number | undefined {
  const v = headers['retry-after'];
  if (typeof v !== 'string') return undefined;
  const n = Number(v);
  if (Number.isFinite(n)) return Math.max(0, n);
  const t = Date.parse(v);
  return Number.isFinite(t) ? Math.max(0, (t - Date.now()) / 1000) : undefined;
}

/** Map a non-2xx answer to a typed error. */
export function httpError(res: HttpResponse, what: string): AppError {
  const said = serviceMessage(res.body);
  const detail = said ? ` The service said: “${said}”` : '';
  const s = res.status;
  if (s === 401 || s === 403)
    return new AppError('invalid_key', `The service refused the API key (${s}). Check the key in Settings → Transcription service.${detail}`);
  if (s === 429) {
    const after = retryAfterSeconds(res.headers);
    return new AppError(
      'rate_limited',
      `The service is busy with too many requests from this key (429)${after !== undefined ? `; it asks to wait ${Math.ceil(after)} s` : ''}. Try again later.`,
      after === undefined ? undefined : { retryAfter: after },
    );
  }
  if (s === 413) return new AppError('file_too_large', `The file is too large for the service (413).${detail}`);
  if (s === 404) return new AppError('not_found', `${what}: not found on the service (404).${detail}`);
  if (s === 500 || s === 502 || s === 503 || s === 504) {
    const after = retryAfterSeconds(res.headers);
    return new AppError('server_error_retryable', `The service had a temporary problem (${s}) during ${what}. Try again in a moment.`, {
      ...(after === undefined ? {} : { retryAfter: after }),
    });
  }
  if (s >= 400 && s < 500) return new AppError('bad_request', `The service refused ${what} (${s}).${detail || ' Check the transcription options.'}`);
  return new AppError('server_error', `The service answered ${s} during ${what}.${detail}`);
}

export const RETRYABLE: ReadonlySet<ErrorCode> = new Set(['network', 'rate_limited', 'server_error_retryable']);

/** Time as the retry policy and the job machine see it; tests pass a fake one that advances instantly. */
export interface Clock {
  now(): number;
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
  /** In [0, 1): the jitter's source. */
  random(): number;
}

export const realClock: Clock = { now: () => Date.now(), sleep: (ms, signal) => sleep(ms, signal), random: () => Math.random() };

/**
 * The one retry policy of main's service calls: capped exponential backoff
 * with ±50% jitter, or the service's Retry-After when it sent one.
 */
export interface RetryPolicy {
  /** Attempts in total (first try included). */
  attempts: number;
  baseMs: number;
  capMs: number;
  /** Called before each wait (for logs, job state). */
  onRetry?: (err: AppError, attempt: number, delayMs: number) => void;
  clock?: Clock;
}

export const defaultRetry: RetryPolicy = { attempts: 8, baseMs: 500, capMs: 30_000 };

/** Delay before retry number `attempt` (1-based): Retry-After if given, else capped exponential with ±50% jitter. */
export function backoffMs(err: AppError, attempt: number, policy: RetryPolicy): number {
  const random = policy.clock?.random() ?? Math.random();
  if (err.retryAfter !== undefined) return Math.min(err.retryAfter * 1000, 10 * 60_000) + random * 250;
  const exp = Math.min(policy.capMs, policy.baseMs * 2 ** (attempt - 1));
  return exp * (0.5 + random);
}

export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(canceled());
    const t = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(t);
      reject(canceled());
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

export function asAppError(e: unknown): AppError {
  return e instanceof AppError ? e : new AppError('internal', e instanceof Error ? e.message : String(e), { cause: e });
}

/** The last error of a call that retried and has stopped: the same code, saying how many tries there were. */
export function gaveUp(err: AppError, attempts: number): AppError {
  return new AppError(err.code, `${err.message} Verbatim tried ${attempts} times and has stopped.`, {
    cause: err,
    ...(err.retryAfter === undefined ? {} : { retryAfter: err.retryAfter }),
  });
}

/**
 * Run `fn` again on retryable errors, up to the policy's attempts. `fn` is
 * told the attempt number and the error that made this attempt a retry (a
 * caller that may have half-succeeded checks before repeating itself).
 */
export async function withRetries<T>(
  fn: (attempt: number, previous: AppError | null) => Promise<T>,
  signal: AbortSignal | undefined,
  policy: RetryPolicy = defaultRetry,
): Promise<T> {
  let previous: AppError | null = null;
  for (let attempt = 1; ; attempt++) {
    try {
      return await fn(attempt, previous);
    } catch (e) {
      const err = asAppError(e);
      if (!RETRYABLE.has(err.code) || signal?.aborted) throw err;
      if (attempt >= policy.attempts) throw attempt > 1 ? gaveUp(err, attempt) : err;
      const delay = backoffMs(err, attempt, policy);
      policy.onRetry?.(err, attempt, delay);
      await (policy.clock?.sleep(delay, signal) ?? sleep(delay, signal));
      previous = err;
    }
  }
}
