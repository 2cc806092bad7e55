/**
 * `npm run engine -- --port 8787 --api-key KEY --data DIR [--host 127.0.0.1] [--workers N] [--allow-file-urls] [--allow-private-urls] [--max-upload-bytes N]
 *   [--tls-cert PEM --tls-key PEM] [--max-streams N] [--idle-seconds N] [--no-speaker-adaptation] [--no-denoise] [--drain-seconds N] [--models DIR] [--live-model ID] [--live-slow-rtf R] [--llm-base-url URL --llm-models a,b [--llm-api-key KEY] [--llm-rate-limit N]]`
 * The local AssemblyAI-compatible service, a program of its own.
 */
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { drainSecondsOf } from './options';
import { startEngine } from './server';

async function main(): Promise<void> {
  // Files the engine and its ffmpeg children write (decoded and redacted audio) are the user's alone.
  process.umask(0o077);
  const { values } = parseArgs({
    options: {
      host: { type: 'string', default: '127.0.0.1' },
      port: { type: 'string', default: '8787' },
      'api-key': { type: 'string' },
      data: { type: 'string' },
      workers: { type: 'string' },
      'allow-file-urls': { type: 'boolean', default: false },
      'allow-private-urls': { type: 'boolean', default: false },
      'max-upload-bytes': { type: 'string' },
      quiet: { type: 'boolean', default: false },
      'tls-cert': { type: 'string' },
      'tls-key': { type: 'string' },
      'max-streams': { type: 'string' },
      'idle-seconds': { type: 'string' },
      'drain-seconds': { type: 'string' },
      'no-speaker-adaptation': { type: 'boolean', default: false },
      'no-denoise': { type: 'boolean', default: false },
      'llm-base-url': { type: 'string' },
      'llm-api-key': { type: 'string' },
      'llm-models': { type: 'string' },
      'llm-rate-limit': { type: 'string' },
      models: { type: 'string' },
      'live-model': { type: 'string' },
      'live-slow-rtf': { type: 'string' },
    },
  });
  if (!values['tls-cert'] !== !values['tls-key']) throw new Error('--tls-cert and --tls-key go together (PEM files)');
  const tls = values['tls-cert'] && values['tls-key'] ? { cert: values['tls-cert'], key: values['tls-key'] } : undefined;
  const maxStreams = values['max-streams'] === undefined ? undefined : Number(values['max-streams']);
  if (maxStreams !== undefined && (!Number.isInteger(maxStreams) || maxStreams < 1)) throw new Error('--max-streams must be a positive integer');
  const rateLimit = values['llm-rate-limit'] === undefined ? undefined : Number(values['llm-rate-limit']);
  if (rateLimit !== undefined && (!Number.isInteger(rateLimit) || rateLimit < 0))
    throw new Error('--llm-rate-limit must be a whole number of requests per minute');
  const llmModels = (values['llm-models'] ?? '')
    .split(',')
    .map((m) => m.trim())
    .filter(Boolean);
  if (values['llm-base-url'] && llmModels.length === 0) throw new Error('--llm-base-url needs --llm-models NAME[,NAME] (the models the upstream serves)');
  const gateway = {
    upstreams: values['llm-base-url']
      ? [{ baseUrl: values['llm-base-url'], apiKey: values['llm-api-key'] ?? process.env.VERBATIM_LLM_API_KEY ?? null, models: llmModels }]
      : [],
    ...(rateLimit === undefined ? {} : { defaultLimit: rateLimit }),
    ...testRateWindow(process.env.VERBATIM_TEST_RATE_RETRY_MS),
  };
  const apiKey = values['api-key'] ?? process.env.VERBATIM_ENGINE_KEY;
  if (!apiKey) {
    process.stderr.write('verbatim-engine: an API key is required: --api-key KEY or VERBATIM_ENGINE_KEY.\n');
    process.exit(2);
  }
  const port = Number(values.port);
  const workers = values.workers === undefined ? undefined : Number(values.workers);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`--port must be a port number, not ${values.port}`);
  if (workers !== undefined && (!Number.isInteger(workers) || workers < 1)) throw new Error('--workers must be a positive integer');
  const slowRaw = values['live-slow-rtf'] ?? process.env.VERBATIM_LIVE_SLOW_RTF;
  const liveSlowRtf = slowRaw === undefined || slowRaw === '' ? undefined : Number(slowRaw);
  if (liveSlowRtf !== undefined && !(liveSlowRtf >= 0)) throw new Error('--live-slow-rtf must be a number from 0 (every model counts as slow)');
  const idleSeconds = values['idle-seconds'] === undefined ? undefined : Number(values['idle-seconds']);
  if (idleSeconds !== undefined && !(idleSeconds > 0)) throw new Error('--idle-seconds must be a positive number');
  // How long SIGTERM waits for running jobs before leaving them queued for the next start (default 30 s).
  const drainSeconds = values['drain-seconds'] === undefined ? undefined : drainSecondsOf(values['drain-seconds']);
  const maxUpload = values['max-upload-bytes'] === undefined ? undefined : Number(values['max-upload-bytes']);
  const dataDir = resolve(values.data ?? join(process.env.XDG_DATA_HOME ?? join(homedir(), '.local', 'share'), 'verbatim-engine'));
  const engine = await startEngine({
    host: values.host,
    port,
    apiKey,
    dataDir,
    workers,
    allowFileUrls: values['allow-file-urls'],
    allowPrivateUrls: values['allow-private-urls'] || undefined,
    maxUploadBytes: maxUpload,
    quiet: values.quiet,
    tls,
    gateway,
    streaming: maxStreams === undefined ? {} : { maxSessions: maxStreams },
    idleMs: idleSeconds === undefined ? undefined : idleSeconds * 1000,
    drainTimeoutMs: drainSeconds === undefined ? undefined : drainSeconds * 1000,
    speakerAdaptation: !values['no-speaker-adaptation'],
    denoise: !values['no-denoise'],
    ...(values.models ? { modelsDir: resolve(values.models) } : {}),
    liveModel: values['live-model'] ?? null,
    ...(liveSlowRtf === undefined ? {} : { liveSlowRtf }),
  });
  process.stdout.write(`listening on ${engine.url}\n`);
  // The last line of defence: every listener handles its own errors, but one missed case must
  // cost one request, not every job and session of the engine. Jobs are durable either way.
  process.on('uncaughtException', (err) => process.stderr.write(`[engine] error: uncaught ${err.stack ?? err.message}; still serving\n`));
  process.on('unhandledRejection', (err) =>
    process.stderr.write(`[engine] error: unhandled rejection ${err instanceof Error ? (err.stack ?? err.message) : String(err)}; still serving\n`),
  );
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    process.stderr.write('[engine] draining: no new jobs; running jobs finish or stay queued for the next start\n');
    void engine.close().then(() => process.exit(0));
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

/**
 * The end-to-end tests' host sets VERBATIM_TEST_RATE_RETRY_MS (a whole number of milliseconds, 1,000 to 60,000):
 * the per-minute limiter's window then lasts an hour (a slow test machine still counts all its requests in one),
 * and a refused request's window ends that long after the refusal, so the chat's wait-and-retry takes seconds.
 * Unset or anything else: real one-minute windows.
 */
function testRateWindow(value: string | undefined): { testRateWindow?: { windowMs: number; refusedResetMs: number } } {
  const ms = Number(value);
  return value && Number.isInteger(ms) && ms >= 1000 && ms <= 60_000 ? { testRateWindow: { windowMs: 3_600_000, refusedResetMs: ms } } : {};
}

main().catch((err: unknown) => {
  process.stderr.write(`verbatim-engine could not start: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
