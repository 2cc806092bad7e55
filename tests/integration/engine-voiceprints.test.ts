/**
 * POST /v2/voiceprints on the local engine: the voiceprint of each stretch of an uploaded two-voice file
 * (the tiny embedding model hears each flite voice's mark), with no recognition; bad requests answer 400
 * naming the problem, and an engine with no embedding model says what to download.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEngine } from '../../src/engine/server';
import { cosine } from '../../src/shared/voices/cluster';
import { installModel, MARKS, markedConversation, tinyEmbedding, TWO_VOICES, wavBytes, type Turn } from '../fixtures/models/speakers';
import { engineSandbox, type EngineSandbox } from '../support/engine';

const KEY = 'voiceprints-key';
let sandbox: EngineSandbox;
let engine: RunningEngine;
let turns: Turn[];
let uploadUrl: string;

async function post(e: RunningEngine, path: string, body: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${e.url}${path}`, {
    method: 'POST',
    headers: { authorization: KEY, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

beforeAll(async () => {
  sandbox = engineSandbox('engine-voiceprints-');
  const models = join(sandbox.dir, 'models');
  installModel(models, 'tiny-embedding', 'embedding', tinyEmbedding({ hz: MARKS }));
  const talk = markedConversation(join(sandbox.dir, 'talk'), TWO_VOICES);
  turns = talk.turns;
  const wav = join(sandbox.dir, 'two.wav');
  writeFileSync(wav, wavBytes(talk.pcm));
  engine = await sandbox.start(KEY, { modelsDir: models });
  const up = await fetch(`${engine.url}/v2/upload`, { method: 'POST', headers: { authorization: KEY }, body: readFileSync(wav) });
  uploadUrl = ((await up.json()) as { upload_url: string }).upload_url;
});
afterAll(() => sandbox.cleanup());

describe('POST /v2/voiceprints', () => {
  it('answers one voiceprint per stretch: the same voice alike, the other voice apart', async () => {
    const r = await post(engine, '/v2/voiceprints', {
      upload_url: uploadUrl,
      segments: [...turns.map((t) => ({ start: t.start, end: t.end })), { start: 0, end: 50 }],
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.model).toBe('tiny-embedding');
    const e = r.body.embeddings as (number[] | null)[];
    expect(e.length).toBe(turns.length + 1);
    expect(e[turns.length]).toBeNull();
    const [a1, b1, a2, b2] = e as number[][];
    expect(cosine(a1!, a2!)).toBeGreaterThan(0.9);
    expect(cosine(b1!, b2!)).toBeGreaterThan(0.9);
    expect(cosine(a1!, b1!)).toBeLessThan(0.3);
  });

  it('answers 400 for a file it did not receive, bad segments, or no embedding model', async () => {
    const cases: [unknown, RegExp][] = [
      [{ upload_url: 'https://example.com/x.wav', segments: [{ start: 0, end: 100 }] }, /uploaded to this engine/],
      [{ upload_url: uploadUrl, segments: [] }, /segments/],
      [{ upload_url: uploadUrl, segments: [{ start: 500, end: 100 }] }, /ends after it starts/],
      [{ upload_url: uploadUrl }, /segments/],
    ];
    for (const [body, re] of cases) {
      const r = await post(engine, '/v2/voiceprints', body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(String(r.body.error)).toMatch(re);
    }
    const bare = await sandbox.start(KEY, { data: 'bare', modelsDir: join(sandbox.dir, 'none') });
    const up = await fetch(`${bare.url}/v2/upload`, { method: 'POST', headers: { authorization: KEY }, body: Buffer.alloc(3200) });
    const url = ((await up.json()) as { upload_url: string }).upload_url;
    const r = await post(bare, '/v2/voiceprints', { upload_url: url, segments: [{ start: 0, end: 100 }] });
    expect(r.status).toBe(400);
    expect(String(r.body.error)).toMatch(/Voiceprints need a speaker-embedding model .*Settings → Models/);
  });
});
