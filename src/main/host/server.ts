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
 * with them). The parts: static.ts (the renderer's files), bridge.ts (the
 * WebSocket), token-routes.ts (the request checks and user-data routes) and
 * services.ts (starting the services); this module puts them on one server.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { HostBridge } from './bridge';
import { handleMedia, handleUpload } from './media';
import { ServiceStart, type CoreSource } from './services';
import { StaticFiles } from './static';
import { isLoopbackHost, parseTarget, TokenRoutes, type TokenRoute } from './token-routes';

export { BRIDGE_MAX_PAYLOAD } from './bridge';
export { isLoopbackHost, newToken, parseTarget, tokenMatches, type TokenRoute } from './token-routes';

export interface HostServerOptions {
  /**
   * The services, their promise, or a function that starts them. Until they are up the page is
   * served and bridge upgrades and token routes wait; if they fail, those get 503. A function is
   * called once: when the page's scripts have gone out (so that loading, which holds the event
   * loop, runs while the browser runs them, not while it waits for them), or when a bridge or token
   * request needs the services, or when `startServices()` is called.
   */
  core: CoreSource;
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

export async function startHostServer(opts: HostServerOptions): Promise<HostServer> {
  const host = opts.host ?? '127.0.0.1';
  let bridge: HostBridge | null = null;
  const services = new ServiceStart(opts.core, (up) => {
    up.core.setMediaUrl((id, redacted) => `/media/${id}?token=${encodeURIComponent(opts.token)}${redacted ? '&redacted=1' : ''}`);
    bridge?.start(up);
  });
  const startServices = () => services.start();
  const files = new StaticFiles(opts.rendererDir, () => void startServices());
  const routes = new TokenRoutes(opts.token, startServices);
  // services.core is read only once the services are up (TokenRoutes waits for them).
  routes.add('/upload', (req, res) => handleUpload(services.core, req, res));
  routes.add('/media/', (req, res, url) => handleMedia(services.core, req, res, url));

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
    if (await routes.handle(req, res, url)) return;
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD' }).end();
      return;
    }
    files.serve(url.pathname, req, res);
  }

  await new Promise<void>((resolveListen, reject) => {
    server.once('error', reject);
    server.listen(opts.port, host, () => resolveListen());
  });
  const port = (server.address() as AddressInfo).port;
  const origin = `http://${host}:${port}`;
  bridge = new HostBridge(opts.token, [origin, `http://localhost:${port}`, `http://[::1]:${port}`], startServices);
  server.on('upgrade', (req, socket, head) => bridge?.upgrade(req, socket, head));
  // Services given (or promised) rather than loaded on demand: nothing to wait for.
  if (!services.onDemand) void startServices();

  return {
    url: `${origin}/?token=${opts.token}`,
    port,
    server,
    startServices,
    addTokenRoute: (prefix, route) => routes.add(prefix, route),
    async close() {
      services.stop();
      bridge?.close();
      const closed = new Promise<void>((r) => server.close(() => r()));
      server.closeAllConnections();
      await closed;
    },
  };
}
