/**
 * Durable jobs end to end in one process: the real core (library, jobs, key
 * vault, engine manager, webhook receiver) against a real HTTP service (the
 * fake-service in tests/unit/main/support, started as the "local engine"
 * process or behind a fault-injecting proxy).
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCore, type Core } from '../../src/main/core';
import { createHostPlatform, ForkEngineLauncher } from '../../src/main/platform/host';
import type { EventName } from '../../src/shared/ipc';
import { startFakeService, type FakeService } from '../unit/main/support/fake-service';
import { startFaultProxy, type FaultProxy } from '../unit/main/support/fault-proxy';
import { waitFinal } from '../support/jobs';
import { call } from '../support/router';
import { unpackTranscript } from '../../src/shared/transcript-columns';

const fakeEngine = resolve('tests/unit/main/support/fake-engine-cli.ts');
const KEY = 'sk-live-SECRET-4f3e2d1c0b9a8877';

let dir: string;
let core: Core | undefined;
let svc: FakeService | undefined;
let proxy: FaultProxy | undefined;
const events: { event: EventName; payload: unknown }[] = [];
const logs: string[] = [];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'verbatim-jobs-'));
  events.length = 0;
  logs.length = 0;
});

afterEach(async () => {
  await core?.dispose();
  core = undefined;
  await proxy?.close();
  proxy = undefined;
  await svc?.close();
  svc = undefined;
  rmSync(dir, { recursive: true, force: true });
});

function makeCore(opts: { env?: string; pollStartMs?: number; webhooks?: boolean } = {}): Core {
  const platform = createHostPlatform({ dataDir: join(dir, 'data'), version: 't', keyFile: join(dir, 'k', 'key') });
  platform.engine = new ForkEngineLauncher(fakeEngine);
  const prev = process.env.ASSEMBLYAI_API_KEY;
  if (opts.env) process.env.ASSEMBLYAI_API_KEY = opts.env;
  else delete process.env.ASSEMBLYAI_API_KEY;
  const c = createCore(platform, () => true, {
    log: (m) => logs.push(m),
    webhooks: opts.webhooks,
    jobs: { pollStartMs: opts.pollStartMs ?? 100, pollCapMs: 1000, retry: { attempts: 6, baseMs: 50, capMs: 400 } },
  });
  if (prev === undefined) delete process.env.ASSEMBLYAI_API_KEY;
  else process.env.ASSEMBLYAI_API_KEY = prev;
  c.router.subscribe((event, payload) => events.push({ event, payload }));
  return c;
}

function audioFile(name = 'talk.wav', bytes = 64 * 1024): string {
  const p = join(dir, name);
  writeFileSync(p, Buffer.alloc(bytes, 7));
  return p;
}

describe('jobs against the local engine process', () => {
  it('takes a file through upload, submit and webhook to a completed library item', async () => {
    core = makeCore();
    const file = audioFile();
    const { jobs } = await call(core.router, 'jobs.addFiles', { files: [{ kind: 'path', path: file }] });
    const job = jobs[0]!;
    expect(job).toMatchObject({ status: 'queued', region: 'local', name: 'talk.wav' });
    const done = await waitFinal(core.jobs, job.id, 30_000);
    expect(done).toMatchObject({ status: 'completed', error: null, bytesSent: 64 * 1024 });
    expect(core.webhooks.received).toBeGreaterThanOrEqual(1);
    const t = unpackTranscript(await call(core.router, 'library.get', { id: job.recordingId }));
    expect(t.item).toMatchObject({ title: 'talk', status: 'completed', region: 'local', hasAudio: true, language: 'en_us' });
    expect(t.text).toContain('transcription desk');
    expect(t.sentences.map((s) => s.text)).toEqual(['Hello world.', 'This is a test of the transcription desk.', 'Verbatim keeps every word offline.']);
    const statuses = events.filter((e) => e.event === 'jobs.changed').map((e) => (e.payload as { job: { status: string } }).job.status);
    expect(statuses).toEqual(expect.arrayContaining(['queued', 'uploading', 'submitted', 'completed']));
    expect(statuses.indexOf('uploading')).toBeLessThan(statuses.indexOf('submitted'));
    expect(events.some((e) => e.event === 'engine.status' && (e.payload as { state: string }).state === 'running')).toBe(true);
    const hits = await call(core.router, 'search.query', { query: 'offline' });
    expect(hits.hits[0]).toMatchObject({ recordingId: job.recordingId, startMs: expect.any(Number) });
  });

  it('stores the waveform peaks when the job completes, before the Subtitles view is ever opened', async () => {
    core = makeCore();
    // One second of a 440 Hz tone at half scale, then one second of silence: 16 kHz mono PCM16 in a WAV.
    const rate = 16_000;
    const pcm = Buffer.alloc(rate * 2 * 2);
    for (let i = 0; i < rate; i++) pcm.writeInt16LE(Math.round(Math.sin((2 * Math.PI * 440 * i) / rate) * 16_384), i * 2);
    const header = Buffer.alloc(44);
    header.write('RIFF', 0);
    header.writeUInt32LE(36 + pcm.length, 4);
    header.write('WAVEfmt ', 8);
    header.writeUInt32LE(16, 16);
    header.writeUInt16LE(1, 20);
    header.writeUInt16LE(1, 22);
    header.writeUInt32LE(rate, 24);
    header.writeUInt32LE(rate * 2, 28);
    header.writeUInt16LE(2, 32);
    header.writeUInt16LE(16, 34);
    header.write('data', 36);
    header.writeUInt32LE(pcm.length, 40);
    const file = join(dir, 'tone.wav');
    writeFileSync(file, Buffer.concat([header, pcm]));
    const { jobs } = await call(core.router, 'jobs.addFiles', { files: [{ kind: 'path', path: file }] });
    const done = await waitFinal(core.jobs, jobs[0]!.id, 30_000);
    expect(done.status).toBe('completed');
    // Nothing asked for them (no subtitles.peaks call): the completed job made them.
    await expect.poll(() => core!.library.subtitles.storedPeaks(done.recordingId), { timeout: 20_000, interval: 50 }).not.toBeNull();
    const peaks = core.library.subtitles.storedPeaks(done.recordingId)!;
    expect(peaks).toMatchObject({ rate: 50, durationMs: 2000 });
    const bytes = Buffer.from(peaks.data, 'base64');
    expect(bytes.length).toBe(100);
    // The tone half is about half scale (64 of 127), the silent half is 0.
    expect(Math.min(...bytes.subarray(5, 45))).toBeGreaterThanOrEqual(60);
    expect(Math.max(...bytes.subarray(55, 95))).toBe(0);
    // The view gets the stored ones.
    expect(await call(core.router, 'subtitles.peaks', { id: done.recordingId })).toEqual(peaks);
  });

  it('logs and leaves the waveform to the Subtitles view when the audio cannot be read for peaks', async () => {
    core = makeCore();
    const { jobs } = await call(core.router, 'jobs.addFiles', { files: [{ kind: 'path', path: audioFile() }] });
    const done = await waitFinal(core.jobs, jobs[0]!.id, 30_000);
    expect(done.status).toBe('completed');
    await expect.poll(() => logs.some((l) => l.includes('waveform peaks not made ahead')), { timeout: 20_000, interval: 50 }).toBe(true);
    expect(core.library.subtitles.storedPeaks(done.recordingId)).toBeNull();
    expect(core.library.transcripts.get(done.recordingId).item.status).toBe('completed');
  });

  it('finishes the job when the engine is killed mid-job and restarted', async () => {
    process.env.FAKE_PROCESS_MS = '1500';
    try {
      core = makeCore({ webhooks: false });
      const { jobs } = await call(core.router, 'jobs.addFiles', { files: [{ kind: 'path', path: audioFile() }] });
      const id = jobs[0]!.id;
      await expect.poll(() => core!.jobs.get(id).status, { timeout: 30_000, interval: 20 }).toMatch(/^(submitted|processing)$/);
      const before = core.engine.status();
      expect(before.state).toBe('running');
      const pid = findEnginePid(before.url!);
      process.kill(pid, 'SIGKILL');
      const done = await waitFinal(core.jobs, id, 30_000);
      expect(done.status).toBe('completed');
      expect(core.engine.status(), JSON.stringify(core.engine.status())).toMatchObject({ state: 'running', restarts: 1, url: before.url });
    } finally {
      delete process.env.FAKE_PROCESS_MS;
    }
  });

  it('cancel during upload leaves no job work, no remote transcript and no staged bytes behind', async () => {
    core = makeCore();
    await core.engine.ensure();
    const file = audioFile('big.wav', 400 * 1024 * 1024);
    const { jobs } = await call(core.router, 'jobs.addFiles', { files: [{ kind: 'path', path: file }] });
    const id = jobs[0]!.id;
    await expect.poll(() => events.some((e) => e.event === 'jobs.progress'), { timeout: 30_000, interval: 5 }).toBe(true);
    const canceled = await call(core.router, 'jobs.cancel', { id });
    expect(canceled.status).toBe('canceled');
    expect(canceled.bytesSent).toBeLessThan(400 * 1024 * 1024);
    const engineFiles = join(dir, 'data', 'engine', 'files');
    // The engine drops the staged bytes once the aborted upload's request has ended.
    await expect.poll(() => readdirSync(engineFiles), { timeout: 20_000 }).toEqual([]);
    const stateFile = join(dir, 'data', 'engine', 'state.json');
    expect(existsSync(stateFile) ? JSON.parse(readFileSync(stateFile, 'utf8')) : {}).toEqual({});
    expect(readdirSync(join(dir, 'data', 'audio'))).toEqual([]);
    expect((await call(core.router, 'library.get', { id: jobs[0]!.recordingId })).item.status).toBe('canceled');
    // Retry starts the upload again and completes.
    rmSync(file);
    writeFileSync(file, Buffer.alloc(1000, 1));
    await call(core.router, 'jobs.retry', { id });
    expect((await waitFinal(core.jobs, id, 30_000)).status).toBe('completed');
  });

  it('throttles progress to about 10 events a second', async () => {
    core = makeCore();
    await core.engine.ensure();
    const { jobs } = await call(core.router, 'jobs.addFiles', { files: [{ kind: 'path', path: audioFile('p.wav', 300 * 1024 * 1024) }] });
    const t0 = Date.now();
    await waitFinal(core.jobs, jobs[0]!.id, 60_000);
    const progress = events.filter((e) => e.event === 'jobs.progress').map((e) => e.payload as { bytes: number; bytesPerSecond: number });
    const seconds = (Date.now() - t0) / 1000;
    expect(progress.length).toBeGreaterThan(0);
    expect(progress.length).toBeLessThanOrEqual(Math.ceil(seconds * 10) + 2);
    expect(progress[progress.length - 1]!.bytes).toBe(300 * 1024 * 1024);
  });
});

function findEnginePid(url: string): number {
  // The engine is our child: find it by the port on its command line (--port) or the one it chose.
  const port = new URL(url).port;
  for (const p of readdirSync('/proc')) {
    if (!/^\d+$/.test(p)) continue;
    try {
      const cmd = readFileSync(`/proc/${p}/cmdline`, 'utf8').split('\0');
      if (!cmd.some((c) => c.endsWith('fake-engine-cli.ts'))) continue;
      if (Number(readFileSync(`/proc/${p}/stat`, 'utf8').split(' ')[3]) !== process.pid) continue;
      if (cmd.includes(port) || cmd.includes('0')) return Number(p);
    } catch {
      // process went away
    }
  }
  throw new Error(`no engine process for ${url}`);
}

describe('jobs against a faulty cloud service', () => {
  it('retries 429 and 5xx, never creates twice, ends with one transcript', async () => {
    svc = await startFakeService({ apiKey: KEY, dataDir: join(dir, 'svc'), processMs: 200 });
    proxy = await startFaultProxy(svc.url, [
      { method: 'POST', path: /^\/v2\/upload/, faults: [{ status: 503 }, { drop: true }] },
      { method: 'POST', path: /^\/v2\/transcript$/, faults: [{ status: 429, retryAfter: 0 }, { dropAfterForward: true }] },
      { method: 'GET', path: /^\/v2\/transcript\/[^/]+$/, faults: [{ status: 504 }, { status: 500 }] },
    ]);
    core = makeCore({ env: KEY });
    core.settings.set({ region: 'custom', customRestUrl: proxy.url });
    const { jobs } = await call(core.router, 'jobs.addFiles', { files: [{ kind: 'path', path: audioFile() }] });
    expect(jobs[0]!.region).toBe('custom');
    const done = await waitFinal(core.jobs, jobs[0]!.id, 30_000);
    expect(done.status).toBe('completed');
    expect(svc.creates).toBe(1);
    expect(svc.transcripts()).toHaveLength(1);
    expect(proxy.seen.filter((s) => s.status === 429 || s.status === 503 || s.status === 504 || s.status === 500 || s.status === 'dropped')).toHaveLength(6);
    expect(logs.some((l) => l.includes('rate_limited'))).toBe(true);
  });

  it('keeps polling the region a job was made in after the user switches region', async () => {
    svc = await startFakeService({ apiKey: KEY, dataDir: join(dir, 'svc'), processMs: 1500 });
    core = makeCore({ env: KEY });
    core.settings.set({ region: 'custom', customRestUrl: svc.url });
    const job = await call(core.router, 'jobs.addUrl', { url: 'https://example.org/talk.mp3', name: 'Remote talk' });
    expect(job).toMatchObject({ source: 'url', bytesTotal: null, region: 'custom' });
    await expect.poll(() => core!.jobs.get(job.id).status, { timeout: 20_000, interval: 20 }).not.toBe('queued');
    core.settings.set({ region: 'local' });
    const done = await waitFinal(core.jobs, job.id, 20_000);
    expect(done).toMatchObject({ status: 'completed', region: 'custom', bytesSent: 0 });
    expect(svc.transcripts()[0]!.params).toMatchObject({
      audio_url: 'https://example.org/talk.mp3',
      speech_models: ['assemblyai-stt-3-7', 'universal-2'],
      language_code: 'en_us',
    });
    const item = (await call(core.router, 'library.get', { id: job.recordingId })).item;
    expect(item).toMatchObject({ region: 'custom', remoteId: done.remoteId, source: 'https://example.org/talk.mp3', hasAudio: false });
    expect(core.engine.status().state).toBe('stopped');
  });

  it('a URL job whose create answer was lost adopts the transcript instead of creating another', async () => {
    svc = await startFakeService({ apiKey: KEY, dataDir: join(dir, 'svc'), processMs: 100 });
    // An older, unrelated transcript of the same URL must not be adopted.
    await fetch(`${svc.url}/v2/transcript`, {
      method: 'POST',
      headers: { authorization: KEY },
      body: JSON.stringify({ audio_url: 'https://example.org/a.mp3' }),
    });
    svc.transcripts()[0]!.created = '2020-01-01T00:00:00.000000';
    proxy = await startFaultProxy(svc.url, [{ method: 'POST', path: /^\/v2\/transcript$/, faults: [{ dropAfterForward: true }] }]);
    core = makeCore({ env: KEY });
    core.settings.set({ region: 'custom', customRestUrl: proxy.url });
    const job = await call(core.router, 'jobs.addUrl', { url: 'https://example.org/a.mp3' });
    const done = await waitFinal(core.jobs, job.id, 20_000);
    expect(done.status).toBe('completed');
    expect(svc.creates).toBe(2);
    expect(done.remoteId).not.toBe(svc.transcripts().find((t) => t.created.startsWith('2020'))!.id);
  });

  it('retry after a failed transcript submits a new one instead of adopting the failure', async () => {
    svc = await startFakeService({ apiKey: KEY, dataDir: join(dir, 'svc'), processMs: 100 });
    core = makeCore({ env: KEY });
    core.settings.set({ region: 'custom', customRestUrl: svc.url });
    svc.failNext = 'Internal server error, the file may be submitted again.';
    const { jobs } = await call(core.router, 'jobs.addFiles', { files: [{ kind: 'path', path: audioFile() }] });
    const first = await waitFinal(core.jobs, jobs[0]!.id, 20_000);
    expect(first).toMatchObject({ status: 'error', error: { code: 'server_error_retryable', retryable: true } });
    expect((await call(core.router, 'library.get', { id: first.recordingId })).item.error).toMatchObject({ code: 'server_error_retryable' });
    const retried = await call(core.router, 'jobs.retry', { id: first.id });
    expect(retried.status).toBe('queued');
    const again = await waitFinal(core.jobs, first.id, 20_000);
    expect(again.status).toBe('completed');
    expect(again.remoteId).not.toBe(first.remoteId);
    expect(svc.creates).toBe(2);
    expect(svc.uploads).toBe(1);
  });

  it('reports a refused key as invalid_key, not retryable', async () => {
    svc = await startFakeService({ apiKey: KEY, dataDir: join(dir, 'svc') });
    core = makeCore({ env: 'sk-wrong-key-0000' });
    core.settings.set({ region: 'custom', customRestUrl: svc.url });
    const { jobs } = await call(core.router, 'jobs.addFiles', { files: [{ kind: 'path', path: audioFile() }] });
    const done = await waitFinal(core.jobs, jobs[0]!.id, 10_000);
    expect(done.error).toMatchObject({ code: 'invalid_key', message: expect.stringContaining('Settings') });
  });

  it('never lets the key reach IPC payloads, logs or the data folder', async () => {
    svc = await startFakeService({ apiKey: KEY, dataDir: join(dir, 'svc') });
    core = makeCore();
    core.settings.set({ region: 'custom', customRestUrl: svc.url });
    const status = await call(core.router, 'keys.set', { key: KEY });
    expect(status).toMatchObject({ present: true, masked: '…8877', source: 'vault', verifiedAt: expect.any(String), lastError: null });
    const { jobs } = await call(core.router, 'jobs.addFiles', { files: [{ kind: 'path', path: audioFile() }] });
    await waitFinal(core.jobs, jobs[0]!.id, 20_000);
    const replies = [
      await call(core.router, 'keys.status', undefined),
      await call(core.router, 'jobs.list', undefined),
      await call(core.router, 'library.get', { id: jobs[0]!.recordingId }),
      await call(core.router, 'settings.get', undefined),
    ];
    const wire = JSON.stringify({ events, replies, logs });
    expect(wire).not.toContain(KEY);
    expect(wire).not.toContain(KEY.slice(0, 20));
    await core.dispose();
    core = undefined;
    const found = grepDir(join(dir, 'data'), KEY);
    expect(found).toEqual([]);
    expect(statSync(join(dir, 'data', 'secrets', 'api-key.bin')).mode & 0o777).toBe(0o600);
  });

  it('refuses a wrong key on keys.set with a clear 401 message and stores nothing', async () => {
    svc = await startFakeService({ apiKey: KEY, dataDir: join(dir, 'svc') });
    core = makeCore();
    core.settings.set({ region: 'custom', customRestUrl: svc.url });
    await expect(call(core.router, 'keys.set', { key: 'sk-not-the-right-one' })).rejects.toMatchObject({
      code: 'invalid_key',
      message: expect.stringContaining('401'),
    });
    expect(await call(core.router, 'keys.status', undefined)).toMatchObject({ present: false, masked: null });
  });
});

function grepDir(root: string, needle: string): string[] {
  const hits: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (readFileSync(p).includes(needle)) hits.push(p);
    }
  };
  walk(root);
  return hits;
}

describe('which files the media route may serve (12.5)', () => {
  it('never serves a file only named over IPC: a typed path is not a pick', async () => {
    core = makeCore();
    let served: string[] = [];
    core.setMediaUrl((id) => (served.push(id), `/media/${id}`));
    await call(core.router, 'settings.set', { keepAudioCopy: false });
    const elsewhere = audioFile('elsewhere.wav');
    const { jobs } = await call(core.router, 'jobs.addFiles', { files: [{ kind: 'path', path: elsewhere }] });
    const id = jobs[0]!.recordingId;
    expect(await call(core.router, 'library.mediaUrl', { id })).toEqual({ url: null });
    expect(core.library.audio.path(id)).toBeNull();
    await waitFinal(core.jobs, jobs[0]!.id, 30_000);
    expect(await call(core.router, 'library.mediaUrl', { id })).toEqual({ url: null });
    expect(served).toEqual([]);

    // The same file picked by the user in this session (Electron's preload reports it) plays from where it is.
    core.picked.add(elsewhere);
    served = [];
    const picked = await call(core.router, 'jobs.addFiles', { files: [{ kind: 'path', path: elsewhere }] });
    const pid = picked.jobs[0]!.recordingId;
    expect(await call(core.router, 'library.mediaUrl', { id: pid })).toEqual({ url: `/media/${pid}` });
    expect(core.library.audio.path(pid)).toBe(elsewhere);
    await waitFinal(core.jobs, picked.jobs[0]!.id, 30_000);
  });
});
