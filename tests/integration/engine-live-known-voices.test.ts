/**
 * Remembered voices by name in live speaker labels: the app tells the engine a voice (PUT
 * /v2/voiceprints/known, the print taken from the same voice by POST /v2/voiceprints), and a session with
 * speaker_labels through the official SDK's StreamingTranscriber labels that voice's turns with its name
 * while the other voice gets a letter. Hostile bodies answer 400 or 413, change nothing, and the engine
 * stays up.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as tls from 'node:tls';
import type { TurnEvent } from 'assemblyai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEngine } from '../../src/engine/server';
import { MAX_KNOWN_VOICES } from '../../src/shared/voices/wire';
import { installModel, MARKS, markedConversation, tinyEmbedding, voiceAt, wavBytes, type Turn } from '../fixtures/models/speakers';
import { engineSandbox, type EngineSandbox } from '../support/engine';
import { ABA_LINES, streamThroughSdk } from '../support/live-audio';
import { selfSignedCert } from '../support/tls';

const KEY = 'known-voices-key';
let sandbox: EngineSandbox;
let engine: RunningEngine;
let pcm: Int16Array;
let turns: Turn[];
let danaPrint: number[];
let savedCAs: string[] = [];

const LINES = ABA_LINES;

async function call(method: string, body?: string, key = KEY): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${engine.url}/v2/voiceprints/known`, {
    method,
    headers: { authorization: key, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body }),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

beforeAll(async () => {
  sandbox = engineSandbox('known-voices-');
  const pem = selfSignedCert(sandbox.dir);
  // The SDK opens its socket with `ws` and no CA option: trust our certificate process-wide for this file.
  savedCAs = tls.getCACertificates('default');
  tls.setDefaultCACertificates([...savedCAs, readFileSync(pem.cert, 'utf8')]);
  const models = join(sandbox.dir, 'models');
  installModel(models, 'tiny-embedding', 'embedding', tinyEmbedding({ hz: MARKS }));
  const talk = markedConversation(join(sandbox.dir, 'talk'), LINES, { gapMs: 2000 });
  pcm = talk.pcm;
  turns = talk.turns;
  engine = await sandbox.start(KEY, { tls: { cert: pem.cert, key: pem.key }, modelsDir: models });
  // Dana's print is taken as the app takes one: from a recording of her voice, by the engine's voiceprints route.
  const wav = join(sandbox.dir, 'talk.wav');
  writeFileSync(wav, wavBytes(pcm));
  const up = await fetch(`${engine.url}/v2/upload`, { method: 'POST', headers: { authorization: KEY }, body: readFileSync(wav) });
  const uploadUrl = ((await up.json()) as { upload_url: string }).upload_url;
  const first = turns[0] as Turn;
  const vp = await fetch(`${engine.url}/v2/voiceprints`, {
    method: 'POST',
    headers: { authorization: KEY, 'content-type': 'application/json' },
    body: JSON.stringify({ upload_url: uploadUrl, segments: [{ start: first.start, end: first.end }] }),
  });
  danaPrint = ((await vp.json()) as { embeddings: number[][] }).embeddings[0] as number[];
});

afterAll(async () => {
  if (savedCAs.length) tls.setDefaultCACertificates(savedCAs);
  await sandbox.cleanup();
});

const stream = (): Promise<TurnEvent[]> => streamThroughSdk(`${engine.url.replace('https:', 'wss:')}/v3/ws`, KEY, pcm, { speakerLabels: true });

const labelOf = (t: TurnEvent) => (t as TurnEvent & { speaker_label?: string }).speaker_label;

describe('remembered voices in live speaker labels', () => {
  it('labels a remembered voice by name and the other voice with a letter', async () => {
    const put = await call('PUT', JSON.stringify({ threshold: 0.75, voices: [{ name: 'Dana', model: 'tiny-embedding', vector: danaPrint }] }));
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    expect(put.body).toEqual({ threshold: 0.75, voices: [{ name: 'Dana', model: 'tiny-embedding' }] });
    const done = (await stream()).filter((t) => t.end_of_turn && !t.turn_is_formatted && t.words.length > 0);
    expect(done.length).toBeGreaterThanOrEqual(3);
    for (const t of done) {
      const mid = t.words[Math.floor(t.words.length / 2)] as { start: number; end: number };
      const label = labelOf(t);
      // A fragment under a second of speech may be UNKNOWN; every other turn is Dana's (voice A) or the first unnamed voice's.
      if (label !== 'UNKNOWN') expect(label, t.transcript).toBe(voiceAt(turns, (mid.start + mid.end) / 2) === 'A' ? 'Dana' : 'A');
    }
    const labels = done.map(labelOf).filter((l) => l !== 'UNKNOWN');
    expect(labels.filter((l, i) => l !== labels[i - 1])).toEqual(['Dana', 'A', 'Dana']);
  });

  it('answers 400 or 413 to hostile bodies, keeps what it held, and stays up', async () => {
    const ok = { threshold: 0.75, voices: [{ name: 'Dana', model: 'tiny-embedding', vector: danaPrint }] };
    expect((await call('PUT', JSON.stringify(ok))).status).toBe(200);
    const voice = (name: string, vector: unknown = [1, 0], model = 'tiny-embedding') => ({ name, model, vector });
    const hostile: [unknown, RegExp][] = [
      [{ ...ok, voices: Array.from({ length: MAX_KNOWN_VOICES + 1 }, (_, i) => voice(`P${i}`)) }, /voices/],
      [{ ...ok, voices: [voice('Lee', [1, 0]), voice('Kim', [1, 0, 0])] }, /voices\.1\.vector: has 3 values/],
      [{ ...ok, voices: [voice('Lee', new Array(1025).fill(0.1))] }, /voices\.0\.vector/],
      [{ ...ok, voices: [voice('Lee', [0, 0])] }, /all zeros/],
      [{ ...ok, voices: [voice('Lee', ['1', 0])] }, /voices\.0\.vector\.0/],
      [{ ...ok, voices: [voice('Lee'), voice('lee')] }, /given twice/],
      [{ ...ok, voices: [voice('Lee\u0000')] }, /control characters/],
      [{ ...ok, voices: [voice('')] }, /voices\.0\.name/],
      [{ ...ok, threshold: 2 }, /threshold/],
      [{ voices: [] }, /threshold/],
      [{ ...ok, extra: true }, /extra|Unrecognized/i],
      [[], /body/],
    ];
    for (const [body, why] of hostile) {
      const r = await call('PUT', JSON.stringify(body));
      expect(r.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(String(r.body.error)).toMatch(why);
    }
    expect((await call('PUT', '{"threshold": 0.5, "voices": [')).status).toBe(400);
    expect((await call('PUT', '')).status).toBe(400);
    expect((await call('PUT', JSON.stringify({ threshold: 0.5, voices: [], pad: 'x'.repeat(9 * 1024 * 1024) }))).status).toBe(413);
    expect((await call('PUT', JSON.stringify(ok), 'wrong-key')).status).toBe(401);
    expect((await call('GET', undefined, 'wrong-key')).status).toBe(401);
    // Nothing hostile replaced what the engine held, and it still answers.
    expect((await call('GET')).body).toEqual({ threshold: 0.75, voices: [{ name: 'Dana', model: 'tiny-embedding' }] });
    expect((await fetch(`${engine.url}/health`)).status).toBe(200);
    // An empty list forgets them all.
    expect((await call('PUT', JSON.stringify({ threshold: 0.75, voices: [] }))).body).toEqual({ threshold: 0.75, voices: [] });
  });
});
