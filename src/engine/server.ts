/**
 * The local engine's composition root: builds the context (store,
 * recognizers, gateway, webhooks, jobs), wires the routes and listens.
 * Requests are dispatched by routes/dispatch.ts, upgrades by routes/streaming.ts.
 */
import type { IncomingMessage, Server } from 'node:http';
import { cpus } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { isAuthorized } from './auth';
import type { EngineContext, EngineOptions, JobContext, ResolvedOptions } from './context';
import { loadGatewayConfig } from './gateway/config';
import { Gateway } from './gateway/gateway';
import { JobRunner } from './jobs/runner';
import { stderrLogger } from './logger';
import { releaseMemory } from './memory';
import { ModelsFolder } from './models/folder';
import { NativeChild } from './native/child-host';
import { setFileWorkers } from './recognizer/decode-share';
import { buildRecognizers } from './recognizer/engine-set';
import { SHERPA_CHILD } from './recognizer/sherpa/child-kinds';
import { createSpeakerLabels } from './recognizer/speakers';
import { registerGateway } from './routes/gateway';
import { sendJson } from './routes/respond';
import { requestListener } from './routes/dispatch';
import { Router } from './routes/router';
import { registerStreaming } from './routes/streaming';
import { registerSync } from './routes/sync';
import { registerTranscripts } from './routes/transcripts';
import { registerUpload } from './routes/upload';
import { registerViews } from './routes/views';
import { registerVoiceprints } from './routes/voiceprints';
import { registerKnownVoices } from './routes/known-voices';
import { KnownVoices } from './streaming/known-voices';
import { RETENTION_DEFAULTS, startRetention } from './retention';
import { Store } from './store';
import { STREAMING_DEFAULTS } from './streaming/options';
import { createEngineServer } from './tls';
import { MAX_DRAIN_SECONDS } from './options';
import { WebhookSender } from './webhooks';

export type { EngineContext, EngineOptions, Logger } from './context';

export { HttpError, Router } from './routes/router';
export type { RouteHandler, RouteRequest } from './routes/router';

export interface RunningEngine {
  url: string;
  port: number;
  server: Server;
  ctx: EngineContext;
  /** Drains: no new jobs; running ones finish (or are left queued after drainTimeoutMs); then closes. */
  close(): Promise<void>;
}

export function defaultWorkers(): number {
  return Math.max(1, cpus().length - 1);
}

function resolveOptions(opts: EngineOptions): ResolvedOptions {
  return {
    ...opts,
    workers: Math.max(1, opts.workers ?? defaultWorkers()),
    allowFileUrls: opts.allowFileUrls ?? false,
    maxUploadBytes: opts.maxUploadBytes ?? 5 * 1024 ** 3,
    maxFetchBytes: opts.maxFetchBytes ?? 5 * 1024 ** 3,
    fetchTimeoutMs: opts.fetchTimeoutMs ?? 60_000,
    drainTimeoutMs: opts.drainTimeoutMs ?? 30_000,
    streaming: { ...STREAMING_DEFAULTS, ...opts.streaming },
  };
}

export async function startEngine(opts: EngineOptions): Promise<RunningEngine> {
  if (!opts.apiKey) throw new Error('an API key is required');
  // setTimeout takes at most 2^31-1 ms; beyond, it fires at once (a drain of 3,000,000 s ended immediately).
  if (opts.drainTimeoutMs !== undefined && !(opts.drainTimeoutMs >= 0 && opts.drainTimeoutMs <= MAX_DRAIN_SECONDS * 1000))
    throw new Error(`drainTimeoutMs must be from 0 to ${MAX_DRAIN_SECONDS * 1000} (a day); got ${opts.drainTimeoutMs}`);
  const started = Date.now();
  const resolved = resolveOptions(opts);
  const logger = stderrLogger(opts.quiet);
  let gateway: Gateway;
  const store = new Store(resolved.dataDir);
  // The one reader of the models folder, shared by speech, speakers and chat.
  const models = new ModelsFolder(opts.modelsDir ?? join(resolved.dataDir, 'models'));
  try {
    const local = { models, idleMs: opts.idleMs, log: (m: string) => logger.warn(m), ...opts.gateway?.local };
    gateway = new Gateway(loadGatewayConfig(resolved.dataDir, { ...opts.gateway, local }), store);
  } catch (err) {
    store.close();
    logger.error(`LLM gateway configuration: ${err instanceof Error ? err.message : String(err)}`);
    throw err;
  }
  setFileWorkers(resolved.workers);
  const recognizers = buildRecognizers({
    workers: resolved.workers,
    maxSessions: resolved.streaming.maxSessions,
    useVad: resolved.streaming.useVad,
    idleMs: opts.idleMs,
    speakerAdaptation: opts.speakerAdaptation ?? true,
    injected: opts.recognizer,
    models,
    logger,
  });
  if (!recognizers.available) logger.warn(recognizers.unavailableReason ?? 'the recognizer is not available');
  const closers: (() => void | Promise<void>)[] = [];
  let baseUrl = '';
  const webhooks = new WebhookSender({ store, logger }, opts.webhook);
  const speakers = createSpeakerLabels(models, new NativeChild({ ...SHERPA_CHILD, name: 'speaker diarization' }));
  closers.push(() => speakers.close());
  closers.push(() => gateway.close());
  const base: JobContext = {
    opts: resolved,
    store,
    recognizers,
    models,
    speakers,
    gateway,
    webhooks,
    logger,
    baseUrl: () => baseUrl,
    isAuthorized: (req: IncomingMessage) => isAuthorized(req, resolved.apiKey),
    onClose: (fn) => void closers.push(fn),
  };
  const jobs = new JobRunner(base);
  const ctx: EngineContext = { ...base, jobs };

  const router = new Router();
  router.get(
    '/health',
    ({ res }) => sendJson(res, 200, { status: 'ok', uptime_ms: Date.now() - started, recognizer: recognizers.available ? recognizers.batch.name : null }),
    { public: true },
  );
  registerUpload(ctx, router);
  registerTranscripts(ctx, router);
  registerViews(ctx, router);
  registerVoiceprints(ctx, router);
  // Remembered voices for live speaker labels: in memory only, told by the app before a session.
  const known = new KnownVoices();
  registerKnownVoices(router, known);

  const server = createEngineServer(opts.tls, requestListener(router, ctx));
  registerStreaming(ctx, server, router, known);
  registerGateway(ctx, router);
  registerSync(ctx, router);

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, resolved.host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const hostForUrl = resolved.host.includes(':') ? `[${resolved.host}]` : resolved.host === '0.0.0.0' ? '127.0.0.1' : resolved.host;
  baseUrl = `${opts.tls ? 'https' : 'http'}://${hostForUrl}:${port}`;
  jobs.start();
  webhooks.start();
  const stopRetention = startRetention(store, logger, { ...RETENTION_DEFAULTS, ...opts.retention });
  // Start-up garbage (module sources, the VAD probe's model session) goes now, not at the first idle sweep.
  setImmediate(releaseMemory);

  let closing: Promise<void> | null = null;
  return {
    url: baseUrl,
    port,
    server,
    ctx,
    close() {
      closing ??= (async () => {
        await jobs.drain(resolved.drainTimeoutMs);
        webhooks.stop();
        stopRetention();
        for (const fn of closers) await Promise.resolve(fn()).catch(() => undefined);
        const closed = new Promise<void>((r) => server.close(() => r()));
        server.closeAllConnections();
        await closed;
        recognizers.dispose();
        store.close();
      })();
      return closing;
    },
  };
}
