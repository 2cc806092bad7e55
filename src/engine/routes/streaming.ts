/**
 * Streaming v3 (API.md §8): `GET /v3/token` and the `/v3/ws` WebSocket.
 * Connection checks (auth, parameters, session limit) happen after the
 * upgrade so the client receives a close code and a reason, as the cloud does.
 * Every socket gets its error listener before anything else can happen on it:
 * a protocol error (an unmasked frame, an oversized message) on a socket that
 * is being refused must not become an uncaught exception.
 */
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import { WARNING_SLOWER_THAN_REAL_TIME, type TokenResponse, type WarningMessage } from '../../shared/api/streaming';
import { keyMatches } from '../auth';
import type { EngineContext } from '../context';
import { CLOSE, closeReason, parseParams, StreamingClose } from '../streaming/params';
import { prewarmSessionVads, StreamingSession } from '../streaming/session';
import { TokenStore } from '../streaming/tokens';
import { lazyStream } from '../streaming/lazy-stream';
import { liveSessionOpened } from '../recognizer/decode-share';
import { LiveModelError, liveModelOf } from '../recognizer/engine-set';
import { liveVoiceprints, type Voiceprints } from '../recognizer/speakers';
import { TurnVoices } from '../streaming/turn-voices';
import { bestLocalModel } from '../models/best';
import { resolveServiceModel } from '../../shared/api/service-models';
import type { KnownVoices } from '../streaming/known-voices';
import { sendJson } from './respond';
import { HttpError, requestUrl, type Router } from './router';

function intParam(url: URL, name: string, min: number, max: number, required: boolean): number | null {
  const raw = url.searchParams.get(name);
  if (raw === null || raw === '') {
    if (required) throw new HttpError(400, `${name} is required (an integer from ${min} to ${max})`);
    return null;
  }
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min || n > max)
    throw new HttpError(400, `Invalid ${name}: ${JSON.stringify(raw.slice(0, 40))}; expected an integer from ${min} to ${max}`);
  return n;
}

/** Closes with a reason cut to 123 bytes; a socket that cannot close cleanly is dropped. */
function safeClose(ws: WebSocket, code: number, reason: string): void {
  if (ws.readyState !== ws.OPEN) return;
  try {
    ws.close(code, closeReason(reason));
  } catch {
    ws.terminate();
  }
}

/** Answers a raw upgrade socket with a plain HTTP error and closes it. */
function refuseUpgrade(socket: Duplex, status: 400 | 404, error: string): void {
  const body = JSON.stringify({ error });
  const text = status === 400 ? 'Bad Request' : 'Not Found';
  socket.end(`HTTP/1.1 ${status} ${text}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
}

/** `known`: the remembered voices (PUT /v2/voiceprints/known) that sessions with speaker labels name. */
export function registerStreaming(ctx: EngineContext, server: Server, router: Router, known: KnownVoices | null = null): void {
  const opts = ctx.opts.streaming;
  const tokens = new TokenStore();
  const wss = new WebSocketServer({ noServer: true, maxPayload: 512 * 1024 });
  const sessions = new Set<StreamingSession>();
  let active = 0;
  // Speaker labels' voiceprints: their worker child starts with the first session that asks for them.
  let prints: Voiceprints | null = null;
  const voiceprints = (): Voiceprints => (prints ??= liveVoiceprints(ctx.models));
  // Once a session comes, the detectors of the ones that may follow are built ahead, one per turn of the loop
  // (after an idle minute they are freed, then rebuilt so). None at start: an engine nobody streams to holds none.
  const warmVads = (): void => {
    if (ctx.recognizers.liveVad) prewarmSessionVads(opts.maxSessions);
  };

  router.get('/v3/token', ({ res, url }) => {
    const expires = intParam(url, 'expires_in_seconds', 1, 600, true) as number;
    const maxSession = intParam(url, 'max_session_duration_seconds', 60, 10_800, false);
    sendJson(res, 200, { token: tokens.mint(expires, maxSession), expires_in_seconds: expires } satisfies TokenResponse);
  });

  /**
   * The model an AssemblyAI id (or no speech_model) runs when the engine has no --live-model: the best installed
   * one for live captions (a streaming transducer first), else PocketSphinx. Looked up before the upgrade, so a
   * session that opens knows its model and never refuses after Begin for want of one.
   */
  const liveDefault = async (url: URL): Promise<string | null> => {
    if (ctx.opts.liveModel) return ctx.opts.liveModel;
    const asked = url.searchParams.get('speech_model');
    if (asked !== null && !resolveServiceModel('streaming', asked)) return null;
    try {
      return bestLocalModel(await ctx.recognizers.local.list(), 'live', null)?.id ?? null;
    } catch {
      return null;
    }
  };

  const onConnection = (ws: WebSocket, req: IncomingMessage, url: URL, defaultLive: string | null): void => {
    const reject = (code: number, reason: string) => safeClose(ws, code, reason);
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
    // speech_model may name an installed local model (else the engine's default live model, else PocketSphinx).
    const live = liveModelOf(url.searchParams, defaultLive);
    try {
      params = parseParams(live.query);
      if (live.cloud) params.speechModel = live.cloud;
    } catch (err) {
      if (err instanceof StreamingClose) return reject(err.code, err.message);
      throw err;
    }
    if (active >= opts.maxSessions) {
      return reject(CLOSE.tooMany, `Too many concurrent sessions: the local engine allows ${opts.maxSessions}; close one and try again`);
    }
    const unavailable = ctx.recognizers.unavailableFor(live.name);
    if (unavailable) return reject(CLOSE.serverError, unavailable);
    active++;
    warmVads();
    // A model slower than real time says so once (a Warning message the app shows) rather than falling behind silently.
    const warn = (message: string) => {
      ctx.logger.warn(message);
      if (ws.readyState === ws.OPEN)
        ws.send(JSON.stringify({ type: 'Warning', warning_code: WARNING_SLOWER_THAN_REAL_TIME, warning: message } satisfies WarningMessage));
    };
    const opening = ctx.recognizers.forStream({ model: live.name, keyterms: params.keyterms, onSlow: warn, slowRtf: ctx.opts.liveSlowRtf });
    const voices = params.speakerLabels ? speakerVoices(params.maxSpeakers, (code, reason) => reject(code, reason)) : null;
    const session = new StreamingSession(
      params,
      lazyStream(opening),
      {
        send: (msg) => {
          if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(msg));
        },
        close: (code, reason) => safeClose(ws, code, reason),
      },
      { burstMs: opts.burstMs, maxSessionMs: maxSessionSeconds * 1000, useVad: ctx.recognizers.liveVad, voices },
    );
    sessions.add(session);
    // A live session keeps a core for its decoding ahead of any file job's parallel segments.
    const liveDone = liveSessionOpened();
    ws.on('message', (data, isBinary) => {
      try {
        session.onMessage(Array.isArray(data) ? Buffer.concat(data) : Buffer.isBuffer(data) ? data : Buffer.from(data), isBinary);
      } catch (err) {
        ctx.logger.error(`streaming message failed: ${err instanceof Error ? err.message : String(err)}`);
        ws.terminate();
      }
    });
    ws.on('close', () => {
      active--;
      liveDone();
      session.dispose();
      sessions.delete(session);
    });
    opening.catch((err: unknown) => {
      if (err instanceof LiveModelError) return reject(CLOSE.invalidMessage, err.message);
      ctx.logger.error(`streaming session could not start: ${err instanceof Error ? err.message : String(err)}`);
      reject(CLOSE.serverError, 'Server error: the recognizer could not start a session; try again');
    });
    session.begin();
  };

  /** A session's speaker labels; without a usable embedding model the session closes 3006 saying what to download. */
  const speakerVoices = (maxSpeakers: number | null, reject: (code: number, reason: string) => void): TurnVoices => {
    const vp = voiceprints();
    const model = vp.model();
    model.then(
      (m) => {
        if ('missing' in m) reject(CLOSE.invalidMessage, m.missing);
      },
      (err: unknown) => {
        ctx.logger.error(`speaker labels could not start: ${err instanceof Error ? err.message : String(err)}`);
        reject(CLOSE.serverError, 'Server error: speaker labels could not start; try again');
      },
    );
    // A voice is compared only with prints its own embedding model took (the id is known once the first print is).
    let modelId: string | null = null;
    return new TurnVoices(
      async (parts) => {
        const m = await model;
        if ('missing' in m) throw new Error(m.missing);
        modelId = m.id;
        return vp.embed(m, parts);
      },
      maxSpeakers,
      known ? (direction) => (modelId ? known.match(modelId, direction) : null) : null,
    );
  };

  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    // Node removes its own error listener from an upgraded socket: without this one a reset would throw.
    socket.on('error', () => socket.destroy());
    try {
      const url = requestUrl(req.url);
      if (!url) return refuseUpgrade(socket, 400, 'The request target is not a valid URL path.');
      if (url.pathname !== '/v3/ws') return refuseUpgrade(socket, 404, 'Not found');
      void liveDefault(url).then((defaultLive) => {
        if (socket.destroyed) return;
        try {
          upgrade(req, socket, head, url, defaultLive);
        } catch (err) {
          ctx.logger.error(`upgrade failed: ${err instanceof Error ? err.message : String(err)}`);
          socket.destroy();
        }
      });
    } catch (err) {
      ctx.logger.error(`upgrade failed: ${err instanceof Error ? err.message : String(err)}`);
      socket.destroy();
    }
  });

  const upgrade = (req: IncomingMessage, socket: Duplex, head: Buffer, url: URL, defaultLive: string | null): void => {
    wss.handleUpgrade(req, socket, head, (ws) => {
      ws.on('error', (err) => ctx.logger.info(`streaming socket error: ${err.message}`));
      try {
        onConnection(ws, req, url, defaultLive);
      } catch (err) {
        ctx.logger.error(`streaming connection failed: ${err instanceof Error ? err.message : String(err)}`);
        safeClose(ws, CLOSE.serverError, 'Server error in the local engine');
      }
    });
  };

  ctx.onClose(() => {
    for (const s of sessions) s.dispose();
    prints?.close();
    for (const c of wss.clients) safeClose(c, 1001, 'The local engine is shutting down');
    wss.close();
  });
}
