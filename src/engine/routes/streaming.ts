/**
 * Streaming v3 (API.md §8): `GET /v3/token` and the `/v3/ws` WebSocket.
 * Connection checks (auth, parameters, session limit) happen after the
 * upgrade so the client receives a close code and a reason, as the cloud does.
 */
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import { keyMatches } from '../auth';
import type { EngineContext } from '../server';
import { vadStatus } from '../audio/vad';
import { CLOSE, parseParams, StreamingClose } from '../streaming/params';
import { prewarmLiveVad, StreamingSession } from '../streaming/session';
import { TokenStore } from '../streaming/tokens';
import { lazyStream } from '../streaming/lazy-stream';
import { HttpError, type Router } from './router';
import { SphinxRecognizer, type Recognizer } from '../recognizer/index';

/** Decoder arguments for live sessions (see registerStreaming). */
export const LIVE_DECODER_ARGS = { '-fwdflat': 'no', '-maxhmmpf': '1500', '-pl_window': '10', '-topn': '2', '-maxwpf': '5', '-remove_silence': 'no' };

export interface StreamingEngineOptions {
  /** Concurrent sessions before 3009 (default 4). */
  maxSessions: number;
  /** Audio ahead of real time tolerated before 3007 (default 10 s). */
  burstMs: number;
  /** Session limit without a token limit (default 3 h). */
  maxSessionSeconds: number;
  /** Use Silero VAD when it loads (default true). */
  useVad: boolean;
}

export const STREAMING_DEFAULTS: StreamingEngineOptions = { maxSessions: 4, burstMs: 10_000, maxSessionSeconds: 10_800, useVad: true };

function intParam(url: URL, name: string, min: number, max: number, required: boolean): number | null {
  const raw = url.searchParams.get(name);
  if (raw === null || raw === '') {
    if (required) throw new HttpError(400, `${name} is required (an integer from ${min} to ${max})`);
    return null;
  }
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min || n > max) throw new HttpError(400, `Invalid ${name}: ${JSON.stringify(raw)}; expected an integer from ${min} to ${max}`);
  return n;
}

export function registerStreaming(ctx: EngineContext, server: Server, router: Router): void {
  const opts: StreamingEngineOptions = { ...STREAMING_DEFAULTS, ...ctx.opts.streaming };
  const tokens = new TokenStore();
  const wss = new WebSocketServer({ noServer: true, maxPayload: 512 * 1024 });
  const sessions = new Set<StreamingSession>();
  /** Decoder openings, chained. */
  let opens: Promise<unknown> = Promise.resolve();
  let active = 0;
  const vad = vadStatus();
  // Without Silero the decoder's own detector decides speech vs silence; it
  // needs PocketSphinx's silence removal, which makes times after long pauses early.
  const withVad = opts.useVad && vad.available;
  if (opts.useVad && !vad.available) ctx.logger.warn(`${vad.reason ?? 'Silero VAD is unavailable'}; streaming falls back to the decoder's speech detector`);

  // Live decoding has its own decoders, tuned for latency: no second (flat)
  // pass, so ending a turn costs ~50 ms instead of ~300, and tighter pruning
  // (about 0.15 of a core per session instead of 0.25, same words on our clips).
  // An injected recognizer (tests, other engines) is used as it is.
  const live: Recognizer = ctx.opts.recognizer ? ctx.createRecognizer() : new SphinxRecognizer({ poolSize: opts.maxSessions, args: withVad ? LIVE_DECODER_ARGS : { ...LIVE_DECODER_ARGS, '-remove_silence': 'yes' } });
  if (!ctx.opts.recognizer) ctx.onClose(() => live.dispose());
  if (withVad) prewarmLiveVad(opts.maxSessions);
  // Load two decoders now so the first sessions do not wait for the model.
  if (live.available) {
    const warming = (opens = live.openStream().then(async (a) => {
      const b = opts.maxSessions > 1 ? await live.openStream() : null;
      a.close();
      b?.close();
    }));
    warming.catch((err: unknown) => ctx.logger.warn(`streaming warm-up failed: ${err instanceof Error ? err.message : String(err)}`));
  }

  router.get('/v3/token', ({ res, url }) => {
    const expires = intParam(url, 'expires_in_seconds', 1, 600, true) as number;
    const maxSession = intParam(url, 'max_session_duration_seconds', 60, 10_800, false);
    ctx.sendJson(res, 200, { token: tokens.mint(expires, maxSession), expires_in_seconds: expires });
  });

  const onConnection = (ws: WebSocket, req: IncomingMessage, url: URL): void => {
    const reject = (code: number, reason: string) => ws.close(code, reason);
    let maxSessionSeconds = opts.maxSessionSeconds;
    const token = url.searchParams.get('token');
    if (token) {
      const grant = tokens.consume(token);
      if (!grant.ok) return reject(CLOSE.unauthorized, `Unauthorized Connection: ${grant.reason}`);
      if (grant.maxSessionSeconds !== null) maxSessionSeconds = Math.min(maxSessionSeconds, grant.maxSessionSeconds);
    } else {
      const h = req.headers.authorization;
      if (!keyMatches(Array.isArray(h) ? h[0] : h, ctx.opts.apiKey)) {
        return reject(CLOSE.unauthorized, 'Unauthorized Connection: missing or invalid API key (Authorization header or ?token=)');
      }
    }
    let params;
    try {
      params = parseParams(url.searchParams);
    } catch (err) {
      if (err instanceof StreamingClose) return reject(err.code, err.message);
      throw err;
    }
    if (active >= opts.maxSessions) {
      return reject(CLOSE.tooMany, `Too many concurrent sessions: the local engine allows ${opts.maxSessions}; close one and try again`);
    }
    const recognizer = live;
    if (!recognizer.available) return reject(CLOSE.serverError, (recognizer.unavailableReason ?? 'The recognizer is not available').slice(0, 120));
    active++;
    // One decoder creation at a time: loading models concurrently on worker threads is not known to be safe.
    const opening = opens.catch(() => undefined).then(() => recognizer.openStream({ keyterms: params.keyterms }));
    opens = opening;
    const session = new StreamingSession(
      params,
      lazyStream(opening),
      {
        send: (msg) => {
          if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(msg));
        },
        close: (code, reason) => {
          if (ws.readyState === ws.OPEN) ws.close(code, reason);
        },
      },
      { burstMs: opts.burstMs, maxSessionMs: maxSessionSeconds * 1000, useVad: opts.useVad },
    );
    sessions.add(session);
    ws.on('message', (data, isBinary) => {
      session.onMessage(Array.isArray(data) ? Buffer.concat(data) : Buffer.isBuffer(data) ? data : Buffer.from(data), isBinary);
    });
    ws.on('close', () => {
      active--;
      session.dispose();
      sessions.delete(session);
    });
    ws.on('error', () => undefined);
    opening.catch((err: unknown) => {
      ctx.logger.error(`streaming session could not start: ${err instanceof Error ? err.message : String(err)}`);
      reject(CLOSE.serverError, 'Server error: the recognizer could not start a session; try again');
    });
    session.begin();
  };

  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (url.pathname !== '/v3/ws') {
      socket.end('HTTP/1.1 404 Not Found\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n{"error":"Not found"}');
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => {
      try {
        onConnection(ws, req, url);
      } catch (err) {
        ctx.logger.error(`streaming connection failed: ${err instanceof Error ? err.message : String(err)}`);
        ws.close(CLOSE.serverError, 'Server error in the local engine');
      }
    });
  });

  ctx.onClose(() => {
    for (const s of sessions) s.dispose();
    for (const c of wss.clients) c.close(1001, 'The local engine is shutting down');
    wss.close();
  });
}
