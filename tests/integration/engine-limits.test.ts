/**
 * The engine's boundaries found at hostile sizes (issue 47): remembered voices whose values cannot be stored
 * as they will be compared (1e308 squares to infinity; 1e-200 is stored as 0, and a print of zeros named every
 * speaker at threshold 0) are refused; POST /v2/voiceprints stops computing when its client goes away (it went
 * on for 90 s); `--drain-seconds` that is empty, not finite or past setTimeout's range is refused at start.
 */
import { execFile } from 'node:child_process';
import { existsSync, readdirSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEngine } from '../../src/engine/server';
import { installModel, tinyEmbedding, wavBytes } from '../fixtures/models/speakers';
import { engineSandbox } from '../support/engine';

const KEY = 'limits-key';
const sandbox = engineSandbox('verbatim-engine-limits-');
const tmp = join(sandbox.dir, 'tmp');
let engine: RunningEngine;
let savedTmp: string | undefined;

beforeAll(async () => {
  // The voiceprints route works in a temporary folder of its own: this file's, so the test can see it come and go.
  mkdirSync(tmp, { recursive: true });
  savedTmp = process.env.TMPDIR;
  process.env.TMPDIR = tmp;
  const models = join(sandbox.dir, 'models');
  installModel(models, 'tiny-embedding', 'embedding', tinyEmbedding());
  engine = await sandbox.start(KEY, { modelsDir: models });
});
afterAll(async () => {
  if (savedTmp === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = savedTmp;
  await sandbox.cleanup();
});

async function call(path: string, method: string, body: unknown, signal?: AbortSignal): Promise<{ status: number; body: Record<string, unknown> }> {
  const r = await fetch(`${engine.url}${path}`, {
    method,
    headers: { authorization: KEY, 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
    ...(signal ? { signal } : {}),
  });
  return { status: r.status, body: (await r.json()) as Record<string, unknown> };
}

describe('engine limits', () => {
  it('PUT /v2/voiceprints/known refuses huge, denormal and zero prints, and keeps what it held', async () => {
    const ok = { threshold: 0, voices: [{ name: 'Dana', model: 'tiny-embedding', vector: [0.8, 0.6] }] };
    expect((await call('/v2/voiceprints/known', 'PUT', ok)).status).toBe(200);
    const cases: [number[], RegExp][] = [
      [[1e308, 1], /voices\.0\.vector: value 0 \(1e\+308\) is out of range/],
      [[1e-200, 0], /voices\.0\.vector: value 0 \(1e-200\) is too small to store/],
      [[0, 0], /voices\.0\.vector: is all zeros/],
      [[-1e7, 0.5], /out of range/],
    ];
    for (const [vector, re] of cases) {
      const r = await call('/v2/voiceprints/known', 'PUT', { threshold: 0, voices: [{ name: 'Lee', model: 'tiny-embedding', vector }] });
      expect(r.status, JSON.stringify(vector)).toBe(400);
      expect(r.body.error).toMatch(re);
    }
    const now = await fetch(`${engine.url}/v2/voiceprints/known`, { headers: { authorization: KEY } });
    expect(((await now.json()) as { voices: { name: string }[] }).voices.map((v) => v.name)).toEqual(['Dana']);
  });

  it('POST /v2/voiceprints stops when its client disconnects', async () => {
    // A minute of tone and 5,000 stretches of 30 s each: minutes of embedding, were it all done.
    const pcm = new Int16Array(60 * 16000).map((_, i) => Math.round(8000 * Math.sin((2 * Math.PI * 500 * i) / 16000)));
    const up = await fetch(`${engine.url}/v2/upload`, { method: 'POST', headers: { authorization: KEY }, body: new Uint8Array(wavBytes(pcm)) });
    const upload_url = ((await up.json()) as { upload_url: string }).upload_url;
    const work = () => readdirSync(tmp).filter((d) => d.startsWith('verbatim-voiceprints-'));
    const abort = new AbortController();
    const request = call(
      '/v2/voiceprints',
      'POST',
      { upload_url, segments: Array.from({ length: 5000 }, () => ({ start: 0, end: 30_000 })) },
      abort.signal,
    ).catch(() => null);
    await expect.poll(() => work().length, { timeout: 60_000, interval: 20 }).toBeGreaterThan(0);
    abort.abort();
    await request;
    // The handler lets go of its work folder when it stops: at once, not after the remaining stretches.
    await expect.poll(() => work().length, { timeout: 30_000, interval: 50 }).toBe(0);
    const health = await fetch(`${engine.url}/health`);
    expect(health.status).toBe(200);
  }, 120_000);

  it('--drain-seconds that is empty, not finite or past setTimeout is refused with what to give', async () => {
    const tsx = join(process.cwd(), 'node_modules', '.bin', 'tsx');
    expect(existsSync(tsx)).toBe(true);
    for (const value of ['', '1e309', '3000000', '-1', 'abc']) {
      const out = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
        execFile(
          tsx,
          ['src/engine/index.ts', '--api-key', 'k', '--port', '0', '--data', join(sandbox.dir, 'cli'), `--drain-seconds=${value}`],
          (err, _o, stderr) => resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stderr }),
        );
      });
      expect(out.code, value).toBe(1);
      expect(out.stderr).toMatch(/--drain-seconds .* is not a number of seconds from 0 to 86400 \(a day\)/);
    }
  }, 120_000);
});
