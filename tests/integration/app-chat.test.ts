/**
 * Chat over recordings through main's services against the real local engine:
 * the offline extractive model quotes and cites the right moment; an
 * OpenAI-compatible upstream (a real HTTP server) streams an answer whose
 * citation is found and saved; Stop keeps what arrived; the engine's limiter
 * makes the chat wait and retry by itself; actions answer in JSON schemas.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCore, type Core } from '../../src/main/core';
import { createHostPlatform } from '../../src/main/platform/host';
import type { ChatMessage } from '../../src/shared/chat/schema';
import type { Word } from '../../src/shared/library';
import { startUpstream, type Upstream } from '../fixtures/openai-upstream';
import { addCompleted } from '../support/library';
import { call } from '../support/router';

const dir = mkdtempSync(join(tmpdir(), 'verbatim-app-chat-'));
let upstream: Upstream;
let core: Core;
const events: { event: string; payload: unknown }[] = [];

function wordsOf(sentences: [number, string][]): Word[] {
  const out: Word[] = [];
  for (const [start, text] of sentences) {
    text.split(' ').forEach((w, i) => out.push({ text: w, start: start + i * 300, end: start + i * 300 + 250, confidence: 0.9, speaker: null }));
  }
  return out;
}

function addTranscript(title: string, sentences: [number, string][]): string {
  const words = wordsOf(sentences);
  const { recordingId } = addCompleted(core.library, title, words);
  return recordingId;
}

async function until<T>(fn: () => T | undefined, ms = 20_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = fn();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
}

function finished(chatId: string, messageId: number) {
  return until(() => {
    const e = events.find(
      (x) =>
        x.event === 'chat.message' &&
        (x.payload as { chatId: string; message: { id: number } }).message.id === messageId &&
        (x.payload as { chatId: string }).chatId === chatId,
    );
    return e ? (e.payload as { message: ChatMessage }).message : undefined;
  }, 60_000);
}

let standup: string;
let review: string;

beforeAll(async () => {
  upstream = await startUpstream({ pieceDelayMs: 15 });
  const dataDir = join(dir, 'data');
  mkdirSync(join(dataDir, 'engine'), { recursive: true });
  writeFileSync(
    join(dataDir, 'engine', 'gateway.json'),
    JSON.stringify({ upstreams: [{ baseUrl: upstream.baseUrl, models: [{ id: 'test-llm', context_length: 32000 }] }], limits: { 'test-llm': 100 } }),
  );
  delete process.env.ASSEMBLYAI_API_KEY;
  core = createCore(createHostPlatform({ dataDir, version: 't', keyFile: join(dir, 'k') }), () => true, { log: () => undefined });
  core.router.subscribe((event, payload) => events.push({ event, payload }));
  standup = addTranscript('Monday standup', [
    [0, 'Good morning everyone.'],
    [4000, 'The river project is two weeks late.'],
    [9000, 'Dana will send the revised budget on Friday.'],
  ]);
  review = addTranscript('Quarterly review', [
    [0, 'Welcome to the review.'],
    [65_000, 'Revenue grew eleven percent this quarter.'],
  ]);
});

afterAll(async () => {
  await core?.dispose();
  await upstream?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('chat over recordings', () => {
  it('lists the region models with the extractive one marked as not generative', async () => {
    const { models, defaultModel } = await call(core.router, 'chat.models', { fresh: true });
    expect(models.find((m) => m.id === 'verbatim-extractive')?.generative).toBe(false);
    expect(models.find((m) => m.id === 'test-llm')).toMatchObject({ generative: true, contextLength: 32000 });
    expect(defaultModel).toBe('test-llm');
  });

  it('answers with the extractive model by quoting the sentence and citing its moment', async () => {
    const chat = await call(core.router, 'chat.create', { scope: 'recordings', recordingIds: [standup], model: 'verbatim-extractive' });
    const { answer } = await call(core.router, 'chat.send', { id: chat.id, text: 'Who sends the revised budget?' });
    const done = await finished(chat.id, answer.id);
    expect(done.status).toBe('done');
    expect(done.content).toContain('Dana will send the revised budget on Friday.');
    expect(done.citations).toContainEqual(expect.objectContaining({ recordingId: standup, atMs: 9000 }));
    expect(done.sources).toEqual([expect.objectContaining({ recordingId: standup, title: 'Monday standup' })]);
  });

  it('streams an upstream answer over the whole library, citing the right recording', async () => {
    const chat = await call(core.router, 'chat.create', { scope: 'library' });
    expect(chat.title).toBe('Whole library');
    const { answer } = await call(core.router, 'chat.send', { id: chat.id, text: 'How much did revenue grow this quarter?' });
    const done = await finished(chat.id, answer.id);
    expect(done.status).toBe('done');
    expect(done.model).toBe('test-llm');
    const deltas = events.filter((e) => e.event === 'chat.delta' && (e.payload as { chatId: string }).chatId === chat.id);
    expect(deltas.length).toBeGreaterThan(1);
    expect(done.citations).toEqual([expect.objectContaining({ recordingId: review, atMs: 65_000 })]);
    expect(done.sources.map((s) => s.recordingId)).toEqual([review]);
    const saved = await call(core.router, 'chat.get', { id: chat.id });
    expect(saved.messages.map((m) => m.role)).toEqual(['user', 'assistant']);
    expect(saved.model).toBe('test-llm');
    const found = await call(core.router, 'chat.list', { query: 'revenue' });
    expect(found.chats.map((c) => c.id)).toContain(chat.id);
    const md = await call(core.router, 'chat.export', { id: chat.id });
    expect(md.content).toContain('## How much did revenue grow this quarter?');
    expect(md.content).toContain('Quarterly review @ 01:05');
  });

  it('credits no model when the app answers in its own words (no transcript holds the question’s words)', async () => {
    const chat = await call(core.router, 'chat.create', { scope: 'library', model: 'test-llm' });
    const { answer } = await call(core.router, 'chat.send', { id: chat.id, text: 'Zebras xylophone quokka?' });
    const done = await finished(chat.id, answer.id);
    expect(done.status).toBe('done');
    expect(done.content).toMatch(/^No transcript in the library contains/);
    expect(done.model).toBeNull();
    expect((await call(core.router, 'chat.get', { id: chat.id })).messages.at(-1)?.model).toBeNull();
  });

  it('runs action items and summary as JSON-schema answers and saves them with the transcript', async () => {
    const items = await call(core.router, 'insights.run', { id: standup, kind: 'action_items', model: 'test-llm' });
    expect(items.result).toEqual({
      kind: 'action_items',
      items: [
        { owner: 'Dana', task: 'Send the revised budget', due: 'Friday' },
        { owner: null, task: 'Book the venue', due: null },
      ],
    });
    const fr = await call(core.router, 'insights.run', { id: standup, kind: 'translation', language: 'French', model: 'test-llm' });
    expect(fr.result.kind === 'translation' && fr.result.paragraphs[0]?.translated.startsWith('[FR] ')).toBe(true);
    const { insights } = await call(core.router, 'insights.list', { id: standup });
    expect(insights.map((i) => i.kind)).toEqual(['action_items', 'translation']);
    const req = upstream.requests.find((r) => (r.response_format as { json_schema?: { name?: string } } | undefined)?.json_schema?.name === 'action_items');
    expect(req).toBeDefined();
  });

  it('says what translation needs when only the extractive model is chosen', async () => {
    await expect(
      call(core.router, 'insights.run', { id: standup, kind: 'translation', language: 'German', model: 'verbatim-extractive' }),
    ).rejects.toMatchObject({
      code: 'unavailable',
      message: expect.stringMatching(/needs a language model/i),
    });
  });
});
