/**
 * A local HTTP server for model downloads in tests: files served with Range,
 * and routes that misbehave on purpose (cut the body halfway, stall, answer
 * 404/500 or a web page, hold until released). Plus tar.bz2 archives made at
 * test time (tar-stream + the system's bzip2), including hostile ones.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pack } from 'tar-stream';

export type Behaviour = 'ok' | 'cut' | 'stall-once' | 'stall' | 'hold' | '404' | '500' | 'html' | 'ignore-range';

export interface ServedRequest {
  path: string;
  range: string | null;
}

export class ModelServer {
  readonly requests: ServedRequest[] = [];
  private readonly files = new Map<string, Buffer>();
  private readonly seen = new Map<string, number>();
  private server: Server | null = null;
  private readonly open = new Set<ServerResponse>();
  base = '';

  /** Serve `body` at `/<behaviour>/<name>`. */
  put(name: string, body: Buffer): void {
    this.files.set(name, body);
  }

  url(behaviour: Behaviour, name: string): string {
    return `${this.base}/${behaviour}/${name}`;
  }

  async start(): Promise<this> {
    this.server = createServer((req, res) => this.handle(req, res));
    await new Promise<void>((r) => this.server!.listen(0, '127.0.0.1', r));
    this.base = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  async stop(): Promise<void> {
    for (const res of this.open) res.destroy();
    this.server?.closeAllConnections();
    await new Promise<void>((r) => this.server?.close(() => r()) ?? r());
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const [, behaviour = '', name = ''] = (req.url ?? '').split('?')[0]!.split('/');
    const range = req.headers.range ?? null;
    this.requests.push({ path: `/${behaviour}/${name}`, range });
    const count = (this.seen.get(req.url!) ?? 0) + 1;
    this.seen.set(req.url!, count);
    const body = this.files.get(decodeURIComponent(name));
    if (behaviour === '404' || !body) return void res.writeHead(404).end('not found');
    if (behaviour === '500') return void res.writeHead(500).end('boom');
    if (behaviour === 'html') return void res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end('<!doctype html><title>Sign in</title>');
    const m = /^bytes=(\d+)-$/.exec(range ?? '');
    const from = m && behaviour !== 'ignore-range' ? Number(m[1]) : 0;
    if (from >= body.length && from > 0) return void res.writeHead(416, { 'content-range': `bytes */${body.length}` }).end();
    const half = Math.floor(body.length / 2);
    const headers: Record<string, string | number> = {
      'content-type': 'application/octet-stream',
      'accept-ranges': 'bytes',
      'content-length': body.length - from,
    };
    if (from > 0) res.writeHead(206, { ...headers, 'content-range': `bytes ${from}-${body.length - 1}/${body.length}` });
    else res.writeHead(200, headers);
    const misbehave = from === 0 && (behaviour === 'cut' || behaviour === 'hold' || (behaviour === 'stall-once' && count === 1) || behaviour === 'stall');
    if (behaviour === 'stall' && from > 0) {
      // A server that stalls every time: headers, then nothing.
      this.open.add(res);
      res.flushHeaders();
      res.on('close', () => this.open.delete(res));
      return;
    }
    if (!misbehave) return void res.end(body.subarray(from));
    this.open.add(res);
    res.on('close', () => this.open.delete(res));
    res.write(body.subarray(0, half), () => {
      if (behaviour === 'cut') res.destroy();
      // stall, stall-once, hold: keep the socket open and send nothing more.
    });
  }
}

export interface ArchiveMember {
  name: string;
  body?: Buffer;
  type?: 'file' | 'directory' | 'symlink' | 'link' | 'character-device' | 'fifo';
  linkname?: string;
}

/** A .tar.bz2 of these members (tar-stream writes the tar, the system's bzip2 compresses it). */
export async function tarBz2(members: ArchiveMember[]): Promise<Buffer> {
  const p = pack();
  const chunks: Buffer[] = [];
  const done = (async () => {
    for await (const c of p as AsyncIterable<Buffer>) chunks.push(c);
  })();
  for (const m of members) {
    const type = m.type ?? 'file';
    if (type === 'file') p.entry({ name: m.name, size: m.body?.length ?? 0 }, m.body ?? Buffer.alloc(0));
    else p.entry({ name: m.name, type, linkname: m.linkname, size: 0 });
  }
  p.finalize();
  await done;
  return execFileSync('bzip2', ['-c'], { input: Buffer.concat(chunks), maxBuffer: 1 << 30 });
}

/** The files of a zipformer transducer model, named as the test catalog names them, with incompressible bodies. */
export function modelMembers(top: string, bytesEach = 256 * 1024): ArchiveMember[] {
  return [
    { name: `${top}/`, type: 'directory' },
    ...['encoder.onnx', 'decoder.onnx', 'joiner.onnx', 'tokens.txt'].map((f) => ({ name: `${top}/${f}`, body: randomBytes(bytesEach) })),
    { name: `${top}/LICENSE`, body: Buffer.from('Apache-2.0\n') },
    { name: `${top}/test_wavs/0.wav`, body: randomBytes(1024) },
  ];
}
