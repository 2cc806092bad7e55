/**
 * Live speaker labels on /v3/ws through the official SDK's StreamingTranscriber (over wss, which it
 * requires): two flite voices take turns A/B/A, each turn marked by a quiet tone that the tiny embedding
 * model hears as the voice (tests/fixtures/models/speakers.ts) while the engine's live recognizer reads the
 * words. Each finished turn carries the speaker_label of its voice; max_speakers bounds the count; with no
 * embedding model installed the session closes 3006 saying what to download.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as tls from 'node:tls';
import type { TurnEvent } from 'assemblyai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { RunningEngine } from '../../src/engine/server';
import { installModel, MARKS, markedConversation, tinyEmbedding, voiceAt, type Turn } from '../fixtures/models/speakers';
import { engineSandbox, type EngineSandbox } from '../support/engine';
import { ABA_LINES, streamThroughSdk } from '../support/live-audio';
import { selfSignedCert } from '../support/tls';

const KEY = 'live-speakers-key';
let sandbox: EngineSandbox;
let engine: RunningEngine;
let pcm: Int16Array;
let turns: Turn[];
let savedCAs: string[] = [];

const LINES = ABA_LINES;

beforeAll(async () => {
  sandbox = engineSandbox('live-speakers-');
  const pem = selfSignedCert(sandbox.dir);
  // The SDK opens its socket with `ws` and no CA option: trust our certificate process-wide for this file.
  savedCAs = tls.getCACertificates('default');
  tls.setDefaultCACertificates([...savedCAs, readFileSync(pem.cert, 'utf8')]);
  const models = join(sandbox.dir, 'models');
  installModel(models, 'tiny-embedding', 'embedding', tinyEmbedding({ hz: MARKS }));
  // Two seconds between speakers: longer than max_turn_silence, so every change of voice ends a turn.
  const talk = markedConversation(join(sandbox.dir, 'talk'), LINES, { gapMs: 2000 });
  pcm = talk.pcm;
  turns = talk.turns;
  engine = await sandbox.start(KEY, { tls: { cert: pem.cert, key: pem.key }, modelsDir: models });
});

afterAll(async () => {
  if (savedCAs.length) tls.setDefaultCACertificates(savedCAs);
  await sandbox.cleanup();
});

async function stream(params: { speakerLabels?: boolean; maxSpeakers?: number }): Promise<TurnEvent[]> {
  return streamThroughSdk(`${engine.url.replace('https:', 'wss:')}/v3/ws`, KEY, pcm, params);
}

/**
 * The three sessions the first two tests read, streamed side by side (the conversation plays at real time, so one
 * pass instead of two): each is its own /v3/ws session with its own parameters, and each test awaits its own.
 */
let sessions: Record<'labelled' | 'oneSpeaker' | 'plain', Promise<TurnEvent[]>> | undefined;
function sessionsOnce(): NonNullable<typeof sessions> {
  sessions ??= { labelled: stream({ speakerLabels: true }), oneSpeaker: stream({ speakerLabels: true, maxSpeakers: 1 }), plain: stream({}) };
  // A session that fails is reported by the test that awaits it, not as an unhandled rejection before then.
  for (const p of Object.values(sessions)) p.catch(() => undefined);
  return sessions;
}

const finals = (ts: TurnEvent[]) => ts.filter((t) => t.end_of_turn && !t.turn_is_formatted && t.words.length > 0);

describe('live speaker labels', () => {
  it('labels the finished turns of two voices A, B, A through the SDK, by voice', async () => {
    const got = await sessionsOnce().labelled;
    const done = finals(got);
    expect(done.length).toBeGreaterThanOrEqual(3);
    for (const t of done) {
      const mid = t.words[Math.floor(t.words.length / 2)] as { start: number; end: number };
      const voice = voiceAt(turns, (mid.start + mid.end) / 2);
      const label = (t as TurnEvent & { speaker_label?: string }).speaker_label;
      // A fragment under a second of speech may be UNKNOWN (as the spec allows); every other turn is its voice.
      if (label !== 'UNKNOWN') expect(label, t.transcript).toBe(voice);
    }
    const labels = done.map((t) => (t as TurnEvent & { speaker_label?: string }).speaker_label).filter((l) => l !== 'UNKNOWN');
    expect(labels.filter((l, i) => l !== labels[i - 1])).toEqual(['A', 'B', 'A']);
    // Partial turns carry no label; the label comes with the finished turn.
    expect(got.filter((t) => !t.end_of_turn).every((t) => !('speaker_label' in t))).toBe(true);
  });

  it('max_speakers=1 keeps every turn on one speaker; without speaker_labels turns carry no label', async () => {
    const [one, plain] = await Promise.all([sessionsOnce().oneSpeaker, sessionsOnce().plain]);
    const labels = finals(one).map((t) => (t as TurnEvent & { speaker_label?: string }).speaker_label);
    expect(labels.length).toBeGreaterThanOrEqual(3);
    expect(new Set(labels.filter((l) => l !== 'UNKNOWN'))).toEqual(new Set(['A']));
    expect(finals(plain).length).toBeGreaterThan(0);
    expect(plain.every((t) => !('speaker_label' in t))).toBe(true);
  });

  it('closes 3006 for a bad max_speakers, and names the model to download when none is installed', async () => {
    const closeOf = async (e: RunningEngine, query: string): Promise<{ code: number; reason: string }> => {
      const ws = new WebSocket(`${e.url.replace(/^http/, 'ws')}/v3/ws?${query}`, { headers: { Authorization: KEY }, rejectUnauthorized: false });
      ws.on('error', () => undefined);
      return new Promise((r) => ws.on('close', (code, reason) => r({ code, reason: reason.toString() })));
    };
    for (const q of ['speaker_labels=true&max_speakers=0', 'speaker_labels=true&max_speakers=11', 'speaker_labels=true&max_speakers=2.5']) {
      const c = await closeOf(engine, q);
      expect(c.code, q).toBe(3006);
      expect(c.reason).toMatch(/max_speakers/);
    }
    const bare = await sandbox.start(KEY, { data: 'bare', modelsDir: join(sandbox.dir, 'no-models') });
    const c = await closeOf(bare, 'speaker_labels=true');
    expect(c.code).toBe(3006);
    expect(c.reason).toMatch(/speaker-embedding model .*Settings → Models/);
  });
});
