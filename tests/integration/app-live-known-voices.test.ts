/**
 * Remembered voices in live captions through the app: with a person remembered in the library (Dana, from
 * a recording of voice A), the app's own captions service (as core wires it) tells the local engine her
 * voiceprint before a session with speaker labels, and the system audio's turns A/B/A read Dana, Speaker A,
 * Dana; the saved session names her, and the engine lets the voiceprints go when it ends. With a US or EU region the session asks the cloud for speaker labels
 * and nothing else: no voiceprint goes anywhere, not even to the local engine.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocketServer } from 'ws';
import type { LiveTurn } from '../../src/shared/captions';
import { liveWho } from '../../src/shared/voices/live';
import { createCore, type Core } from '../../src/main/core';
import { createHostPlatform } from '../../src/main/platform/host';
import { tellLocalEngine } from '../../src/main/services/captions/known-voices';
import { CaptionsService } from '../../src/main/services/captions/service';
import { StreamingClient } from '../../src/main/services/client/streaming';
import { installModel, MARKS, markedConversation, tinyEmbedding, voiceAt, wavBytes, type Turn } from '../fixtures/models/speakers';
import { ABA_LINES, feedCaptions } from '../support/live-audio';
import { addCompleted } from '../support/library';

const dir = mkdtempSync(join(tmpdir(), 'verbatim-live-known-'));
let core: Core;
let engine: { url: string; key: string };
let talk: { pcm: Int16Array; turns: Turn[] };
const turnsSeen: LiveTurn[] = [];

async function engineHolds(): Promise<{ threshold: number; voices: { name: string; model: string }[] }> {
  const res = await fetch(`${engine.url}/v2/voiceprints/known`, { headers: { authorization: engine.key } });
  return (await res.json()) as { threshold: number; voices: { name: string; model: string }[] };
}

beforeAll(async () => {
  installModel(join(dir, 'data', 'models'), 'tiny-embedding', 'embedding', tinyEmbedding({ hz: MARKS }));
  talk = markedConversation(join(dir, 'talk'), ABA_LINES, { gapMs: 2000 });
  core = createCore(createHostPlatform({ dataDir: join(dir, 'data'), version: 't', keyFile: join(dir, 'k') }), () => true, { resume: false });
  // The turns the renderer would get, as the core's router emits them.
  core.router.subscribe((event, payload) => {
    if (event === 'captions.turn') turnsSeen.push(payload as LiveTurn);
  });
  engine = await core.engine.ensure();
  // Dana is remembered as the app remembers a voice: the engine's voiceprint of her turn in an earlier recording.
  const wav = join(dir, 'earlier.wav');
  writeFileSync(wav, wavBytes(talk.pcm));
  const up = await fetch(`${engine.url}/v2/upload`, { method: 'POST', headers: { authorization: engine.key }, body: readFileSync(wav) });
  const first = talk.turns[0] as Turn;
  const vp = await fetch(`${engine.url}/v2/voiceprints`, {
    method: 'POST',
    headers: { authorization: engine.key, 'content-type': 'application/json' },
    body: JSON.stringify({ upload_url: ((await up.json()) as { upload_url: string }).upload_url, segments: [{ start: first.start, end: first.end }] }),
  });
  const print = Float32Array.from(((await vp.json()) as { embeddings: number[][] }).embeddings[0] as number[]);
  const earlier = addCompleted(core.library, 'Earlier meeting', [{ text: 'morning', start: first.start, end: first.end, confidence: 0.9, speaker: 'A' }]);
  core.library.voices.people.remember(earlier.recordingId, 'Dana', 'tiny-embedding', [{ vector: print, ms: first.end - first.start }], 'A');
});
afterAll(async () => {
  await core?.dispose();
  rmSync(dir, { recursive: true, force: true });
});

describe('remembered voices in live captions', () => {
  it('names a remembered voice on the local engine, gives the other a letter, and the saved session names her', async () => {
    const svc = core.captions;
    const run = await svc.start({ sources: ['mic', 'system'], speakerLabels: true, recordingMime: 'audio/webm;codecs=opus' });
    expect(await engineHolds()).toEqual({ threshold: 0.75, voices: [{ name: 'Dana', model: 'tiny-embedding' }] });
    const system = Buffer.from(talk.pcm.buffer, talk.pcm.byteOffset, talk.pcm.byteLength);
    await Promise.all([
      feedCaptions(svc, run.run, 'system', Buffer.concat([system, Buffer.alloc(32_000)])),
      feedCaptions(svc, run.run, 'mic', Buffer.alloc(system.length)),
    ]);
    await svc.stop(run.run);
    // The session over, the engine lets the voiceprints go.
    await expect.poll(async () => (await engineHolds()).voices).toEqual([]);
    const labelled = turnsSeen.filter((t) => t.final && t.source === 'system' && t.words.length > 0 && t.speaker);
    for (const t of labelled) {
      const mid = t.words[Math.floor(t.words.length / 2)]!;
      expect(liveWho(t, true), t.text).toBe(voiceAt(talk.turns, (mid.start + mid.end) / 2) === 'A' ? 'Dana' : 'Speaker A');
    }
    const order = labelled.map((t) => liveWho(t, true)).filter((s, i, all) => s !== all[i - 1]);
    expect(order).toEqual(['Dana', 'Speaker A', 'Dana']);
    const saved = core.library.transcripts.get(run.recordingId);
    expect(saved.speakers).toEqual(expect.arrayContaining([{ id: 'Dana', name: 'Dana' }, expect.objectContaining({ id: 'A' })]));
    expect(saved.speakers.find((s) => s.id === 'A')?.name ?? null).toBeNull();
  });

  for (const region of ['us', 'eu'] as const) {
    it(`with the ${region.toUpperCase()} region asks the cloud for speaker labels and sends no voiceprint anywhere`, async () => {
      await tellLocalEngine(engine, { threshold: 0.75, voices: [] });
      const cloud: Server = createServer();
      const wss = new WebSocketServer({ server: cloud });
      const urls: string[] = [];
      const texts: string[] = [];
      let http = 0;
      cloud.on('request', (_req, res) => {
        http++;
        res.writeHead(404).end();
      });
      wss.on('connection', (ws, req) => {
        urls.push(req.url ?? '');
        ws.send(JSON.stringify({ type: 'Begin', id: 's1', expires_at: 9999999999 }));
        ws.on('message', (d, bin) => {
          if (bin) return;
          texts.push(d.toString());
          if ((JSON.parse(d.toString()) as { type: string }).type === 'Terminate') {
            ws.send(JSON.stringify({ type: 'Termination', audio_duration_seconds: 0, session_duration_seconds: 0 }));
            ws.close(1000);
          }
        });
      });
      await new Promise<void>((r) => cloud.listen(0, '127.0.0.1', r));
      const base = `ws://127.0.0.1:${(cloud.address() as AddressInfo).port}`;
      let told = 0;
      const svc = new CaptionsService({
        library: core.library,
        target: async () => ({ region, baseUrl: base.replace(/^ws/, 'http') }),
        streaming: async (o, h) => new StreamingClient({ ...o, baseUrl: base, key: 'cloud-key' }, h),
        improve: (id, title) => core.jobs.addLiveVersion(id, title),
        // As core wires it: to the local engine.
        rememberedVoices: async () => {
          told++;
          return tellLocalEngine(engine, { threshold: 0.75, voices: [{ name: 'Dana', model: 'tiny-embedding', vector: Float32Array.from([1, 0]) }] });
        },
        events: { turn: () => undefined, status: () => undefined, run: () => undefined },
      });
      try {
        const run = await svc.start({ sources: ['mic', 'system'], speakerLabels: true, recordingMime: 'audio/webm;codecs=opus' });
        await expect.poll(() => urls.length).toBe(2);
        await svc.stop(run.run);
      } finally {
        await new Promise<void>((r) => cloud.close(() => r()));
      }
      expect(told).toBe(0);
      expect((await engineHolds()).voices).toEqual([]);
      expect(urls.map((u) => new URL(u, 'http://x').searchParams.get('speaker_labels')).sort()).toEqual([null, 'true']);
      expect(http).toBe(0);
      for (const t of texts) expect(t).not.toMatch(/voice|vector|Dana/i);
    });
  }
});
