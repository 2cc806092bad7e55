/**
 * Fetching `audio_url` (issue 12.8): the address policy of a network-facing
 * engine (loopback, private and link-local targets refused after DNS
 * resolution and on every redirect hop, whatever their spelling), and the
 * limits that keep a slow source from holding a worker, with error texts
 * that carry no socket details. Real HTTP servers on loopback.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { download, DownloadError, type DownloadLimits } from '../../src/engine/audio/download';
import { isLoopbackListen, isPrivateAddress } from '../../src/engine/audio/fetch-guard';
import { startEngine, type RunningEngine } from '../../src/engine/server';
import { makeTone } from '../fixtures/speech';

let dir: string;
const servers: Server[] = [];
let hits = 0;
let tone: Buffer;

async function serve(handler: (req: IncomingMessage, res: ServerResponse) => void, host = '127.0.0.1'): Promise<string> {
  const s = createServer((req, res) => {
    hits++;
    handler(req, res);
  });
  servers.push(s);
  await new Promise<void>((r) => s.listen(0, host, r));
  return `http://${host}:${(s.address() as AddressInfo).port}`;
}

const LIMITS: DownloadLimits = {
  maxBytes: 10 * 1024 * 1024,
  idleTimeoutMs: 5000,
  deadlineMs: 20_000,
  minBytesPerSecond: 1024,
  rateWindowMs: 600,
  maxRedirects: 5,
  allowPrivate: false,
};

async function failure(url: string, limits: Partial<DownloadLimits> = {}): Promise<DownloadError> {
  const err = await download(url, join(dir, 'out.bin'), { ...LIMITS, ...limits }).then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(DownloadError);
  return err as DownloadError;
}

let audio: string;
let port: number;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'engine-audio-url-'));
  tone = readFileSync(makeTone(dir, 'tone', 1));
  audio = await serve((_req, res) => res.writeHead(200, { 'content-type': 'audio/wav' }).end(tone));
  port = Number(new URL(audio).port);
});

afterAll(async () => {
  for (const s of servers) {
    s.closeAllConnections();
    await new Promise((r) => s.close(r));
  }
  rmSync(dir, { recursive: true, force: true });
});

describe('the address policy', () => {
  it('counts loopback, private, link-local, CGNAT, multicast and unspecified addresses as private, in IPv4 and IPv6 forms', () => {
    for (const ip of [
      '127.0.0.1',
      '127.8.9.10',
      '10.0.0.3',
      '172.16.0.1',
      '172.31.255.255',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '224.0.0.1',
      '255.255.255.255',
      '::1',
      '[::1]',
      '::',
      'fe80::1',
      'fc00::1',
      'fd12:3456::1',
      'ff02::1',
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
      '::ffff:10.0.0.3',
      '::127.0.0.1',
    ])
      expect(isPrivateAddress(ip), ip).toBe(true);
    for (const ip of ['8.8.8.8', '93.184.216.34', '172.32.0.1', '192.169.0.1', '2001:4860:4860::8888', '::ffff:8.8.8.8'])
      expect(isPrivateAddress(ip), ip).toBe(false);
  });

  it('knows which listening addresses are loopback', () => {
    for (const h of ['127.0.0.1', 'localhost', '::1', '[::1]', '127.0.0.2']) expect(isLoopbackListen(h), h).toBe(true);
    for (const h of ['0.0.0.0', '::', '192.168.1.10', 'example.com']) expect(isLoopbackListen(h), h).toBe(false);
  });

  it('refuses loopback targets in every spelling, before connecting', async () => {
    hits = 0;
    for (const url of [
      `${audio}/a.wav`,
      `http://0x7f000001:${port}/a.wav`,
      `http://2130706433:${port}/a.wav`,
      `http://0177.0.0.1:${port}/a.wav`,
      `http://127.1:${port}/a.wav`,
      `http://[::ffff:127.0.0.1]:${port}/a.wav`,
      `http://[::1]:${port}/a.wav`,
      `http://localhost:${port}/a.wav`,
    ]) {
      const err = await failure(url);
      expect(err.kind, url).toBe('blocked');
      expect(err.message).toMatch(/--allow-private-urls/);
    }
    expect(hits).toBe(0);
  });

  it('checks every redirect hop: by literal address and by DNS name', async () => {
    // One loopback address plays "the public internet" and the other "the private network": the policy is narrowed to block only the latter.
    const target = await serve((_req, res) => res.writeHead(200, { 'content-type': 'audio/wav' }).end(tone), '127.0.0.2');
    const literalHop = await serve((_req, res) => res.writeHead(302, { location: `${target}/x.wav` }).end());
    expect(await download(`${target}/x.wav`, join(dir, 'direct.wav'), { ...LIMITS, allowPrivate: true })).toBe(tone.length);
    hits = 0;
    expect((await failure(`${literalHop}/a`, { blockedAddress: (ip) => ip === '127.0.0.2' })).kind).toBe('blocked');
    // A hop on 127.0.0.2 sends us to `localhost`, which resolves to the blocked 127.0.0.1 (and ::1).
    const namedHop = await serve((_req, res) => res.writeHead(307, { location: `http://localhost:${port}/a.wav` }).end(), '127.0.0.2');
    expect((await failure(`${namedHop}/a`, { blockedAddress: (ip) => ip === '127.0.0.1' || ip === '::1' })).kind).toBe('blocked');
    expect(hits).toBe(2); // the two hops only; neither target was reached
  });

  it('refuses a redirect to file:// and a redirect loop', async () => {
    const toFile = await serve((_req, res) => res.writeHead(301, { location: 'file:///etc/passwd' }).end());
    expect((await failure(`${toFile}/a`, { allowPrivate: true })).message).toMatch(/not http\(s\)/);
    const loop = await serve((req, res) => res.writeHead(302, { location: '/again' }).end());
    expect((await failure(`${loop}/a`, { allowPrivate: true })).message).toMatch(/redirects more than 5 times/);
  });

  it('fetches loopback targets when allowed (the app’s engine on 127.0.0.1)', async () => {
    expect(await download(`http://localhost:${port}/a.wav`, join(dir, 'ok.wav'), { ...LIMITS, allowPrivate: true })).toBe(tone.length);
  });
});

describe('the download limits', () => {
  it('fails a source that drips one byte at a time within one rate window, not after minutes', async () => {
    const drip = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'audio/wav', 'content-length': 100_000 });
      const t = setInterval(() => res.write('x'), 200);
      res.on('close', () => clearInterval(t));
    });
    const err = await failure(`${drip}/slow.wav`, { allowPrivate: true });
    // The rate window's own message: not the idle timeout's ("sent nothing") nor the 20 s deadline's ("did not finish").
    expect(err.message).toMatch(/less than 1 KB\/s over/);
    expect(err.message).not.toMatch(/did not finish|sent nothing/);
  });

  it('fails a download that outlasts the overall deadline even at a good rate', async () => {
    const steady = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'audio/wav' });
      const t = setInterval(() => res.write(Buffer.alloc(4096)), 50);
      res.on('close', () => clearInterval(t));
    });
    const err = await failure(`${steady}/long.wav`, { allowPrivate: true, deadlineMs: 800 });
    expect(err.message).toMatch(/did not finish within 1 s/);
  });

  it('fails a server that answers nothing after the idle timeout', async () => {
    const silent = await serve(() => undefined);
    const err = await failure(`${silent}/a.wav`, { allowPrivate: true, idleTimeoutMs: 400 });
    expect(err.message).toMatch(/sent nothing for 0 s|sent nothing for/);
  });

  it('says what the user can do without socket details', async () => {
    const err = await failure('http://127.0.0.1:9/a.wav', { allowPrivate: true });
    expect(err.message).toBe('The server could not be reached. Check that the URL is correct and reachable from the engine.');
    expect(err.message).not.toMatch(/ECONN|127\.0\.0\.1|:9/);
  });
});

describe('an engine that listens on a network interface', () => {
  let engine: RunningEngine;
  const KEY = 'k-audio-url';
  beforeAll(async () => {
    // Bound to loopback as every test server is; allowPrivateUrls: false is what a --host 0.0.0.0 engine decides by itself.
    engine = await startEngine({ host: '127.0.0.1', port: 0, apiKey: KEY, dataDir: join(dir, 'engine'), workers: 1, quiet: true, allowPrivateUrls: false });
  });
  afterAll(() => engine.close());

  it('ends a job on a private audio_url with status error and a message naming the way out', async () => {
    hits = 0;
    const create = await fetch(`${engine.url}/v2/transcript`, {
      method: 'POST',
      headers: { authorization: KEY, 'content-type': 'application/json' },
      body: JSON.stringify({ audio_url: `http://0x7f000001:${port}/a.wav` }),
    });
    expect(create.status).toBe(200);
    const { id } = (await create.json()) as { id: string };
    let t: { status: string; error?: string };
    do {
      await new Promise((r) => setTimeout(r, 100));
      t = (await (await fetch(`${engine.url}/v2/transcript/${id}`, { headers: { authorization: KEY } })).json()) as typeof t;
    } while (t.status !== 'completed' && t.status !== 'error');
    expect(t.status).toBe('error');
    expect(t.error).toMatch(
      /^Download error, unable to download http:\/\/0x7f000001:\d+\/a\.wav\. It points at a loopback, private or link-local network address/,
    );
    expect(t.error).toMatch(/POST \/v2\/upload/);
    expect(hits).toBe(0);
  });
});
