/**
 * Host mode (DESIGN.md §7): main's services in plain Node, the built renderer
 * served on 127.0.0.1, and the IPC contract carried over one WebSocket.
 * A random token per launch is required on the socket (and on any route that
 * serves user data); the socket also refuses other origins, and every request
 * must name a loopback Host (a DNS-rebound name reaches 127.0.0.1 but says so).
 * No listener may throw: a malformed request gets a 4xx, never the process.
 * The renderer is served as soon as the server listens; the bridge and the
 * token routes wait for the services (`core` may be a promise, or a function
 * that loads them: host/cli.ts prints the address first, issue 29), so this
 * module imports nothing heavy itself (ws and the contract's schemas load
 * with them).
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createReadStream, existsSync, readFileSync, statSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { WebSocket, WebSocketServer } from 'ws';
import type * as BridgeRequest from '../../shared/bridge-request';
import type { BridgeResponse } from '../../shared/ipc';
import type { Core } from '../core';
import { CheckedJson } from '../ipc/checked';
import { CONTENT_SECURITY_POLICY } from '../../shared/csp';
import { handleMedia, handleUpload } from './media';

const MIME: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.woff2': 'font/woff2',
  '.wasm': 'application/wasm',
  '.onnx': 'application/octet-stream',
};

/**
 * The largest bridge message accepted. The biggest legitimate one is
 * `subtitles.commit` of a whole cue list (Reset, an import onto the cues: ~10 MB of JSON for 100,000 cues);
 * audio frames for live captions are 1,600–32,000 bytes. Anything larger
 * closes that socket with 1009 and leaves host mode serving.
 */
export const BRIDGE_MAX_PAYLOAD = 16 * 1024 * 1024;

/** Renderer files up to this size are answered from memory (the largest chunk is ~0.4 MB; source maps and models stream). */
const STATIC_CACHE_MAX_FILE = 1024 * 1024;

/** Text messages from this size on are read and checked on the library's worker thread (a 200,000-cue commit is ~9 MB of JSON): the event loop only hands the bytes over. */
export const BRIDGE_OFF_THREAD_BYTES = 256 * 1024;

/**
 * Whether a Host header names this machine's loopback: `127.0.0.1`,
 * `localhost` or `[::1]`, with an optional port. Anything else is refused, so
 * a page on a rebinding name (evil.example → 127.0.0.1) cannot read our
 * responses as same-origin.
 */
export function isLoopbackHost(header: string | undefined): boolean {
  if (!header) return false;
  const m = /^(127\.0\.0\.1|localhost|\[::1\])(?::(\d{1,5}))?$/i.exec(header);
  return m !== null && (m[2] === undefined || Number(m[2]) <= 65535);
}

/**
 * Parses a request target; null when it is not a path of ours or cannot be
 * read: `//a:b/` and `http://[` (which `new URL` throws on), absolute-form,
 * `*`, or a path whose percent-escapes do not decode (`/media/%E0`).
 */
export function parseTarget(raw: string | undefined): URL | null {
  const target = raw ?? '/';
  if (!target.startsWith('/') || target.startsWith('//')) return null;
  try {
    const url = new URL(target, 'http://127.0.0.1');
    decodeURIComponent(url.pathname);
    return url;
  } catch {
    return null;
  }
}

/** A route that serves user data: reachable only with the launch token. */
export type TokenRoute = (req: IncomingMessage, res: ServerResponse, url: URL) => void | Promise<void>;

export interface HostServerOptions {
  /**
   * The services, their promise, or a function that starts them. Until they are up the page is
   * served and bridge upgrades and token routes wait; if they fail, those get 503. A function is
   * called once: when the page's scripts have gone out (so that loading, which holds the event
   * loop, runs while the browser runs them, not while it waits for them), or when a bridge or token
   * request needs the services, or when `startServices()` is called.
   */
  core: Core | Promise<Core> | (() => Promise<Core>);
  token: string;
  rendererDir: string;
  port: number;
  host?: string;
}

export interface HostServer {
  url: string;
  /** Starts the services now if nothing has yet (see HostServerOptions.core); answers whether they are up. */
  startServices(): Promise<boolean>;
  port: number;
  server: Server;
  addTokenRoute(prefix: string, route: TokenRoute): void;
  close(): Promise<void>;
}

export function newToken(): string {
  return randomBytes(24).toString('base64url');
}

export function tokenMatches(expected: string, given: string | null | undefined): boolean {
  if (!given) return false;
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}

export async function startHostServer(options: HostServerOptions): Promise<HostServer> {
  let services: Core | null = null;
  // opts.core is read only where the services are up (a bridge socket, a token route after `up`).
  const opts = {
    ...options,
    get core(): Core {
      if (!services) throw new Error('host: the services are not up yet');
      return services;
    },
  };
  let decodeBridgeRequest!: typeof BridgeRequest.decodeBridgeRequest;
  let wss: WebSocketServer | null = null;
  let unsubscribe = (): void => undefined;
  let shutDown = false;
  const host = opts.host ?? '127.0.0.1';
  const rendererDir = resolve(opts.rendererDir);
  const tokenRoutes = new Map<string, TokenRoute>();
  tokenRoutes.set('/upload', (req, res) => handleUpload(opts.core, req, res));
  tokenRoutes.set('/media/', (req, res, url) => handleMedia(opts.core, req, res, url));

  const server = createServer((req, res) => {
    void handleHttp(req, res).catch((err: unknown) => {
      console.error('host: request failed', err);
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
      res.end('Internal error');
    });
  });

  async function handleHttp(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (!isLoopbackHost(req.headers.host)) {
      req.resume();
      res
        .writeHead(421, { 'content-type': 'text/plain; charset=utf-8', connection: 'close' })
        .end('Verbatim answers only to 127.0.0.1, localhost or [::1]. Open the address `npm run serve` printed.');
      return;
    }
    const url = parseTarget(req.url);
    if (!url) {
      req.resume();
      res.writeHead(400, { 'content-type': 'text/plain; charset=utf-8', connection: 'close' }).end('Bad request target');
      return;
    }
    for (const [prefix, route] of tokenRoutes) {
      if (url.pathname.startsWith(prefix)) {
        const given = url.searchParams.get('token') ?? bearer(req);
        if (!tokenMatches(opts.token, given)) {
          res.writeHead(401, { 'content-type': 'text/plain' }).end('Missing or wrong token');
          return;
        }
        if (!(await startServices())) {
          res.writeHead(503, { 'content-type': 'text/plain' }).end('Verbatim could not start its services');
          return;
        }
        await route(req, res, url);
        return;
      }
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD' }).end();
      return;
    }
    serveStatic(url.pathname, req, res);
  }

  function serveStatic(pathname: string, req: IncomingMessage, res: ServerResponse): void {
    let rel: string;
    try {
      rel = decodeURIComponent(pathname);
    } catch {
      res.writeHead(400).end();
      return;
    }
    if (rel === '/' || rel === '') rel = '/index.html';
    const file = normalize(join(rendererDir, rel));
    if (!file.startsWith(rendererDir + sep)) {
      res.writeHead(403).end();
      return;
    }
    const target = existsSync(file) && statSync(file).isFile() ? file : join(rendererDir, 'index.html');
    if (!existsSync(target)) {
      res.writeHead(503, { 'content-type': 'text/plain; charset=utf-8' });
      res.end('The renderer has not been built. Run `npm run build:renderer` (npm run serve does it for you).');
      return;
    }
    const type = MIME[extname(target)] ?? 'application/octet-stream';
    const st = statSync(target);
    const body = st.size <= STATIC_CACHE_MAX_FILE ? cachedFile(target, st) : null;
    const headers: Record<string, string | number> = {
      'content-type': type,
      'content-length': body ? body.length : st.size,
      'x-content-type-options': 'nosniff',
      'cache-control': target.endsWith('index.html') ? 'no-store' : 'public, max-age=31536000, immutable',
    };
    if (type.startsWith('text/html')) {
      headers['content-security-policy'] = CONTENT_SECURITY_POLICY;
      headers['referrer-policy'] = 'no-referrer';
      headers['x-frame-options'] = 'DENY';
    }
    res.writeHead(200, headers);
    if (target === indexFile && body && !pageFiles)
      pageFiles = new Set([...body.toString('utf8').matchAll(/(?:src|href)="\.(\/assets\/[^"?#]+)"/g)].map((m) => m[1] as string));
    else if (pageFiles?.has(rel)) pageFileSending(rel, res);
    if (req.method === 'HEAD') res.end();
    else if (body) res.end(body);
    else pipeline(createReadStream(target), res).catch(() => res.destroy());
  }

  /**
   * The files index.html names (its scripts, their preloads, its styles): once the last of them has
   * gone out (the browser then runs them), the services start, so that loading them (which holds
   * the event loop) neither delays those files nor waits for the page to ask for the bridge.
   */
  const indexFile = join(rendererDir, 'index.html');
  let pageFiles: Set<string> | null = null;
  function pageFileSending(rel: string, res: ServerResponse): void {
    res.once('close', () => {
      pageFiles?.delete(rel);
      if (pageFiles?.size === 0) void startServices();
    });
  }

  /**
   * The renderer's files are kept in memory once read (a change of size or time reads them again):
   * an answer is then one write in one turn of the event loop, which counts while the services
   * load beside it at start (issue 29), instead of an open, reads and a close over several turns.
   */
  const staticCache = new Map<string, { mtimeMs: number; size: number; body: Buffer }>();
  function cachedFile(file: string, st: { mtimeMs: number; size: number }): Buffer {
    const hit = staticCache.get(file);
    if (hit && hit.mtimeMs === st.mtimeMs && hit.size === st.size) return hit.body;
    const body = readFileSync(file);
    staticCache.set(file, { mtimeMs: st.mtimeMs, size: st.size, body });
    return body;
  }

  const sockets = new Set<WebSocket>();

  await new Promise<void>((resolveListen, reject) => {
    server.once('error', reject);
    server.listen(opts.port, host, () => resolveListen());
  });
  let up: Promise<boolean> | null = null;
  /** Starts the services once (later calls answer the same promise): whether they are up (false for good when they failed to start: the caller of startHostServer hears why). */
  function startServices(): Promise<boolean> {
    up ??= servicesReady().then(
      () => services !== null,
      () => false,
    );
    return up;
  }
  const servicesReady = () =>
    Promise.all([typeof options.core === 'function' ? options.core() : options.core, import('ws'), import('../../shared/bridge-request')]).then(
      ([core, ws, bridgeRequest]) => {
        if (shutDown) return;
        services = core;
        decodeBridgeRequest = bridgeRequest.decodeBridgeRequest;
        core.setMediaUrl((id, redacted) => `/media/${id}?token=${encodeURIComponent(opts.token)}${redacted ? '&redacted=1' : ''}`);
        wss = new ws.WebSocketServer({ noServer: true, maxPayload: BRIDGE_MAX_PAYLOAD });
        wss.on('error', (err) => console.error('host: bridge server error', err));
        unsubscribe = core.router.subscribe((event, payload) => {
          const frame = JSON.stringify({ event, payload } satisfies BridgeResponse);
          for (const s of sockets) if (s.readyState === s.OPEN) s.send(frame);
        });
      },
    );
  // Services given (or promised) rather than loaded on demand: nothing to wait for.
  if (typeof options.core !== 'function') void startServices();
  const port = (server.address() as AddressInfo).port;
  const origin = `http://${host}:${port}`;

  server.on('upgrade', (req, socket, head) => {
    // The socket is ours from here: an error on it (a reset mid-handshake) must not reach the process.
    socket.on('error', () => socket.destroy());
    const reject = (status: number, text: string) => {
      socket.end(`HTTP/1.1 ${status} ${text}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
    };
    if (!isLoopbackHost(req.headers.host)) return reject(421, 'Misdirected Request');
    const url = parseTarget(req.url);
    if (!url) return reject(400, 'Bad Request');
    if (url.pathname !== '/bridge') return reject(404, 'Not Found');
    if (!tokenMatches(opts.token, url.searchParams.get('token'))) return reject(401, 'Unauthorized');
    const reqOrigin = req.headers.origin;
    if (reqOrigin !== undefined && reqOrigin !== origin && reqOrigin !== `http://localhost:${port}` && reqOrigin !== `http://[::1]:${port}`)
      return reject(403, 'Forbidden');
    // Before the services are up the handshake waits (the page's bridge queues its calls meanwhile).
    void startServices().then((ok) => (ok && wss ? wss.handleUpgrade(req, socket, head, (ws) => attach(ws)) : reject(503, 'Service Unavailable')));
  });

  function attach(ws: WebSocket): void {
    // First thing: ws reports oversized or malformed frames as 'error' (then closes
    // with 1009/1002); with no listener that error would end host mode.
    ws.on('error', () => ws.terminate());
    sockets.add(ws);
    ws.on('close', () => sockets.delete(ws));
    ws.on('message', (data, isBinary) => {
      // Binary messages are live captions' audio frames (ipc.ts binaryMessages); the service checks and never throws.
      if (isBinary) return opts.core.captions.frame(toBytes(data));
      onMessage(ws, toBytes(data)).catch((err: unknown) => {
        console.error('host: bridge message failed', err);
        if (ws.readyState === ws.OPEN) ws.close(1011, 'Internal error');
      });
    });
  }

  async function onMessage(ws: WebSocket, bytes: Uint8Array): Promise<void> {
    const req =
      bytes.byteLength >= BRIDGE_OFF_THREAD_BYTES
        ? await opts.core.library.offload.decodeRequest(bytes)
        : decodeBridgeRequest(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8'));
    if (!req.ok) {
      ws.close(1003, req.reason);
      return;
    }
    const { id, channel, input, check } = req;
    const reply = await opts.core.router.dispatch(channel, input, { sender: { kind: 'host', tokenValid: true }, jsonText: true }, check ?? undefined);
    if (ws.readyState !== ws.OPEN) return;
    if (reply.ok && reply.output instanceof CheckedJson) {
      // JSON the worker made and checked, sent as it is: one text message in three frames, sent in one turn so nothing comes between them.
      ws.send(`{"id":${id},"output":`, { binary: false, fin: false });
      ws.send(reply.output.bytes, { binary: false, fin: false });
      ws.send('}', { binary: false, fin: true });
      return;
    }
    const frame: BridgeResponse = reply.ok ? { id, output: reply.output } : { id, error: reply.error };
    ws.send(JSON.stringify(frame));
  }

  return {
    url: `${origin}/?token=${opts.token}`,
    port,
    server,
    startServices,
    addTokenRoute(prefix, route) {
      tokenRoutes.set(prefix, route);
    },
    async close() {
      shutDown = true;
      unsubscribe();
      for (const ws of sockets) ws.close(1001, 'Verbatim is shutting down');
      wss?.close();
      const closed = new Promise<void>((r) => server.close(() => r()));
      server.closeAllConnections();
      await closed;
    },
  };
}

function toBytes(data: Buffer | ArrayBuffer | Buffer[]): Uint8Array {
  if (Array.isArray(data)) return Buffer.concat(data);
  return data instanceof ArrayBuffer ? new Uint8Array(data) : data;
}

function bearer(req: IncomingMessage): string | undefined {
  const h = req.headers.authorization;
  return h?.startsWith('Bearer ') ? h.slice(7) : undefined;
}
