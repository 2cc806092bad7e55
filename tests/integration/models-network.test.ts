/**
 * The model downloader's network edge: a server whose certificate no one
 * trusts fails as a TLS error saying what to do; a download goes through the
 * environment's proxy (a real CONNECT-less HTTP proxy in the test), and
 * NO_PROXY keeps an address off it; the classification of socket errors;
 * which hosts a redirect may not lead to.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer as createHttpServer, request, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isPrivateAddress, isPrivateName, publicOnlyLookup } from '../../src/main/services/models/addresses';
import { download } from '../../src/main/services/models/download';
import { classifyNetworkError } from '../../src/main/services/models/errors';
import { Connection, proxyFor } from '../../src/main/services/models/net';
import { selfSignedCert } from '../support/tls';

let dir: string;
const servers: Server[] = [];
const body = Buffer.concat([Buffer.from('BZh'), Buffer.alloc(50_000, 3)]);
const listen = async (s: Server) => {
  servers.push(s);
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  return (s.address() as AddressInfo).port;
};
const serve: Parameters<typeof createHttpServer>[1] = (_req, res) => res.writeHead(200, { 'content-length': body.length }).end(body);

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'verbatim-models-net-'));
});
afterAll(async () => {
  for (const s of servers) {
    s.closeAllConnections();
    await new Promise((r) => s.close(r));
  }
  rmSync(dir, { recursive: true, force: true });
});

const get = (url: string, env: Record<string, string> = {}) =>
  download({
    url,
    part: join(dir, `${Math.random().toString(36).slice(2)}.part`),
    magic: Buffer.from('BZh'),
    connection: new Connection(env),
    signal: new AbortController().signal,
    onProgress: () => undefined,
    stallMs: 10_000,
    retryBaseMs: 10,
  });

describe('model downloads on the network', () => {
  it('an untrusted certificate is a TLS error that says what to try', async () => {
    const pem = selfSignedCert(dir);
    const port = await listen(createHttpsServer({ key: readFileSync(pem.key), cert: readFileSync(pem.cert) }, serve));
    await expect(get(`https://127.0.0.1:${port}/m.tar.bz2`)).rejects.toMatchObject({
      kind: 'tls',
      message: expect.stringMatching(/not trusted.*certificate store/),
    });
  });

  it('goes through HTTP_PROXY, and NO_PROXY keeps a host off it', async () => {
    const target = await listen(createHttpServer(serve));
    const seen: string[] = [];
    // A plain forwarding proxy: the request line carries the absolute URL.
    const proxy = await listen(
      createHttpServer((req, res) => {
        seen.push(req.url ?? '');
        const up = request(req.url!, { method: req.method, headers: req.headers }, (r) => {
          res.writeHead(r.statusCode ?? 502, r.headers);
          r.pipe(res);
        });
        up.on('error', () => res.writeHead(502).end());
        up.end();
      }),
    );
    const url = `http://127.0.0.1:${target}/m.tar.bz2`;
    const viaProxy = await get(url, { HTTP_PROXY: `http://127.0.0.1:${proxy}` });
    expect(viaProxy.bytes).toBe(body.length);
    expect(seen).toEqual([url]);
    await get(url, { HTTP_PROXY: `http://127.0.0.1:${proxy}`, NO_PROXY: '127.0.0.1' });
    expect(seen).toHaveLength(1);
  });

  it('NO_PROXY rules and error classes', () => {
    const env = { HTTPS_PROXY: 'http://proxy:3128', NO_PROXY: 'localhost,.corp.example' };
    expect(proxyFor('https://github.com/x', env)).toBe('http://proxy:3128');
    expect(proxyFor('https://files.corp.example/x', env)).toBeNull();
    expect(proxyFor('https://localhost/x', env)).toBeNull();
    expect(proxyFor('http://github.com/x', env)).toBeNull();
    const err = (code: string) => Object.assign(new Error(code), { code });
    expect(classifyNetworkError(err('ENOTFOUND'), 'https://github.com/x', false)).toMatchObject({ kind: 'dns', message: expect.stringMatching(/DNS/) });
    expect(classifyNetworkError(err('SELF_SIGNED_CERT_IN_CHAIN'), 'https://github.com/x', true).kind).toBe('tls');
    expect(classifyNetworkError(err('ECONNREFUSED'), 'https://github.com/x', true)).toMatchObject({
      kind: 'proxy',
      message: expect.stringMatching(/HTTPS_PROXY/),
    });
    expect(classifyNetworkError(err('ECONNREFUSED'), 'https://github.com/x', false).kind).toBe('network');
    expect(classifyNetworkError(err('ENOSPC'), 'https://github.com/x', false).kind).toBe('disk');
  });

  it('tells the local network from the internet, by address, by name and after DNS', async () => {
    for (const ip of [
      '127.0.0.1',
      '10.1.2.3',
      '172.20.0.1',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '::1',
      '::',
      'fe80::1',
      'fd00::1',
      '::ffff:127.0.0.1',
      '[::1]',
    ])
      expect(isPrivateAddress(ip), ip).toBe(true);
    for (const ip of ['1.1.1.1', '140.82.112.3', '2606:4700::1111', '::ffff:8.8.8.8']) expect(isPrivateAddress(ip), ip).toBe(false);
    for (const name of ['localhost', 'api.localhost', 'router', 'printer.local', 'metadata.google.internal', '127.0.0.1'])
      expect(isPrivateName(name), name).toBe(true);
    for (const name of ['github.com', 'objects.githubusercontent.com', 'huggingface.co']) expect(isPrivateName(name), name).toBe(false);
    // A name that resolves inside is refused once resolved, whatever it is called.
    const err = await new Promise<NodeJS.ErrnoException | null>((r) => publicOnlyLookup('localhost', {}, (e) => r(e)));
    expect(err?.code).toBe('ERR_PRIVATE_REDIRECT');
  });
});
