/**
 * The app core against the real local engine (src/engine, started by the
 * EngineManager as its own process) with real speech made by flite: a file
 * through the whole job into the library, faults injected by a proxy, the
 * engine killed mid-job, cancel during upload.
 */
import { execFileSync } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createCore, type Core } from '../../src/main/core';
import { createHostPlatform } from '../../src/main/platform/host';
import { RestClient } from '../../src/main/services/client/rest';
import type { EventName } from '../../src/shared/ipc';
import { startFaultProxy, type FaultProxy } from '../unit/main/support/fault-proxy';
import { hasFlite as fliteInstalled } from '../fixtures/speech';
import { waitFinal } from '../support/jobs';
import { call } from '../support/router';
import { unpackTranscript } from '../../src/shared/transcript-columns';

let root: string;
let dir: string;
let speech: string;
let longSpeech: string;
let core: Core | undefined;
let proxy: FaultProxy | undefined;
const events: { event: EventName; payload: unknown }[] = [];
const logs: string[] = [];

const hasFlite = fliteInstalled();
if (!hasFlite) console.log('app-engine tests skipped: flite is not installed (apt-get install flite) so no speech can be made');

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'verbatim-app-engine-'));
  speech = join(root, 'hello.wav');
  longSpeech = join(root, 'long.wav');
  if (!hasFlite) return;
  execFileSync('flite', ['-t', 'Hello world. The weather today is sunny and warm. Thank you for listening.', '-o', speech]);
  execFileSync('flite', ['-t', Array(5).fill('The quick brown fox jumps over the lazy dog near the river bank.').join(' '), '-o', longSpeech]);
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

afterEach(async () => {
  await core?.dispose();
  core = undefined;
  await proxy?.close();
  proxy = undefined;
  events.length = 0;
  logs.length = 0;
});

function makeCore(opts: { webhooks?: boolean; env?: string } = {}): Core {
  dir = mkdtempSync(join(root, 'case-'));
  const platform = createHostPlatform({ dataDir: join(dir, 'data'), version: 't', keyFile: join(dir, 'k') });
  const prev = process.env.ASSEMBLYAI_API_KEY;
  if (opts.env) process.env.ASSEMBLYAI_API_KEY = opts.env;
  else delete process.env.ASSEMBLYAI_API_KEY;
  const c = createCore(platform, () => true, { webhooks: opts.webhooks, log: (m) => logs.push(m), jobs: { retry: { attempts: 6, baseMs: 50, capMs: 500 } } });
  if (prev === undefined) delete process.env.ASSEMBLYAI_API_KEY;
  else process.env.ASSEMBLYAI_API_KEY = prev;
  c.router.subscribe((event, payload) => events.push({ event, payload }));
  return c;
}

describe.skipIf(!hasFlite)('app core against the real local engine', () => {
  it('takes a spoken file through the whole job into the library, searchable offline', async () => {
    core = makeCore();
    const { jobs } = await call(core.router, 'jobs.addFiles', { files: [{ kind: 'path', path: speech }] });
    const done = await waitFinal(core.jobs, jobs[0]!.id, 90_000);
    expect(done, JSON.stringify(done.error)).toMatchObject({ status: 'completed', region: 'local' });
    const t = unpackTranscript(await call(core.router, 'library.get', { id: done.recordingId }));
    expect(t.words.length).toBeGreaterThan(0);
    expect(t.item).toMatchObject({ status: 'completed', durationMs: expect.any(Number), hasAudio: true, model: expect.any(String) });
    expect(t.sentences.length).toBeGreaterThan(0);
    const word = t.words.find((w) => /^[a-z]{3,}$/i.test(w.text.replace(/[^a-z]/gi, '')))!.text.replace(/[^a-z]/gi, '');
    await core.engine.stop();
    const hits = await call(core.router, 'search.query', { query: word });
    expect(hits.hits.map((h) => h.recordingId)).toContain(done.recordingId);
    const srt = await call(core.router, 'library.export', { id: done.recordingId, format: 'srt' });
    expect(srt.content).toMatch(/^1\n00:00:0\d,\d{3} --> /);
  });

  it('sends the local engine only the speech models it knows: a cloud-only choice still transcribes', async () => {
    core = makeCore();
    const { jobs } = await call(core.router, 'jobs.addFiles', { files: [{ kind: 'path', path: speech }], options: { speechModels: ['slam-1'] } });
    const done = await waitFinal(core.jobs, jobs[0]!.id, 90_000);
    expect(done.status, JSON.stringify(done.error)).toBe('completed');
    const both = await call(core.router, 'jobs.addFiles', { files: [{ kind: 'path', path: speech }], options: { speechModels: ['slam-1', 'universal-2'] } });
    const second = await waitFinal(core.jobs, both.jobs[0]!.id, 90_000);
    expect(second.status, JSON.stringify(second.error)).toBe('completed');
    // The engine names the model that really ran: PocketSphinx, whichever cloud name was asked for.
    expect((await call(core.router, 'library.get', { id: second.recordingId })).item.model).toBe('pocketsphinx');
  });

  it('downloads the redacted audio into the library when asked', async () => {
    core = makeCore();
    const options = {
      redactPii: true,
      redactPiiPolicies: ['person_name' as const, 'phone_number' as const],
      redactPiiAudio: true,
      redactPiiAudioQuality: 'wav' as const,
    };
    const { jobs } = await call(core.router, 'jobs.addFiles', { files: [{ kind: 'path', path: speech }], options });
    const done = await waitFinal(core.jobs, jobs[0]!.id, 90_000);
    expect(done.status, JSON.stringify({ error: done.error, logs })).toBe('completed');
    const item = (await call(core.router, 'library.get', { id: done.recordingId })).item;
    expect(item.hasRedactedAudio, logs.join('\n')).toBe(true);
    const path = core.library.audio.path(done.recordingId, 'redacted')!;
    expect(readFileSync(path).subarray(0, 4).toString()).toBe('RIFF');
    // No transport registered a media route in this in-process core (host mode and Electron do).
    expect((await call(core.router, 'library.mediaUrl', { id: done.recordingId, redacted: true })).url).toBeNull();
  });

  it('retries 429 and 5xx injected in front of the engine and ends with one transcript', async () => {
    // One core owns the engine; the core under test reaches it as region "custom" through the proxy.
    const owner = makeCore();
    const h = await owner.engine.ensure();
    proxy = await startFaultProxy(h.url, [
      { method: 'POST', path: /^\/v2\/upload/, faults: [{ status: 500 }] },
      { method: 'POST', path: /^\/v2\/transcript$/, faults: [{ status: 429, retryAfter: 0 }, { status: 503 }, { dropAfterForward: true }] },
      { method: 'GET', path: /^\/v2\/transcript\/[^/?]+$/, faults: [{ status: 504 }, { drop: true }] },
    ]);
    core = makeCore({ env: h.key });
    core.settings.set({ region: 'custom', customRestUrl: proxy.url });
    const { jobs } = await call(core.router, 'jobs.addFiles', { files: [{ kind: 'path', path: speech }] });
    const done = await waitFinal(core.jobs, jobs[0]!.id, 90_000);
    expect(done.status, JSON.stringify({ error: done.error, logs, seen: proxy.seen })).toBe('completed');
    expect(proxy.seen.filter((s) => s.status !== 200).length).toBeGreaterThanOrEqual(6);
    const list = await new RestClient(proxy.url, h.key).list({ limit: 50 });
    expect(list.transcripts).toHaveLength(1);
    await owner.dispose();
  });

  it("tells what the team's webhook server answered: delivered on a 200, refused on a 404", async () => {
    const hits: { path: string; secret: string | undefined; body: string }[] = [];
    const hookServer = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        hits.push({ path: req.url ?? '', secret: req.headers['x-team-secret'] as string | undefined, body });
        res.writeHead(req.url?.startsWith('/ok') ? 200 : 404).end();
      });
    });
    await new Promise<void>((r) => hookServer.listen(0, '127.0.0.1', r));
    const hookUrl = `http://127.0.0.1:${(hookServer.address() as AddressInfo).port}`;
    try {
      // The engine plays a self-hosted service ("custom"): the user's webhook goes to it.
      const owner = makeCore();
      const h = await owner.engine.ensure();
      core = makeCore({ env: h.key });
      core.settings.set({
        region: 'custom',
        customRestUrl: h.url,
        webhookUrl: `${hookUrl}/ok?team=1`,
        webhookAuthHeaderName: 'X-Team-Secret',
        webhookAuthHeaderValue: 'shh',
      });
      const ok = (await call(core.router, 'jobs.addFiles', { files: [{ kind: 'path', path: speech }] })).jobs[0]!;
      expect((await waitFinal(core.jobs, ok.id, 90_000)).status).toBe('completed');
      for (let i = 0; i < 300 && core.library.webhooks.status(ok.recordingId)?.state !== 'delivered'; i++) await new Promise((r) => setTimeout(r, 50));
      const t = await call(core.router, 'library.get', { id: ok.recordingId });
      expect(t.webhook).toMatchObject({ url: `${hookUrl}/ok`, state: 'delivered', statusCode: 200 });
      expect(hits[0]).toMatchObject({ path: '/ok?team=1', secret: 'shh' });
      expect(JSON.parse(hits[0]!.body)).toEqual({ transcript_id: t.item.remoteId, status: 'completed' });

      core.settings.set({ webhookUrl: `${hookUrl}/gone` });
      const refused = (await call(core.router, 'jobs.addFiles', { files: [{ kind: 'path', path: speech }] })).jobs[0]!;
      expect((await waitFinal(core.jobs, refused.id, 90_000)).status).toBe('completed');
      for (let i = 0; i < 300 && core.library.webhooks.status(refused.recordingId)?.state !== 'failed'; i++) await new Promise((r) => setTimeout(r, 50));
      expect((await call(core.router, 'library.checkWebhook', { id: refused.recordingId })).webhook).toMatchObject({ state: 'failed', statusCode: 404 });
      await owner.dispose();
    } finally {
      hookServer.close();
    }
  });

  it('completes the job when the engine is killed mid-job and restarted', async () => {
    core = makeCore({ webhooks: false });
    const { jobs } = await call(core.router, 'jobs.addFiles', { files: [{ kind: 'path', path: longSpeech }] });
    const id = jobs[0]!.id;
    await expect.poll(() => core!.jobs.get(id).status, { timeout: 60_000, interval: 20 }).toMatch(/^(submitted|processing)$/);
    const before = core.engine.status();
    process.kill(enginePid(), 'SIGKILL');
    const done = await waitFinal(core.jobs, id, 120_000);
    expect(done.status, JSON.stringify(done.error)).toBe('completed');
    expect(core.engine.status().restarts).toBe(1);
    expect(core.engine.status().url).toBe(before.url);
  });

  it('cancel during upload leaves nothing behind in the engine or the library folder', async () => {
    core = makeCore();
    await core.engine.ensure();
    const big = join(dir, 'big.wav');
    writeFileSync(big, Buffer.alloc(300 * 1024 * 1024, 9));
    const { jobs } = await call(core.router, 'jobs.addFiles', { files: [{ kind: 'path', path: big }] });
    const id = jobs[0]!.id;
    await expect.poll(() => events.some((e) => e.event === 'jobs.progress'), { timeout: 30_000, interval: 5 }).toBe(true);
    expect((await call(core.router, 'jobs.cancel', { id })).status).toBe('canceled');
    const h = await core.engine.ensure();
    expect((await new RestClient(h.url, h.key).list({ limit: 10 })).transcripts).toEqual([]);
    // The engine and the library drop the partial bytes once the aborted upload has ended.
    const big1MiB = () => walk(join(dir, 'data')).filter((f) => existsSync(f) && statSync(f).size > 1024 * 1024);
    await expect.poll(big1MiB, { timeout: 20_000 }).toEqual([]);
  });
});

function walk(d: string): string[] {
  if (!existsSync(d)) return [];
  return readdirSync(d, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(d, e.name)) : [join(d, e.name)]));
}

function enginePid(): number {
  for (const p of readdirSync('/proc')) {
    if (!/^\d+$/.test(p)) continue;
    try {
      const cmd = readFileSync(`/proc/${p}/cmdline`, 'utf8').split('\0');
      if (cmd.some((c) => c.endsWith('src/engine/index.ts')) && cmd.includes(join(dir, 'data', 'engine'))) return Number(p);
    } catch {
      // gone
    }
  }
  throw new Error('engine process not found');
}
