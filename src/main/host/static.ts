/**
 * Host mode's static files: the built renderer, answered from memory once read
 * (an answer is one write in one turn of the event loop, which counts while the
 * services load beside it at start, issue 29), with the page's security headers.
 * It also notes when the last file index.html names has gone out, so the
 * services can start while the browser runs the page, not while it waits for it.
 */
import { createReadStream, existsSync, readFileSync, statSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { CONTENT_SECURITY_POLICY } from '../../shared/csp';

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

/** Renderer files up to this size are answered from memory (the largest chunk is ~0.4 MB; source maps and models stream). */
const STATIC_CACHE_MAX_FILE = 1024 * 1024;

export class StaticFiles {
  private readonly dir: string;
  private readonly indexFile: string;
  /** The files index.html names (its scripts, their preloads, its styles), known once it is first sent. */
  private pageFiles: Set<string> | null = null;
  /** Kept once read; a change of size or time reads the file again. */
  private readonly cache = new Map<string, { mtimeMs: number; size: number; body: Buffer }>();

  /** `pageSent`: called once the last file index.html names has gone out (the browser then runs them). */
  constructor(
    rendererDir: string,
    private readonly pageSent: () => void,
  ) {
    this.dir = resolve(rendererDir);
    this.indexFile = join(this.dir, 'index.html');
  }

  /** A GET or HEAD of a renderer file; any other path is the page (the app routes by state, not by URL). */
  serve(pathname: string, req: IncomingMessage, res: ServerResponse): void {
    let rel: string;
    try {
      rel = decodeURIComponent(pathname);
    } catch {
      res.writeHead(400).end();
      return;
    }
    if (rel === '/' || rel === '') rel = '/index.html';
    const file = normalize(join(this.dir, rel));
    if (!file.startsWith(this.dir + sep)) {
      res.writeHead(403).end();
      return;
    }
    const target = existsSync(file) && statSync(file).isFile() ? file : this.indexFile;
    if (!existsSync(target)) {
      res.writeHead(503, { 'content-type': 'text/plain; charset=utf-8' });
      res.end('The renderer has not been built. Run `npm run build:renderer` (npm run serve does it for you).');
      return;
    }
    const type = MIME[extname(target)] ?? 'application/octet-stream';
    const st = statSync(target);
    const body = st.size <= STATIC_CACHE_MAX_FILE ? this.cached(target, st) : null;
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
    if (target === this.indexFile && body && !this.pageFiles)
      this.pageFiles = new Set([...body.toString('utf8').matchAll(/(?:src|href)="\.(\/assets\/[^"?#]+)"/g)].map((m) => m[1] as string));
    else if (this.pageFiles?.has(rel)) this.sending(rel, res);
    if (req.method === 'HEAD') res.end();
    else if (body) res.end(body);
    else pipeline(createReadStream(target), res).catch(() => res.destroy());
  }

  private sending(rel: string, res: ServerResponse): void {
    // Gone out once handed to the socket ('finish'), or once the answer ended otherwise ('close').
    const sent = () => {
      if (this.pageFiles?.delete(rel) && this.pageFiles.size === 0) this.pageSent();
    };
    res.once('finish', sent);
    res.once('close', sent);
  }

  private cached(file: string, st: { mtimeMs: number; size: number }): Buffer {
    const hit = this.cache.get(file);
    if (hit && hit.mtimeMs === st.mtimeMs && hit.size === st.size) return hit.body;
    const body = readFileSync(file);
    this.cache.set(file, { mtimeMs: st.mtimeMs, size: st.size, body });
    return body;
  }
}
