/**
 * The local engine's HTTP and WebSocket server: routes wiring only.
 *
 * Extension points: `startEngine` builds an `EngineContext` and hands it to
 * every routes/ module. routes/streaming.ts exports
 * `registerStreaming(ctx, server, router)` (WebSocket upgrades on `server`,
 * plain routes such as /v3/token on `router`) and routes/gateway.ts exports
 * `registerGateway(ctx, router)`. Every route on `router` requires the API key
 * unless added with `{ public: true }`; thrown `HttpError`s become `{error}`.
 * Cleanup hooks go through `ctx.onClose(fn)` (run before the store closes).
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { cpus } from 'node:os';
import type { AddressInfo } from 'node:net';
import { AUTH_ERROR, isAuthorized } from './auth';
import { JobRunner } from './jobs/runner';
import { createRecognizer, type Recognizer } from './recognizer/index';
import { registerGateway } from './routes/gateway';
import { HttpError, Router } from './routes/router';
import { registerStreaming } from './routes/streaming';
import { registerTranscripts } from './routes/transcripts';
import { registerUpload } from './routes/upload';
import { registerViews } from './routes/views';
import { RETENTION_DEFAULTS, startRetention, type RetentionPolicy } from './retention';
import { Store } from './store';
import { createEngineServer, type TlsFiles } from './tls';
import type { StreamingEngineOptions } from './routes/streaming';
import type { GatewayOptions } from './gateway/index';
import type { DownloadLimits } from './audio/download';
import { WebhookSender, type WebhookOptions } from './webhooks';

export { HttpError, Router } from './routes/router';
export type { RouteHandler, RouteRequest } from './routes/router';

export interface EngineOptions {
  host: string;
  port: number;
  apiKey: string;
  dataDir: string;
  /** Parallel transcription jobs; default cores − 1, at least 1. */
  workers?: number;
  /** Accept `file://` audio URLs. */
  allowFileUrls?: boolean;
  /** Upload size limit in bytes (default 5 GiB). */
  maxUploadBytes?: number;
  /** Size limit for audio fetched from http(s) URLs (default 5 GiB). */
  maxFetchBytes?: number;
  /** Timeout for fetching audio URLs (default 60 s without progress). */
  fetchTimeoutMs?: number;
  /** Fetch audio URLs on loopback and private addresses. Default: only when listening on loopback (the caller is on this machine anyway). */
  allowPrivateUrls?: boolean;
  /** Deadline, minimum rate and redirects of audio URL downloads (defaults in audio/download.ts). */
  fetchLimits?: Partial<DownloadLimits>;
  /** Webhook timings and clock (tests make them fast). */
  webhook?: Partial<WebhookOptions>;
  /** Recognizer to use (default PocketSphinx). */
  recognizer?: Recognizer;
  /** How long SIGTERM waits for running jobs before leaving them queued (default 30 s). */
  drainTimeoutMs?: number;
  /** No request logging. */
  quiet?: boolean;
  /** Serve https/wss with these PEM files (the SDK's StreamingTranscriber needs wss). */
  tls?: TlsFiles;
  /** Streaming v3 limits (sessions, burst, max duration). */
  streaming?: Partial<StreamingEngineOptions>;
  /** LLM gateway upstreams and limits (merged with <data>/gateway.json). */
  gateway?: GatewayOptions;
  /** Disk retention (defaults in retention.ts: partial files 1 h, unused uploads 24 h, hourly sweep). */
  retention?: Partial<RetentionPolicy>;
}

export interface Logger {
  info(msg: string): void;
  warn(msg: string): void;
  error(msg: string): void;
}

export interface EngineContext {
  opts: Required<Pick<EngineOptions, 'host' | 'apiKey' | 'dataDir' | 'workers' | 'allowFileUrls' | 'maxUploadBytes' | 'maxFetchBytes' | 'fetchTimeoutMs' | 'drainTimeoutMs'>> & EngineOptions;
  store: Store;
  /** The shared recognizer (decoders are pooled inside it). */
  recognizer: Recognizer;
  /** Returns the shared recognizer; streaming sessions call `openStream()` on it. */
  createRecognizer(): Recognizer;
  logger: Logger;
  /** `http://host:port` once listening. */
  baseUrl(): string;
  /** Whether a request carries the API key. */
  isAuthorized(req: IncomingMessage): boolean;
  sendJson(res: ServerResponse, status: number, body: unknown, headers?: Record<string, string>): void;
  /** Registers cleanup run by `close()`, before the store closes. */
  onClose(fn: () => void | Promise<void>): void;
  jobs: JobRunner;
  webhooks: WebhookSender;
}

export interface RunningEngine {
  url: string;
  port: number;
  server: Server;
  ctx: EngineContext;
  /** Drains: no new jobs; running ones finish (or are left queued after drainTimeoutMs); then closes. */
  close(): Promise<void>;
}

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

export function defaultWorkers(): number {
  return Math.max(1, cpus().length - 1);
}

export async function startEngine(opts: EngineOptions): Promise<RunningEngine> {
  if (!opts.apiKey) throw new Error('an API key is required');
  const started = Date.now();
  const resolved: EngineContext['opts'] = {
    ...opts,
    workers: Math.max(1, opts.workers ?? defaultWorkers()),
    allowFileUrls: opts.allowFileUrls ?? false,
    maxUploadBytes: opts.maxUploadBytes ?? 5 * 1024 ** 3,
    maxFetchBytes: opts.maxFetchBytes ?? 5 * 1024 ** 3,
    fetchTimeoutMs: opts.fetchTimeoutMs ?? 60_000,
    drainTimeoutMs: opts.drainTimeoutMs ?? 30_000,
  };
  const logger: Logger = {
    info: (m) => {
      if (!opts.quiet) process.stderr.write(`[engine] ${m}\n`);
    },
    warn: (m) => process.stderr.write(`[engine] warning: ${m}\n`),
    error: (m) => process.stderr.write(`[engine] error: ${m}\n`),
  };
  const store = new Store(resolved.dataDir);
  const recognizer = opts.recognizer ?? createRecognizer({ poolSize: resolved.workers + 2 });
  if (!recognizer.available) logger.warn(recognizer.unavailableReason ?? 'the recognizer is not available');
  const closers: (() => void | Promise<void>)[] = [];
  let baseUrl = '';
  const router = new Router();
  const ctx = {
    opts: resolved,
    store,
    recognizer,
    createRecognizer: () => recognizer,
    logger,
    baseUrl: () => baseUrl,
    isAuthorized: (req: IncomingMessage) => isAuthorized(req, resolved.apiKey),
    sendJson,
    onClose: (fn: () => void | Promise<void>) => void closers.push(fn),
  } as EngineContext;
  ctx.webhooks = new WebhookSender(ctx, opts.webhook);
  ctx.jobs = new JobRunner(ctx);

  router.get('/health', ({ res }) => sendJson(res, 200, { status: 'ok', uptime_ms: Date.now() - started, recognizer: recognizer.available ? recognizer.name : null }), { public: true });
  registerUpload(ctx, router);
  registerTranscripts(ctx, router);
  registerViews(ctx, router);

  const server = createEngineServer(opts.tls, (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const method = req.method ?? 'GET';
    const found = router.match(method, url.pathname);
    if (!found?.route.public && !ctx.isAuthorized(req)) {
      req.resume();
      sendJson(res, 401, { error: AUTH_ERROR });
      return;
    }
    if (found === undefined) {
      req.resume();
      sendJson(res, 404, { error: 'Not found' });
      return;
    }
    if (found === null) {
      req.resume();
      sendJson(res, 405, { error: `Method ${method} is not allowed on ${url.pathname}` });
      return;
    }
    Promise.resolve()
      .then(() => found.route.handler({ req, res, url, params: found.params }))
      .catch((err: unknown) => {
        if (err instanceof HttpError) {
          sendJson(res, err.status, { error: err.message }, err.headers);
        } else {
          logger.error(`${method} ${url.pathname}: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
          sendJson(res, 500, { error: 'Internal server error in the local engine; the request may be sent again.' });
        }
        if (!req.complete) req.resume();
      });
  });
  registerStreaming(ctx, server, router);
  registerGateway(ctx, router);

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, resolved.host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const hostForUrl = resolved.host.includes(':') ? `[${resolved.host}]` : resolved.host === '0.0.0.0' ? '127.0.0.1' : resolved.host;
  baseUrl = `${opts.tls ? 'https' : 'http'}://${hostForUrl}:${port}`;
  ctx.jobs.start();
  ctx.webhooks.start();
  const stopRetention = startRetention(store, logger, { ...RETENTION_DEFAULTS, ...opts.retention });

  let closing: Promise<void> | null = null;
  return {
    url: baseUrl,
    port,
    server,
    ctx,
    close() {
      closing ??= (async () => {
        await ctx.jobs.drain(resolved.drainTimeoutMs);
        ctx.webhooks.stop();
        stopRetention();
        for (const fn of closers) await Promise.resolve(fn()).catch(() => undefined);
        const closed = new Promise<void>((r) => server.close(() => r()));
        server.closeAllConnections();
        await closed;
        if (!opts.recognizer) recognizer.dispose();
        store.close();
      })();
      return closing;
    },
  };
}
