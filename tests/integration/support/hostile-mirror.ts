/**
 * A model mirror that answers badly on purpose, over real HTTP: a 206 that
 * restarts at byte 0, a Content-Range that never matches, a chunked body
 * that never ends, a drip of one byte at a time, redirects into the local
 * network, a hold after the headers. It also acts as a forward proxy (a
 * request line with an absolute URL), so a test can give a mirror a public
 * name. Every request is recorded, and a test can wait for the next one.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Route =
  | 'ok'
  | 'cut-then-restart206' // first answer cut halfway; a Range then gets a 206 from byte 0
  | 'wrong-range' // first answer cut halfway; every later answer is a 206 that starts at the wrong byte
  | 'endless' // 200, chunked, no length, bytes forever
  | 'drip' // 200, the file's length, one byte every `dripMs`
  | 'hold' // the headers (200 or 206), then nothing until the socket closes
  | 'redirect-inside' // 302 to http://127.0.0.1:<this port>/secret/<name>
  | 'redirect-local' // 302 to /ok/<name> on this same host
  | 'secret' // the "internal service" a redirect must not reach
  | '404';

export interface Seen {
  route: string;
  name: string;
  host: string;
  range: string | null;
}

export class HostileMirror {
  readonly requests: Seen[] = [];
  private readonly files = new Map<string, Buffer>();
  /** Files whose bytes are all zero and never held in memory (for big partial-file tests). */
  private readonly zeros = new Map<string, number>();
  private readonly counts = new Map<string, number>();
  private readonly open = new Set<ServerResponse>();
  private readonly waiters: ((s: Seen) => void)[] = [];
  private server: Server | null = null;
  dripMs = 50;
  base = '';
  port = 0;

  put(name: string, body: Buffer): void {
    this.files.set(name, body);
  }

  putZeros(name: string, size: number): void {
    this.zeros.set(name, size);
  }

  url(route: Route, name: string, base = this.base): string {
    return `${base}/${route}/${name}`;
  }

  /** Resolves with the next request that arrives. */
  next(): Promise<Seen> {
    return new Promise((r) => this.waiters.push(r));
  }

  hits(route: Route): number {
    return this.requests.filter((r) => r.route === route).length;
  }

  async start(): Promise<this> {
    this.server = createServer((req, res) => this.handle(req, res));
    await new Promise<void>((r) => this.server!.listen(0, '127.0.0.1', r));
    this.port = (this.server.address() as AddressInfo).port;
    this.base = `http://127.0.0.1:${this.port}`;
    return this;
  }

  async stop(): Promise<void> {
    for (const res of this.open) res.destroy();
    this.server?.closeAllConnections();
    await new Promise<void>((r) => this.server?.close(() => r()) ?? r());
  }

  private keep(res: ServerResponse): void {
    this.open.add(res);
    res.on('close', () => this.open.delete(res));
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    // As a proxy the request line holds the whole URL; as a server, the path.
    const target = new URL(req.url ?? '/', `http://${req.headers.host ?? 'x'}`);
    const [, route = '', name = ''] = target.pathname.split('/');
    const seen: Seen = { route, name: decodeURIComponent(name), host: target.host, range: req.headers.range ?? null };
    this.requests.push(seen);
    const count = (this.counts.get(`${route}/${name}`) ?? 0) + 1;
    this.counts.set(`${route}/${name}`, count);
    for (const w of this.waiters.splice(0)) w(seen);
    const zeroSize = this.zeros.get(seen.name);
    const body = this.files.get(seen.name) ?? (zeroSize !== undefined ? null : undefined);
    if (route === 'secret') return void res.writeHead(200, { 'content-type': 'application/octet-stream' }).end('BZh-internal-secret');
    if (route === 'redirect-inside') return void res.writeHead(302, { location: `http://127.0.0.1:${this.port}/secret/${name}` }).end();
    if (route === 'redirect-local') return void res.writeHead(302, { location: `/ok/${name}` }).end();
    if (body === undefined) return void res.writeHead(404).end('not found');
    const size = body?.length ?? zeroSize!;
    const m = /^bytes=(\d+)-$/.exec(seen.range ?? '');
    const from = m ? Number(m[1]) : 0;
    const type = { 'content-type': 'application/octet-stream' };
    const slice = (a: number, b = size) => (body ? body.subarray(a, b) : Buffer.alloc(b - a));
    switch (route) {
      case 'ok': {
        if (from >= size && from > 0) return void res.writeHead(416, { 'content-range': `bytes */${size}` }).end();
        if (from > 0) res.writeHead(206, { ...type, 'content-length': size - from, 'content-range': `bytes ${from}-${size - 1}/${size}` });
        else res.writeHead(200, { ...type, 'content-length': size });
        return void res.end(slice(from));
      }
      case 'cut-then-restart206':
      case 'wrong-range': {
        if (count === 1) {
          res.writeHead(200, { ...type, 'content-length': size });
          this.keep(res);
          return void res.write(slice(0, Math.floor(size / 2)), () => res.destroy());
        }
        if (route === 'cut-then-restart206' && !m) return void res.writeHead(200, { ...type, 'content-length': size }).end(slice(0));
        // A 206 from the wrong place: byte 0 for a resume, byte 5 for a fresh request.
        const start = m ? 0 : 5;
        res.writeHead(206, { ...type, 'content-length': size - start, 'content-range': `bytes ${start}-${size - 1}/${size}` });
        return void res.end(slice(start));
      }
      case 'endless': {
        res.writeHead(200, type);
        this.keep(res);
        const chunk = Buffer.alloc(64 * 1024, 7);
        const pump = () => {
          while (!res.destroyed) if (!res.write(chunk)) return void res.once('drain', pump);
        };
        res.write(slice(0, Math.min(size, 1024)));
        return pump();
      }
      case 'drip': {
        res.writeHead(200, { ...type, 'content-length': size });
        this.keep(res);
        let at = 0;
        const t = setInterval(() => {
          if (res.destroyed || at >= size) return clearInterval(t);
          res.write(slice(at, at + 1));
          at++;
        }, this.dripMs);
        res.on('close', () => clearInterval(t));
        return;
      }
      case 'hold': {
        if (from > 0) res.writeHead(206, { ...type, 'content-length': size - from, 'content-range': `bytes ${from}-${size - 1}/${size}` });
        else res.writeHead(200, { ...type, 'content-length': size });
        this.keep(res);
        return void res.flushHeaders();
      }
      default:
        return void res.writeHead(404).end('not found');
    }
  }
}
