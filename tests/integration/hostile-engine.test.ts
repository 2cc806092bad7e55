/**
 * The hostile-input suite against the engine (issue 12): generated inputs
 * sent the way an attacker on this machine would, to a real engine process:
 * raw HTTP (methods × paths × auth, bad bodies, malformed headers and
 * request lines) and raw WebSocket frames on /v3/ws (before and after
 * auth, bad JSON, huge and unmasked frames, bad close codes). No input may
 * stop the process or earn a 5xx; at the end the engine answers /health and
 * its memory is within 100 MiB of where it started. Prints its figures.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { launchEngine, rawRequest, rssAtMostMiB, rssMiB, settledRssMiB, type Child } from './support/processes';
import { closeFrame, frame, wsRaw } from './support/ws-raw';

const KEY = 'k-hostile-engine';
let dir: string;
let engine: Child;
const figures = { inputs: 0, crashes: [] as string[], serverErrors: [] as string[], rssBefore: 0, rssAfter: 0, restarts: 0, phases: [] as number[] };

/** After each input: a /health-style probe tells at once whether this input stopped the process (then it is counted and restarted). */
async function relaunchIfDead(label: string): Promise<void> {
  const probe = await rawRequest(engine.port, `GET /health HTTP/1.1\r\nHost: 127.0.0.1:${engine.port}\r\nConnection: close\r\n\r\n`, 3000);
  if (probe.status !== 0 && engine.alive()) return;
  for (let i = 0; i < 40 && engine.alive(); i++) await new Promise((r) => setTimeout(r, 50));
  if (engine.alive()) return;
  figures.crashes.push(label);
  figures.restarts++;
  engine = await launchEngine(join(dir, 'data'), KEY);
}

/** One hostile HTTP input: raw bytes in, its status counted. */
async function http(label: string, bytes: string | Buffer): Promise<number> {
  figures.inputs++;
  const r = await rawRequest(engine.port, bytes, 1500);
  if (r.status >= 500) figures.serverErrors.push(`${label} → ${r.status}`);
  await relaunchIfDead(label);
  return r.status;
}

/** One hostile WebSocket input. */
async function ws(
  label: string,
  path: string,
  headers: Record<string, string>,
  frames: Buffer[],
  opts: { sameWrite?: boolean; ms?: number; sentClose?: number } = {},
) {
  figures.inputs++;
  const r = await wsRaw(engine.port, path, headers, frames, { ms: 1000, ...opts });
  if (r.status >= 500) figures.serverErrors.push(`${label} → HTTP ${r.status}`);
  // 1011 and 3005 are server errors, unless the server is only echoing the code the client closed with.
  if ((r.closeCode === 1011 || r.closeCode === 3005) && r.closeCode !== opts.sentClose) figures.serverErrors.push(`${label} → close ${r.closeCode}`);
  await relaunchIfDead(label);
  return r;
}

const req = (method: string, path: string, headers: string[] = [], body = '') =>
  [`${method} ${path} HTTP/1.1`, 'Host: 127.0.0.1', 'Connection: close', ...headers, `Content-Length: ${Buffer.byteLength(body)}`, '', body].join('\r\n');

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'hostile-engine-'));
  engine = await launchEngine(join(dir, 'data'), KEY);
  // Warm what the inputs will use (a streaming session's decoder, the REST routes) so the figure compares like with like.
  await wsRaw(
    engine.port,
    '/v3/ws?sample_rate=16000',
    { Authorization: KEY },
    [...Array.from({ length: 20 }, () => frame(0x2, Buffer.alloc(1600))), frame(0x1, '{"type":"Terminate"}')],
    { ms: 5000, sameWrite: false },
  );
  const base = `http://127.0.0.1:${engine.port}`;
  const post = (path: string, body: unknown) =>
    fetch(`${base}${path}`, { method: 'POST', headers: { authorization: KEY, 'content-type': 'application/json' }, body: JSON.stringify(body) }).then((r) =>
      r.text(),
    );
  await fetch(`${base}/v2/transcript`, { headers: { authorization: KEY } }).then((r) => r.text());
  await post('/v2/transcript', { audio_url: 'http://warm-up.invalid/a.wav' });
  await post('/v1/chat/completions', {
    model: 'verbatim-extractive',
    messages: [{ role: 'user', content: 'One sentence here. Another one there. Which one is here?' }],
  });
  await post('/v1/understanding', { transcript_id: 'none' });
  figures.rssBefore = await settledRssMiB(engine.proc.pid as number);
});

afterEach(() => {
  if (engine.alive()) figures.phases.push(rssMiB(engine.proc.pid as number));
});

afterAll(async () => {
  await engine?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('the engine under hostile input', () => {
  it('REST: every method × path × auth answers a status below 500', async () => {
    const methods = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD', 'FOO'];
    const paths = [
      '/',
      '/health',
      '/v2/upload',
      '/v2/transcript',
      '/v2/transcript/nope',
      '/v2/transcript/..%2f..%2fengine.db',
      '/v2/files/..%2f..%2fengine.db',
      '/v2/files/%00',
      '/v3/token?expires_in_seconds=abc',
      '/v1/chat/completions',
      '/v1/understanding',
      '/v1/models',
      '/%E0',
      '/v2/transcript/x/srt?chars_per_caption=-1',
    ];
    for (const m of methods)
      for (const p of paths) for (const auth of [[], [`Authorization: ${KEY}`]]) await http(`${m} ${p}${auth.length ? ' (key)' : ''}`, req(m, p, auth));
  });

  it('REST: bad bodies on every JSON endpoint answer 4xx', async () => {
    const bodies = [
      '',
      '{',
      'null',
      '[]',
      '"x"',
      '1e999',
      '{"audio_url":1}',
      '{"audio_url":"javascript:alert(1)"}',
      '{"audio_url":"http://[::1"}',
      '{"audio_url":"http://x.invalid/a","audio_end_at":0}',
      '{"audio_url":"http://x.invalid/a","audio_start_from":1e300}',
      '{"__proto__":{"polluted":1},"audio_url":"http://x.invalid/a"}',
      '{"audio_url":"file:///etc/passwd"}',
      '{"audio_url":"http://x.invalid/a","speech_models":["nope"]}',
      '['.repeat(50_000),
      `{"model":"verbatim-extractive","messages":[{"role":"user","content":"${'é'.repeat(1000)}"}],"transcript_ids":[{"$gt":""}]}`,
      '{"model":"verbatim-extractive","messages":"x"}',
      '\u0000\u0001\u0002',
    ];
    for (const path of ['/v2/transcript', '/v1/chat/completions', '/v1/understanding']) {
      for (const [i, b] of bodies.entries()) {
        const status = await http(`POST ${path} body #${i}`, req('POST', path, [`Authorization: ${KEY}`, 'Content-Type: application/json'], b));
        expect(status, `POST ${path} body #${i}`).toBeGreaterThanOrEqual(200);
      }
    }
    // Invalid UTF-8 and a body that claims more than it sends.
    await http(
      'invalid UTF-8 JSON',
      Buffer.concat([
        Buffer.from(req('POST', '/v2/transcript', [`Authorization: ${KEY}`], '').replace('Content-Length: 0', 'Content-Length: 4')),
        Buffer.from([0xc3, 0x28, 0xff, 0xfe]),
      ]),
    );
  });

  it('REST: malformed headers and request lines never stop the engine', async () => {
    const inputs: [string, string | Buffer][] = [
      ['GET //a:b/', 'GET //a:b/ HTTP/1.1\r\nHost: x\r\n\r\n'],
      ['GET http://[', 'GET http://[ HTTP/1.1\r\nHost: x\r\n\r\n'],
      [
        'upgrade //a:b/v3/ws',
        'GET //a:b/v3/ws HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n',
      ],
      ['absolute-form', 'GET http://127.0.0.1/health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'],
      ['asterisk', 'OPTIONS * HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'],
      ['HTTP/9.9', 'GET / HTTP/9.9\r\nHost: x\r\n\r\n'],
      ['garbage line', 'GARBAGE\r\n\r\n'],
      ['binary junk', Buffer.from([0, 1, 2, 3, 255, 254, 13, 10, 13, 10])],
      ['100 KB path', `GET /${'a'.repeat(100_000)} HTTP/1.1\r\nHost: x\r\n\r\n`],
      ['40 KB header', `GET /health HTTP/1.1\r\nHost: x\r\nX-Big: ${'b'.repeat(40_000)}\r\n\r\n`],
      ['duplicate Content-Length', `POST /v2/transcript HTTP/1.1\r\nHost: x\r\nAuthorization: ${KEY}\r\nContent-Length: 2\r\nContent-Length: 5\r\n\r\n{}`],
      ['CL and TE', `POST /v2/transcript HTTP/1.1\r\nHost: x\r\nAuthorization: ${KEY}\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n`],
      ['bad chunk size', `POST /v2/transcript HTTP/1.1\r\nHost: x\r\nAuthorization: ${KEY}\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n`],
      ['negative Content-Length', `POST /v2/upload HTTP/1.1\r\nHost: x\r\nAuthorization: ${KEY}\r\nContent-Length: -5\r\n\r\n`],
      ['Content-Length not a number', `POST /v2/upload HTTP/1.1\r\nHost: x\r\nAuthorization: ${KEY}\r\nContent-Length: abc\r\n\r\n`],
      ['NUL in header', `GET /health HTTP/1.1\r\nHost: x\r\nX-A: a\u0000b\r\n\r\n`],
      ['64 KB Authorization', `GET /v2/transcript HTTP/1.1\r\nHost: x\r\nAuthorization: ${'k'.repeat(15_000)}\r\nConnection: close\r\n\r\n`],
      ['Authorization with Bearer and key', `GET /v2/transcript HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${KEY}x\r\nConnection: close\r\n\r\n`],
      ['upload declared 1 TB', `POST /v2/upload HTTP/1.1\r\nHost: x\r\nAuthorization: ${KEY}\r\nContent-Length: 1099511627776\r\n\r\nabc`],
      ['100 pipelined requests', 'GET /health HTTP/1.1\r\nHost: x\r\n\r\n'.repeat(100)],
      ['smuggled second request', `POST /health HTTP/1.1\r\nHost: x\r\nContent-Length: 44\r\n\r\nGET /v2/transcript HTTP/1.1\r\nHost: x\r\n\r\n`],
    ];
    for (const [label, bytes] of inputs) await http(label, bytes);
  });

  it('streaming: raw frames before and after auth, bad JSON, huge and unmasked frames, bad close codes', async () => {
    const auth = { Authorization: KEY };
    const ok = '/v3/ws?sample_rate=16000';
    const pcm = (ms: number) => frame(0x2, Buffer.alloc(32 * ms));
    const end = [frame(0x1, '{"type":"Terminate"}'), closeFrame(1000)];
    // Refused connections (no key, bogus token, bad parameters) with frames already on the wire.
    await ws('no key + unmasked frame in the same write', ok, {}, [frame(0x1, 'hello', { mask: false })]);
    await ws('bogus token + 600 KB frame', `${ok}&token=bogus`, {}, [frame(0x2, Buffer.alloc(600 * 1024))]);
    await ws('no key + 600 KB frame', ok, {}, [frame(0x2, Buffer.alloc(600 * 1024))]);
    await ws('sample_rate é×60', `/v3/ws?sample_rate=${encodeURIComponent('é'.repeat(60))}`, auth, [pcm(50)]);
    for (const q of [
      'sample_rate=-1',
      'sample_rate=abc',
      'sample_rate=16000&encoding=bogus',
      'sample_rate=16000&token=',
      'sample_rate=1e9',
      '%E0=1',
      'sample_rate=16000&keyterms_prompt=%5B',
      'sample_rate=16000&format_turns=maybe',
    ])
      await ws(`params ${q}`, `/v3/ws?${q}`, auth, [pcm(50), ...end]);
    // In a session.
    const inSession: [string, Buffer[]][] = [
      ['bad JSON', [frame(0x1, '{not json')]],
      ['type é×80', [frame(0x1, JSON.stringify({ type: 'é'.repeat(80) }))]],
      ['unknown type', [frame(0x1, '{"type":"Explode"}')]],
      ['UpdateConfiguration junk', [frame(0x1, '{"type":"UpdateConfiguration","end_of_turn_confidence_threshold":"x"}')]],
      ['600 KB text frame', [frame(0x1, 'x'.repeat(600 * 1024))]],
      ['1-byte binary', [frame(0x2, Buffer.alloc(1))]],
      ['3-byte binary', [frame(0x2, Buffer.alloc(3))]],
      ['10 ms frame', [pcm(10)]],
      ['2 s frame', [pcm(2000)]],
      ['faster than real time', Array.from({ length: 80 }, () => pcm(100))],
      ['unmasked frame', [frame(0x2, Buffer.alloc(1600), { mask: false })]],
      ['reserved opcode 0x3', [frame(0x3, 'x')]],
      ['RSV bits set', [frame(0x1, '{}', { rsv: 7 })]],
      ['continuation without start', [frame(0x0, 'x')]],
      ['fragmented ping', [frame(0x9, 'x', { fin: false })]],
      ['ping 200 bytes', [frame(0x9, Buffer.alloc(200))]],
      ['invalid UTF-8 text', [frame(0x1, Buffer.from([0xc3, 0x28]))]],
      ['close 200-byte reason', [closeFrame(1000, 'r'.repeat(200))]],
      ['close with 1 byte', [frame(0x8, Buffer.from([3]))]],
    ];
    for (const [label, frames] of inSession) await ws(`session: ${label}`, ok, auth, [pcm(50), ...frames, ...end], { sameWrite: false });
    for (const code of [0, 999, 1004, 1005, 1006, 1015, 2999, 3005, 4999, 5000, 65535])
      await ws(`session: close ${code}`, ok, auth, [pcm(50), closeFrame(code)], { sameWrite: false, sentClose: code });
  });

  it('ends alive, with no crash, no 5xx and memory within 100 MiB of the start', async () => {
    const health = await fetch(`http://127.0.0.1:${engine.port}/health`);
    expect(health.status).toBe(200);
    // Sampled until it is back within the bound (buffers freed), for at most 30 s.
    figures.rssAfter = await rssAtMostMiB(engine.proc.pid as number, figures.rssBefore + 99);
    console.log(
      [
        `hostile-engine: ${figures.inputs} inputs, ${figures.crashes.length} crashes, ${figures.serverErrors.length} 5xx`,
        `  memory: ${figures.rssBefore.toFixed(1)} MiB before, ${figures.phases.map((m) => m.toFixed(0)).join(' → ')} after each part, ${figures.rssAfter.toFixed(1)} MiB after${figures.restarts ? ` (after ${figures.restarts} restart(s): not comparable)` : ''}`,
        ...figures.crashes.map((c) => `  crash: ${c}`),
        ...figures.serverErrors.map((c) => `  5xx: ${c}`),
      ].join('\n'),
    );
    expect(figures.inputs).toBeGreaterThanOrEqual(200);
    expect(figures.crashes).toEqual([]);
    expect(figures.serverErrors).toEqual([]);
    expect(figures.rssAfter - figures.rssBefore).toBeLessThan(100);
  });
});
