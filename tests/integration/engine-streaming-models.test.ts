/**
 * Streaming v3 through the official SDK's StreamingTranscriber (over wss, which it requires) as AssemblyAI
 * streams today: every `StreamingSpeechModel` the pinned SDK names gets Begin, a final Turn and a clean
 * close after Termination (the engine's best live model runs each: PocketSphinx here); `silence` events over
 * a silent stretch with acknowledgeSilence (and once UpdateConfiguration turns it on), on the clock of word
 * times; `heartbeat` events with sessionHeartbeat; and a `speakerRevision` before Termination that relabels
 * an A/B/A session's first turn, labelled with a letter before the app named that voice, with the name.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as tls from 'node:tls';
import { StreamingTranscriber, type SpeakerRevisionEvent, type StreamingSpeechModel, type StreamingTranscriberParams, type TurnEvent } from 'assemblyai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { RunningEngine } from '../../src/engine/server';
import { installModel, MARKS, markedConversation, tinyEmbedding, voiceAt, wavBytes, type Turn } from '../fixtures/models/speakers';
import { hasSpeechTools } from '../fixtures/speech';
import { engineSandbox, type EngineSandbox } from '../support/engine';
import { ABA_LINES } from '../support/live-audio';
import { selfSignedCert } from '../support/tls';

const KEY = 'streaming-models-key';
/** The pinned SDK's StreamingSpeechModel, all nine (the guard test, sdk-surface.test.ts, reads them from its types). */
const SDK_MODELS: StreamingSpeechModel[] = [
  'universal-streaming-english',
  'universal-streaming-multilingual',
  'u3-rt-pro',
  'u3-rt-pro-beta-1',
  'whisper-rt',
  'universal-3-5-pro',
  'universal-3-6',
  'universal-3-6-pro',
  'u3-pro',
];

let sandbox: EngineSandbox;
let engine: RunningEngine;
let wss: string;
let savedCAs: string[] = [];
let oneLine: Int16Array;
let aba: { pcm: Int16Array; turns: Turn[] };

interface Run {
  beginId: string;
  turns: TurnEvent[];
  silences: { start_ms: number; end_ms: number }[];
  heartbeats: number;
  revisions: SpeakerRevisionEvent[];
  /** Events in the order they came (Begin, Turn, Silence, SpeakerRevision, and close when the server closed first). */
  order: string[];
  close: { code: number; reason: string };
  /** The server sent Termination (close(true) returned before any close of the socket). */
  terminated: boolean;
}

/**
 * One session through the SDK: `pcm` sent in 50 ms frames (at real time when `paced`, else as fast as the
 * engine's 10 s burst allowance lets), then close(true) waits for Termination. `during` runs after the first frame.
 */
async function session(
  pcm: Int16Array,
  params: Partial<StreamingTranscriberParams>,
  opts: { paced?: boolean; onTurn?: (t: TurnEvent) => void; afterMs?: { at: number; run: (t: StreamingTranscriber) => void } } = {},
): Promise<Run> {
  const t = new StreamingTranscriber({ websocketBaseUrl: wss, apiKey: KEY, sampleRate: 16000, connectTimeout: 30_000, ...params });
  const run: Run = { beginId: '', turns: [], silences: [], heartbeats: 0, revisions: [], order: [], close: { code: 0, reason: '' }, terminated: false };
  t.on('open', (b) => {
    run.beginId = b.id;
    run.order.push('Begin');
  });
  t.on('turn', (e) => {
    run.turns.push(e);
    run.order.push('Turn');
    opts.onTurn?.(e);
  });
  t.on('silence', (e) => {
    run.silences.push(e);
    run.order.push('Silence');
  });
  t.on('heartbeat', () => void run.heartbeats++);
  t.on('speakerRevision', (e) => {
    run.revisions.push(e);
    run.order.push('SpeakerRevision');
  });
  t.on('close', (code, reason) => {
    run.close = { code, reason };
    run.order.push('close');
  });
  t.on('error', () => undefined);
  await t.connect();
  const frames = Math.ceil(pcm.length / 800);
  const all = new Int16Array(frames * 800);
  all.set(pcm);
  const start = Date.now();
  for (let n = 0; n < frames; n++) {
    t.sendAudio(new Uint8Array(all.buffer, n * 1600, 1600).slice().buffer);
    if (opts.afterMs && n * 50 === opts.afterMs.at) opts.afterMs.run(t);
    const due = opts.paced ? start + (n + 1) * 50 - Date.now() : n % 20 === 19 ? 1 : 0;
    if (due > 0) await new Promise((r) => setTimeout(r, due));
  }
  // close(true) returns on the server's Termination, or when the socket closed without one (the SDK then
  // calls `close` first); after a Termination it lets go of its listeners and closes the socket itself.
  await t.close(true, 0);
  run.terminated = !run.order.includes('close');
  return run;
}

const finals = (ts: TurnEvent[]) => ts.filter((t) => t.end_of_turn && !t.turn_is_formatted && t.words.length > 0);
const silence = (ms: number) => new Int16Array((ms * 16000) / 1000);
const joined = (...parts: Int16Array[]) => {
  const out = new Int16Array(parts.reduce((n, p) => n + p.length, 0));
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
};

beforeAll(async () => {
  if (!hasSpeechTools()) return;
  sandbox = engineSandbox('streaming-models-');
  const pem = selfSignedCert(sandbox.dir);
  // The SDK opens its socket with `ws` and no CA option: trust our certificate process-wide for this file.
  savedCAs = tls.getCACertificates('default');
  tls.setDefaultCACertificates([...savedCAs, readFileSync(pem.cert, 'utf8')]);
  const models = join(sandbox.dir, 'models');
  installModel(models, 'tiny-embedding', 'embedding', tinyEmbedding({ hz: MARKS }));
  oneLine = markedConversation(join(sandbox.dir, 'one'), [ABA_LINES[0] as (typeof ABA_LINES)[number]]).pcm;
  aba = markedConversation(join(sandbox.dir, 'aba'), ABA_LINES, { gapMs: 2000 });
  engine = await sandbox.start(KEY, { tls: { cert: pem.cert, key: pem.key }, modelsDir: models });
  wss = `${engine.url.replace('https:', 'wss:')}/v3/ws`;
});

afterAll(async () => {
  if (savedCAs.length) tls.setDefaultCACertificates(savedCAs);
  await sandbox?.cleanup();
});

describe.skipIf(!hasSpeechTools())('streaming as AssemblyAI streams today', () => {
  it('every SDK StreamingSpeechModel gets Begin, a final Turn and Termination', async () => {
    const runs: Run[] = [];
    // Four sessions at a time: the engine's default session limit.
    for (let i = 0; i < SDK_MODELS.length; i += 4)
      runs.push(...(await Promise.all(SDK_MODELS.slice(i, i + 4).map((speechModel) => session(oneLine, { speechModel })))));
    runs.forEach((r, i) => {
      const model = SDK_MODELS[i];
      expect(r.beginId, model).not.toBe('');
      expect(finals(r.turns).length, model).toBeGreaterThan(0);
      expect(
        finals(r.turns)
          .map((t) => t.transcript)
          .join(' '),
        model,
      ).toMatch(/morning|welcome|meeting/i);
      expect(r.terminated, `${model}: closed ${r.close.code} ${r.close.reason}`).toBe(true);
    });
  }, 180_000);

  it('sends Termination after the last Turn on the wire, for a cloud id as for none (raw socket)', async () => {
    for (const model of ['universal-3-6-pro', 'whisper-rt']) {
      const ws = new WebSocket(`${wss}?sample_rate=16000&speech_model=${model}`, { headers: { Authorization: KEY }, rejectUnauthorized: false });
      const types: string[] = [];
      ws.on('message', (d) => types.push((JSON.parse(d.toString()) as { type: string }).type));
      const closed = new Promise<number>((r) => ws.on('close', (code) => r(code)));
      await new Promise<void>((r, j) => {
        ws.once('open', () => r());
        ws.once('error', j);
      });
      // 100 ms frames, the last one padded with silence (a frame under 50 ms is refused, close 3007).
      const bytes = Buffer.alloc(Math.ceil(oneLine.byteLength / 3200) * 3200);
      Buffer.from(oneLine.buffer, oneLine.byteOffset, oneLine.byteLength).copy(bytes);
      for (let i = 0; i < bytes.length; i += 3200) ws.send(bytes.subarray(i, i + 3200));
      ws.send(JSON.stringify({ type: 'Terminate' }));
      expect(await closed).toBe(1000);
      expect(types[0]).toBe('Begin');
      expect(types).toContain('Turn');
      expect(types[types.length - 1]).toBe('Termination');
    }
  }, 60_000);

  it('acknowledgeSilence: Silence events over a silent stretch, after the speech, on the word clock; also once UpdateConfiguration turns it on', async () => {
    const pcm = joined(oneLine, silence(3000));
    const on = await session(pcm, { speechModel: 'universal-3-6-pro', acknowledgeSilence: true });
    const words = finals(on.turns).flatMap((t) => t.words);
    const lastWordEnd = Math.max(...words.map((w) => w.end));
    const audioMs = (pcm.length / 16000) * 1000;
    expect(on.silences.length).toBeGreaterThanOrEqual(2);
    for (const s of on.silences) {
      expect(s.end_ms).toBeGreaterThan(s.start_ms);
      expect(s.end_ms).toBeLessThanOrEqual(audioMs + 100);
    }
    // The silence after the turn begins where its speech fell silent, at or after its last word.
    const after = on.silences.filter((s) => s.start_ms >= lastWordEnd - 50);
    expect(after.length).toBeGreaterThanOrEqual(1);
    expect(Math.max(...on.silences.map((s) => s.end_ms))).toBeGreaterThan(audioMs - 1500);

    const off = await session(pcm, { speechModel: 'universal-3-6-pro' });
    expect(off.silences).toEqual([]);
    const later = await session(pcm, { speechModel: 'u3-rt-pro' }, { afterMs: { at: 500, run: (t) => t.updateConfiguration({ acknowledge_silence: true }) } });
    expect(later.silences.length).toBeGreaterThanOrEqual(1);
  }, 120_000);

  it('sessionHeartbeat: Heartbeat events as the audio goes', async () => {
    const r = await session(joined(oneLine, silence(1000)), { speechModel: 'universal-3-5-pro', sessionHeartbeat: true });
    expect(r.heartbeats).toBeGreaterThanOrEqual(3);
  }, 60_000);

  it('SpeakerRevision before Termination relabels the early turn of a voice named mid-session, in the SDK shape', async () => {
    // The voice A's print, as the app takes it (POST /v2/voiceprints on that voice's own audio).
    const first = aba.turns[0] as Turn;
    const up = await fetch(`${engine.url}/v2/upload`, { method: 'POST', headers: { authorization: KEY }, body: new Uint8Array(wavBytes(aba.pcm)) });
    const uploadUrl = ((await up.json()) as { upload_url: string }).upload_url;
    const vp = await fetch(`${engine.url}/v2/voiceprints`, {
      method: 'POST',
      headers: { authorization: KEY, 'content-type': 'application/json' },
      body: JSON.stringify({ upload_url: uploadUrl, segments: [{ start: first.start, end: first.end }] }),
    });
    expect(vp.status).toBe(200);
    const danaPrint = ((await vp.json()) as { embeddings: number[][] }).embeddings[0] as number[];
    await fetch(`${engine.url}/v2/voiceprints/known`, {
      method: 'PUT',
      headers: { authorization: KEY, 'content-type': 'application/json' },
      body: JSON.stringify({ threshold: 0.75, voices: [] }),
    });
    let named = false;
    const run = await session(
      aba.pcm,
      { speechModel: 'universal-3-6-pro', speakerLabels: true },
      {
        paced: true,
        // Once the first turn is labelled (a letter: nobody is named yet), the app names that voice Dana.
        onTurn: (t) => {
          if (named || !t.end_of_turn || !t.speaker_label) return;
          named = true;
          void fetch(`${engine.url}/v2/voiceprints/known`, {
            method: 'PUT',
            headers: { authorization: KEY, 'content-type': 'application/json' },
            body: JSON.stringify({ threshold: 0.75, voices: [{ name: 'Dana', model: 'tiny-embedding', vector: danaPrint }] }),
          });
        },
      },
    );
    const done = finals(run.turns);
    const voiceOf = (t: TurnEvent) => {
      const mid = t.words[Math.floor(t.words.length / 2)] as { start: number; end: number };
      return voiceAt(aba.turns, (mid.start + mid.end) / 2);
    };
    const firstA = done.find((t) => voiceOf(t) === 'A' && t.speaker_label !== 'UNKNOWN') as TurnEvent;
    expect(firstA.speaker_label).toBe('A');
    const lastA = [...done].reverse().find((t) => voiceOf(t) === 'A' && t.speaker_label !== 'UNKNOWN') as TurnEvent;
    expect(lastA.speaker_label).toBe('Dana');
    // One revision, then Termination (the SDK surfaces no Termination event; close(true) returned on it).
    expect(run.revisions.length).toBe(1);
    expect(run.terminated).toBe(true);
    const items = (run.revisions[0] as SpeakerRevisionEvent).revisions;
    const fixed = items.find((r) => r.turn_order === firstA.turn_order);
    expect(fixed?.speaker_label).toBe('Dana');
    // Only turns whose label changed; text and times as the original turn, each word with its speaker.
    expect(items.every((r) => r.speaker_label === 'Dana')).toBe(true);
    expect(fixed?.words.map((w) => [w.text, w.start, w.end])).toEqual(firstA.words.map((w) => [w.text, w.start, w.end]));
    expect(fixed?.words.every((w) => w.speaker === 'Dana')).toBe(true);
    expect(items.some((r) => done.find((t) => t.turn_order === r.turn_order && voiceOf(t) === 'B'))).toBe(false);
  }, 120_000);
});
