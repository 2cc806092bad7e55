/**
 * A fault-injecting HTTP proxy for tests: forwards to a target, but answers
 * chosen requests with 429 / 5xx or drops their connection instead.
 */
import { createServer, request, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Fault = { status: 429 | 500 | 503 | 504; retryAfter?: number; body?: string } | { drop: true } | { dropAfterForward: true };

export interface FaultRule {
  method: string;
  /** Regex on the path. */
  path: RegExp;
  /** Faults to apply to the next matching requests, in order; then pass through. */
  faults: Fault[];
}

export interface FaultProxy {
  url: string;
  server: Server;
  rules: FaultRule[];
  seen: { method: string; path: string; status: number | 'dropped' }[];
  close(): Promise<void>;
}

export async function startFaultProxy(target: string, rules: FaultRule[] = []): Promise<FaultProxy> {
  const seen: FaultProxy['seen'] = [];
  const t = new URL(target);
  const server = createServer((req, res) => {
    const path = req.url ?? '/';
    const rule = rules.find((r) => r.method === req.method && r.path.test(path) && r.faults.length > 0);
    const fault = rule?.faults.shift();
    if (fault && 'drop' in fault) {
      seen.push({ method: req.method ?? '', path, status: 'dropped' });
      req.socket.destroy();
      return;
    }
    if (fault && 'status' in fault) {
      seen.push({ method: req.method ?? '', path, status: fault.status });
      req.resume();
      const headers: Record<string, string> = {};
      if (fault.retryAfter !== undefined) headers['retry-after'] = String(fault.retryAfter);
      res.writeHead(fault.status, headers).end(fault.body ?? (fault.status === 429 ? '{"error":"Too many requests"}' : ''));
      return;
    }
    const upstream = request({ host: t.hostname, port: t.port, method: req.method, path, headers: { ...req.headers, host: t.host } }, (up: IncomingMessage) => {
      seen.push({ method: req.method ?? '', path, status: fault ? 'dropped' : (up.statusCode ?? 0) });
      if (fault && 'dropAfterForward' in fault) {
        // The service did the work; the answer is lost on the way back.
        up.resume();
        up.on('end', () => req.socket.destroy());
        return;
      }
      res.writeHead(up.statusCode ?? 502, up.headers);
      up.pipe(res);
    });
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    server,
    rules,
    seen,
    async close() {
      const closed = new Promise<void>((r) => server.close(() => r()));
      server.closeAllConnections();
      await closed;
    },
  };
}
