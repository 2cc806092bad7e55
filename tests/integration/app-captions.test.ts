/**
 * Live captions in main against the real local engine: binary frames in at
 * real time (as the bridge delivers them), turns out as events, the session
 * saved in the library. A TCP proxy in front of the engine drops the session
 * mid-run: captions go on after the reconnect with a notice, and the recording
 * has every chunk. Two sources give turns labelled You / Others in time order.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { hasSpeechTools } from '../fixtures/speech';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeFrame, type LiveSource } from '../../src/shared/audio-frame';
import type { LiveStatus, LiveTurn } from '../../src/shared/captions';
import { createCore, type Core } from '../../src/main/core';
import { createHostPlatform } from '../../src/main/platform/host';
import { CaptionsService } from '../../src/main/services/captions/service';
import { StreamingClient } from '../../src/main/services/client/streaming';
import { waitFinal } from '../support/jobs';

const tools = hasSpeechTools();
if (!tools) console.log('app-captions test skipped: flite and ffmpeg are needed to make speech');

const dir = mkdtempSync(join(tmpdir(), 'verbatim-app-captions-'));

function speech(name: string, text: string, padSeconds: number): Buffer {
  execFileSync('flite', ['-voice', 'slt', '-t', text, '-o', join(dir, `${name}.wav`)]);
  execFileSync('ffmpeg', [
    '-loglevel',
    'error',
    '-y',
    '-i',
    join(dir, `${name}.wav`),
    '-af',
    `apad=pad_dur=${padSeconds}`,
    '-ar',
    '16000',
    '-ac',
    '1',
    '-f',
    's16le',
    join(dir, `${name}.raw`),
  ]);
  return readFileSync(join(dir, `${name}.raw`));
}

/** A TCP proxy to the engine whose connections can be cut. */
async function proxy(target: URL): Promise<{ url: string; drop(): void; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    const upstream = createConnection(Number(target.port), target.hostname);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => undefined);
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  return {
    url: `ws://127.0.0.1:${port}`,
    drop: () => {
      for (const s of sockets) s.destroy();
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Sends `pcm` as 50 ms frames at real time for `source`, with a recording chunk every second. */
async function stream(svc: CaptionsService, run: number, source: LiveSource, pcm: Buffer, chunks: { bytes: number }, record = true): Promise<void> {
  const t0 = performance.now();
  for (let i = 0, n = 0; i < pcm.length; i += 1600, n++) {
    const frame = Buffer.alloc(1600);
    pcm.copy(frame, 0, i, Math.min(pcm.length, i + 1600));
    svc.frame(new Uint8Array(encodeFrame({ kind: 'pcm', source, run, capturedAt: Date.now(), payload: frame })));
    if (record && n % 20 === 19) {
      const chunk = Buffer.alloc(4000, n % 256);
      chunks.bytes += chunk.length;
      svc.frame(new Uint8Array(encodeFrame({ kind: 'recording', source, run, capturedAt: Date.now(), payload: chunk })));
    }
    const due = t0 + (n + 1) * 50;
    await sleep(Math.max(0, due - performance.now()));
  }
}

describe.skipIf(!tools)('live captions against the local engine', () => {
  let core: Core;
  let engine: { url: string; key: string };
  beforeAll(async () => {
    delete process.env.ASSEMBLYAI_API_KEY;
    core = createCore(createHostPlatform({ dataDir: join(dir, 'data'), version: 't', keyFile: join(dir, 'k') }), () => true, {
      log: process.env.CAP_DEBUG ? (m) => console.log('core', Date.now() % 100000, m) : () => undefined,
      resume: false,
    });
    engine = await core.engine.ensure();
  });
  afterAll(async () => {
    await core?.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  function service(baseUrl: string, turns: LiveTurn[], statuses: LiveStatus[]): CaptionsService {
    return new CaptionsService({
      library: core.library,
      target: async () => ({ region: 'local', baseUrl: null }),
      streaming: async (o, h) => new StreamingClient({ ...o, baseUrl, key: engine.key, maxReconnects: 8 }, h),
      improve: (id, title) => core.jobs.addLiveVersion(id, title),
      log: (m) => process.env.CAP_DEBUG && console.log('LOG', Date.now() % 100000, m),
      events: {
        turn: (t) => turns.push(t),
        status: (s) => (process.env.CAP_DEBUG && console.log('status', Date.now() % 100000, s), statuses.push(s)),
        run: () => undefined,
      },
    });
  }

  it('continues captions after the engine session is dropped, says so, and the recording has no gap', async () => {
    const p = await proxy(new URL(engine.url));
    const turns: LiveTurn[] = [];
    const statuses: LiveStatus[] = [];
    const svc = service(p.url, turns, statuses);
    try {
      const run = await svc.start({ sources: ['mic'], recordingMime: 'audio/webm;codecs=opus' });
      expect(statuses.at(-1)).toMatchObject({ source: 'mic', state: 'live' });
      const chunks = { bytes: 0 };
      await stream(svc, run.run, 'mic', speech('a', 'Good morning everyone. The budget meeting starts at nine.', 2), chunks);
      // The engine may lag behind real time on a busy machine: wait for the first turn to end.
      await expect.poll(() => turns.filter((t) => t.final).length, { timeout: 30_000 }).toBeGreaterThan(0);
      const before = turns.filter((t) => t.final).length;

      p.drop();
      await stream(svc, run.run, 'mic', Buffer.alloc(32000 * 2), chunks); // 2 s while it reconnects
      expect(statuses.some((s) => s.state === 'reconnecting' && /dropped.*Reconnecting.*recording continues/i.test(s.message ?? ''))).toBe(true);
      await expect.poll(() => statuses.at(-1)?.state, { timeout: 20_000 }).toBe('live');
      expect(statuses.at(-1)?.message).toMatch(/Reconnected: captions resumed/);

      await stream(svc, run.run, 'mic', speech('b', 'The weather tomorrow looks sunny and warm.', 2), chunks);
      await expect.poll(() => turns.filter((t) => t.final).length, { timeout: 20_000 }).toBeGreaterThan(before);
      const after = turns.filter((t) => t.final && t.key.includes(':1:'));
      expect(after.length).toBeGreaterThan(0); // session 1: after the reconnect
      // Times stay continuous across sessions: the new session's words come after the old ones.
      const lastBefore = Math.max(...turns.filter((t) => t.key.includes(':0:')).map((t) => t.endMs));
      expect(after[0]!.startMs).toBeGreaterThan(lastBefore);

      const stopped = await svc.stop(run.run);
      expect(stopped.hasAudio).toBe(true);
      const saved = core.library.transcripts.get(run.recordingId);
      expect(saved.item.status).toBe('completed');
      expect(saved.item.source).toBe('Live session');
      expect(saved.words.length).toBeGreaterThan(4);
      // Named by the model that made it (the local engine's PocketSphinx here), not "live": its details, review and underlines agree.
      expect(saved.item.model).toBe('pocketsphinx');
      // Every recording chunk, including those sent while the socket was down, is in the file.
      const path = core.library.audio.path(run.recordingId)!;
      expect(statSync(path).size).toBe(chunks.bytes);
      expect(core.library.sessions.session(run.recordingId)).toMatchObject({ reconnects: 1, sources: ['mic'] });
    } finally {
      await p.close();
    }
  });

  it('labels the microphone You and the system audio Others, merged in time order', async () => {
    const turns: LiveTurn[] = [];
    const svc = service(engine.url.replace(/^http/, 'ws'), turns, []);
    const run = await svc.start({ sources: ['mic', 'system'], recordingMime: 'audio/webm;codecs=opus' });
    const you = speech('you', 'Hello, can you hear me?', 0.5);
    const others = speech('others', 'Yes, the sound is very clear.', 2);
    const silence = (ms: number) => Buffer.alloc(Math.round((ms / 1000) * 16000) * 2);
    const chunks = { bytes: 0 };
    // The far side answers after the microphone has spoken.
    await Promise.all([
      stream(svc, run.run, 'mic', Buffer.concat([you, silence(4000)]), chunks),
      stream(svc, run.run, 'system', Buffer.concat([silence(you.length / 32 + 200), others]), chunks, false),
    ]);
    await expect.poll(() => new Set(turns.filter((t) => t.final).map((t) => t.source)).size, { timeout: 20_000 }).toBe(2);
    await svc.stop(run.run);
    const saved = core.library.transcripts.get(run.recordingId);
    const order = saved.sentences.map((s) => s.speaker);
    expect(order[0]).toBe('You');
    expect(order).toContain('Others');
    expect(order.indexOf('Others')).toBeGreaterThan(order.indexOf('You'));
    // Sentences are in time order.
    const starts = saved.sentences.map((s) => s.start);
    expect(starts).toEqual([...starts].sort((a, b) => a - b));
    expect(saved.speakers.map((s) => s.id).sort()).toEqual(['Others', 'You']);
  });

  it('Improve accuracy transcribes the recording as a job and keeps both versions, the improved one shown by default', async () => {
    const turns: LiveTurn[] = [];
    const svc = service(engine.url.replace(/^http/, 'ws'), turns, []);
    const run = await svc.start({ sources: ['mic'], recordOnly: true, recordingMime: 'audio/wav' });
    // Record only: no session is opened; the recording arrives as chunks (here a WAV file, as a browser's MediaRecorder would send WebM).
    speech('improve', 'The weather tomorrow looks sunny and warm.', 0.5);
    const file = readFileSync(join(dir, 'improve.wav'));
    for (let i = 0; i < file.length; i += 8192) {
      svc.frame(new Uint8Array(encodeFrame({ kind: 'recording', source: 'mic', run: run.run, capturedAt: Date.now(), payload: file.subarray(i, i + 8192) })));
    }
    const stopped = await svc.stop(run.run);
    expect(stopped).toMatchObject({ hasAudio: true, turns: 0 });
    expect(core.library.transcripts.get(run.recordingId).words).toEqual([]);
    // The saved recording's waveform is made ahead, without the Subtitles view asking.
    await expect.poll(() => core.library.subtitles.storedPeaks(run.recordingId), { timeout: 20_000, interval: 50 }).not.toBeNull();

    const { jobId } = await svc.improve(run.recordingId);
    const job = await waitFinal(core.jobs, jobId, 90_000);
    expect(job.status).toBe('completed');
    const versions = core.library.sessions.versions(run.recordingId);
    expect(versions.map((v) => v.kind)).toEqual(['improved', 'live']);
    const shown = core.library.transcripts.get(run.recordingId);
    expect(shown.transcriptId).toBe(versions[0]!.transcriptId);
    expect(shown.text.toLowerCase()).toMatch(/weather|sunny|warm/);
    // The live version is still there, with its own state.
    const live = core.library.transcripts.get(run.recordingId, versions[1]!.transcriptId);
    expect(live.words).toEqual([]);
    expect(live.item.status).toBe('completed');
    // The recording was not copied over itself.
    expect(statSync(core.library.audio.path(run.recordingId)!).size).toBe(file.length);
  });
});
