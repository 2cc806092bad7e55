/**
 * Chat with a local GGUF model through main's services and the real local
 * engine, with tiny llama models written by the test: with no key the chat
 * picks the installed model; an answer's citations are kept only when they
 * point at a passage the model was given (the model's fixed sentence cites
 * one real moment and one invented one); a recording too long for the
 * model's context is summarised part by part (map-reduce) with progress.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCore, type Core } from '../../src/main/core';
import { createHostPlatform } from '../../src/main/platform/host';
import type { ChatMessage } from '../../src/shared/chat/schema';
import type { Word } from '../../src/shared/library';
import { installTinyGguf } from '../fixtures/models/gguf';
import { addCompleted } from '../support/library';
import { call } from '../support/router';

const dir = mkdtempSync(join(tmpdir(), 'verbatim-app-chat-local-'));
let core: Core;
const events: { event: string; payload: unknown }[] = [];
/** The model's fixed answer: one citation of a line it was given (00:05), one invented (07:42). */
const CITING = ['Shipping', 'is', 'Friday', '[Launch meeting @ 00:05]', 'and', 'slides', 'go', 'out', '[Launch meeting @ 07:42]', '.'];

function wordsOf(sentences: [number, string][]): Word[] {
  return sentences.flatMap(([start, text]) =>
    text.split(' ').map((w, i) => ({ text: w, start: start + i * 300, end: start + i * 300 + 250, confidence: 0.9, speaker: null })),
  );
}

async function finished(chatId: string, messageId: number): Promise<ChatMessage> {
  const end = Date.now() + 90_000;
  for (;;) {
    const e = events.find((x) => {
      const p = x.payload as { chatId?: string; message?: { id: number } };
      return x.event === 'chat.message' && p.chatId === chatId && p.message?.id === messageId;
    });
    if (e) return (e.payload as { message: ChatMessage }).message;
    if (Date.now() > end) throw new Error('timed out waiting for the answer');
    await new Promise((r) => setTimeout(r, 20));
  }
}

let launch: string;
let long: string;

beforeAll(async () => {
  const dataDir = join(dir, 'data');
  // The words of the long transcript are whole tokens, so it takes about as many tokens a character as a real model's text.
  const vocabulary = [
    '[Long',
    'review',
    '@',
    'Item',
    'of',
    'the',
    'long',
    'was',
    'discussed',
    'at',
    'length',
    'today.',
    ...Array.from({ length: 600 }, (_, i) => String(i)),
  ];
  for (let s = 0; s < 2400; s += 4) vocabulary.push(`${String(Math.floor(s / 60)).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}]`);
  installTinyGguf(join(dataDir, 'models'), 'tiny-citing', { words: CITING, vocabulary });
  delete process.env.ASSEMBLYAI_API_KEY;
  core = createCore(createHostPlatform({ dataDir, version: 't', keyFile: join(dir, 'k') }), () => true, { log: () => undefined });
  core.router.subscribe((event, payload) => events.push({ event, payload }));
  launch = addCompleted(
    core.library,
    'Launch meeting',
    wordsOf([
      [0, 'Good morning and thanks for joining.'],
      [5000, 'We agreed to ship the report on Friday.'],
      [11_000, 'Sam will send the slides to the board.'],
    ]),
  ).recordingId;
  // About 40,000 characters: far more than a 4,096-token context holds.
  const sentences: [number, string][] = Array.from({ length: 600 }, (_, i) => [i * 4000, `Item ${i} of the long review was discussed at length today.`]);
  long = addCompleted(core.library, 'Long review', wordsOf(sentences)).recordingId;
});

afterAll(async () => {
  await core?.dispose();
  rmSync(dir, { recursive: true, force: true });
});

describe('chat with a local model', () => {
  it('uses the installed local model with no key', async () => {
    const { models, defaultModel } = await call(core.router, 'chat.models', { fresh: true });
    expect(defaultModel).toBe('tiny-citing');
    expect(models.find((m) => m.id === 'tiny-citing')).toMatchObject({ generative: true, contextLength: 4096 });
  });

  it('keeps the citation of a passage the model was given and drops the one it invented', async () => {
    const chat = await call(core.router, 'chat.create', { scope: 'recordings', recordingIds: [launch] });
    const { answer } = await call(core.router, 'chat.send', { id: chat.id, text: 'When do we ship?' });
    const done = await finished(chat.id, answer.id);
    expect(done.status).toBe('done');
    expect(done.model).toBe('tiny-citing');
    expect(done.content).toBe('Shipping is Friday [Launch meeting @ 00:05] and slides go out.');
    expect(done.citations).toEqual([expect.objectContaining({ recordingId: launch, atMs: 5000 })]);
  });

  it('summarises a recording too long for the context part by part, with progress', async () => {
    const chat = await call(core.router, 'chat.create', { scope: 'recordings', recordingIds: [long] });
    const { answer } = await call(core.router, 'chat.send', { id: chat.id, text: 'Summarise this recording.' });
    const done = await finished(chat.id, answer.id);
    expect(done.status, done.error ?? '').toBe('done');
    const progress = events
      .filter((e) => e.event === 'chat.state' && (e.payload as { chatId: string }).chatId === chat.id)
      .map((e) => (e.payload as { message: string | null }).message)
      .filter((m): m is string => !!m && m.startsWith('Reading the recording'));
    const parts = Number(/in (\d+) parts/.exec(progress[0] ?? '')?.[1]);
    expect(parts).toBeGreaterThan(3);
    expect(progress).toContain(`Reading the recording in ${parts} parts: 0 of ${parts} done…`);
    expect(progress).toContain(`Reading the recording in ${parts} parts: ${parts} of ${parts} done…`);
    // The model's sentence, with its invented citations taken out (this recording has no 00:05 line).
    expect(done.content).toBe('Shipping is Friday and slides go out.');
    expect(done.citations).toEqual([]);
  });
});
