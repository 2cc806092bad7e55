/**
 * The gateway's request bounds (issue 12.10): bodies over 2 MB answer 413
 * with what to send instead, and the offline extractive model's work is
 * bounded however the request is built (long pasted text, one transcript
 * named thousands of times, a transcript longer than the passage cap).
 */
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_PASSAGES, scoringEvents } from '../../src/engine/gateway/extractive';
import type { TranscriptParams, TranscriptResult } from '../../src/engine/store';
import { GATEWAY_BODY_LIMIT } from '../../src/engine/routes/gateway';
import { startEngine, type RunningEngine } from '../../src/engine/server';

const KEY = 'k-chat-limits';
const LONG_ID = 'b0000000-0000-4000-8000-000000000001';
let dir: string;
let engine: RunningEngine;

function storeTranscript(id: string, sentences: string[]): void {
  const params = {
    audio_url: 'http://example.invalid/a.wav',
    speech_models: ['universal-2'],
    punctuate: true,
    format_text: true,
  } as unknown as TranscriptParams;
  const result = {
    text: sentences.join(' '),
    words: [],
    sentences: sentences.map((text, i) => ({ text, start: i * 2000, end: i * 2000 + 1900, confidence: 0.9, words: [], speaker: null, channel: null })),
    confidence: 0.9,
    audio_duration: sentences.length * 2,
    speech_model_used: 'universal-2',
    warnings: [],
  } as unknown as TranscriptResult;
  engine.ctx.store.insertTranscript(id, params, null);
  engine.ctx.store.complete(id, result, null);
}

async function chat(body: unknown): Promise<{ status: number; json: Record<string, unknown> }> {
  const res = await fetch(`${engine.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: KEY, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
}

const answer = (r: { json: Record<string, unknown> }) => (r.json.choices as { message: { content: string } }[])[0]?.message.content ?? '';

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'engine-chat-limits-'));
  engine = await startEngine({ host: '127.0.0.1', port: 0, apiKey: KEY, dataDir: join(dir, 'data'), workers: 1, quiet: true });
  const sentences = Array.from({ length: MAX_PASSAGES + 5000 }, (_, i) => `Filler sentence number ${i} about routine matters.`);
  sentences[MAX_PASSAGES - 10] = 'The lighthouse keeper signed the contract on Tuesday.';
  sentences[MAX_PASSAGES + 100] = 'The zeppelin arrived late.';
  storeTranscript(LONG_ID, sentences);
});

afterAll(async () => {
  await engine.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('gateway request bodies', () => {
  it('answers 413 to a chat body over 2 MB, saying to name transcripts instead of pasting them', async () => {
    const big = { model: 'verbatim-extractive', messages: [{ role: 'user', content: 'x'.repeat(GATEWAY_BODY_LIMIT) }] };
    const r = await chat(big);
    expect(r.status).toBe(413);
    expect((r.json.error as { message: string }).message).toMatch(/larger than 2 MB.*transcript_id/);
  });

  it('answers 413 to a chunked body (no Content-Length) as soon as it passes 2 MB', async () => {
    const piece = Buffer.alloc(256 * 1024, 0x61);
    let sent = 0;
    const body = Readable.from(
      (function* () {
        for (let i = 0; i < 40; i++) {
          sent += piece.length;
          yield piece;
        }
      })(),
    );
    const res = await fetch(`${engine.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: KEY, 'content-type': 'application/json' },
      body: Readable.toWeb(body) as ReadableStream,
      duplex: 'half',
    } as RequestInit);
    expect(res.status).toBe(413);
    expect(sent).toBeGreaterThan(GATEWAY_BODY_LIMIT);
    expect(((await res.json()) as { error: { message: string } }).error.message).toMatch(/larger than 2 MB/);
  });

  it('answers 413 on /v1/understanding too, and keeps serving', async () => {
    const res = await fetch(`${engine.url}/v1/understanding`, {
      method: 'POST',
      headers: { authorization: KEY, 'content-type': 'application/json' },
      body: JSON.stringify({ transcript_id: 'x', pad: 'y'.repeat(GATEWAY_BODY_LIMIT) }),
    });
    expect(res.status).toBe(413);
    expect((await fetch(`${engine.url}/health`)).status).toBe(200);
  });

  it('still answers a pasted text just under the limit', async () => {
    const filler = 'Nothing in particular happened that afternoon. '.repeat(Math.floor((GATEWAY_BODY_LIMIT - 4096) / 48));
    const r = await chat({
      model: 'verbatim-extractive',
      messages: [{ role: 'user', content: `${filler} The harbour master rang the brass bell at noon. When did the harbour master ring the bell?` }],
    });
    expect(r.status).toBe(200);
    expect(answer(r)).toMatch(/harbour master rang the brass bell/);
  });
});

describe('extractive work is bounded', () => {
  it('searches a transcript named 20,000 times once', async () => {
    const started = Date.now();
    const r = await chat({
      model: 'verbatim-extractive',
      transcript_ids: Array.from({ length: 20_000 }, () => LONG_ID),
      messages: [{ role: 'user', content: 'When did the lighthouse keeper sign the contract?' }],
    });
    expect(r.status).toBe(200);
    expect(answer(r)).toMatch(/lighthouse keeper signed the contract/);
    expect(answer(r).match(/lighthouse keeper/g)).toHaveLength(1);
    // Printed, not asserted: the shared CPU decides the wall time.
    console.log(`extractive over ${MAX_PASSAGES} passages, id listed 20,000 times: ${Date.now() - started} ms`);
  });

  it('searches the first 50,000 sentences of a longer transcript and says so', async () => {
    const r = await chat({ model: 'verbatim-extractive', transcript_id: LONG_ID, messages: [{ role: 'user', content: 'When did the zeppelin arrive?' }] });
    expect(r.status).toBe(200);
    expect(answer(r)).not.toMatch(/zeppelin arrived/);
    expect(answer(r)).toMatch(/Only the first 50,000 sentences were searched/);
  });

  it('answers /health while a long extractive request is being scored', async () => {
    // Proved by the order of events, not by time: /health is asked once the
    // engine says scoring has started (50,000 passages, scored in slices that
    // yield), and must be answered before it says scoring has ended.
    const events: string[] = [];
    const onScored = () => events.push('scored');
    scoringEvents.once('scored', onScored);
    const started = once(scoringEvents, 'scoring');
    const pending = chat({
      model: 'verbatim-extractive',
      transcript_id: LONG_ID,
      messages: [{ role: 'user', content: 'routine matters filler sentence' }],
    }).then((r) => {
      events.push('chat answered');
      return r;
    });
    const [passages] = (await started) as [number];
    events.push('scoring');
    expect(passages).toBe(MAX_PASSAGES);
    const h = await fetch(`${engine.url}/health`);
    events.push(`health ${h.status}`);
    const r = await pending;
    expect(r.status).toBe(200);
    expect(events).toEqual(['scoring', 'health 200', 'scored', 'chat answered']);
  });
});
