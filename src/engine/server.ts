/**
 * The local engine's HTTP and WebSocket server: routes wiring only. Each
 * routes/ module registers its handlers on the Router below.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface EngineOptions {
  host: string;
  port: number;
  apiKey: string;
  dataDir: string;
}

export interface RunningEngine {
  url: string;
  port: number;
  server: Server;
  close(): Promise<void>;
}

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

export async function startEngine(opts: EngineOptions): Promise<RunningEngine> {
  const started = Date.now();
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (req.method === 'GET' && url.pathname === '/health') {
      sendJson(res, 200, { status: 'ok', uptime_ms: Date.now() - started });
      return;
    }
    sendJson(res, 404, { error: `No route for ${req.method ?? 'GET'} ${url.pathname}` });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://${opts.host}:${port}`,
    port,
    server,
    async close() {
      const closed = new Promise<void>((r) => server.close(() => r()));
      server.closeAllConnections();
      await closed;
    },
  };
}
