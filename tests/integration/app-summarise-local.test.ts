/**
 * The one summariser over a transcript far longer than the model's context,
 * through main's services and the real local engine with tiny GGUF models
 * written by the test (each answers a fixed sentence whatever the prompt):
 * - the transcript's summary is read in parts (progress counts them) and its
 *   citations span the first and the last part: each part's notes keep the
 *   citations of that part only, and the final answer may cite only what the
 *   notes cite;
 * - "What did I miss?" over a long stretch goes the same way;
 * - a translation covers every paragraph, the last one included, in parts;
 * - a model whose context cannot hold even one part says what to choose instead.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCore, type Core } from '../../src/main/core';
import { createHostPlatform } from '../../src/main/platform/host';
import { writeMissed } from '../../src/main/services/captions/missed';
import type { LiveTurn } from '../../src/shared/captions';
import type { MissedSummary } from '../../src/shared/captions-extras';
import type { Word } from '../../src/shared/library';
import { fixedSentence, installTinyGguf } from '../fixtures/models/gguf';
import { addCompleted } from '../support/library';
import { call } from '../support/router';

const dir = mkdtempSync(join(tmpdir(), 'verbatim-app-summarise-'));
let core: Core;
const events: { event: string; payload: unknown }[] = [];
/** 1,200 sentences 2 s apart: the last is said at 39:58. */
const COUNT = 1200;
const LAST = '39:58';
const SUMMARY = ['Plans', '[Long review @ 00:00]', 'and', 'wrap-up', `[Long review @ ${LAST}]`, '.'];
const MISSED = ['Catch', 'up', '[00:00]', 'and', `[${LAST}]`, '.'];
const TRANSLATED = ['Revue', 'traduite', '.'];
let long: string;

const textOf = (i: number) => `Item ${i} of the long review was discussed at length today.`;

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
    ...Array.from({ length: COUNT }, (_, i) => String(i)),
  ];
  for (let s = 0; s < COUNT * 2; s += 2) {
    const clock = `${String(Math.floor(s / 60)).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}`;
    vocabulary.push(`${clock}]`, `[${clock}]`);
  }
  const models = join(dataDir, 'models');
  installTinyGguf(models, 'tiny-summary', { words: SUMMARY, vocabulary });
  installTinyGguf(models, 'tiny-missed', { words: MISSED, vocabulary });
  installTinyGguf(models, 'tiny-translate', { words: TRANSLATED, vocabulary });
  installTinyGguf(models, 'tiny-small', { words: SUMMARY, contextLength: 1024 });
  delete process.env.ASSEMBLYAI_API_KEY;
  core = createCore(createHostPlatform({ dataDir, version: 't', keyFile: join(dir, 'k') }), () => true, { log: () => undefined });
  core.router.subscribe((event, payload) => events.push({ event, payload }));
  const words: Word[] = Array.from({ length: COUNT }, (_, i) => textOf(i)).flatMap((text, i) =>
    text.split(' ').map((w, j) => ({ text: w, start: i * 2000 + j * 150, end: i * 2000 + j * 150 + 120, confidence: 0.9, speaker: null })),
  );
  long = addCompleted(core.library, 'Long review', words).recordingId;
});

afterAll(async () => {
  await core?.dispose();
  rmSync(dir, { recursive: true, force: true });
});

function progressOf(kind: string): { done: number; total: number }[] {
  return events
    .filter((e) => e.event === 'insights.progress' && (e.payload as { kind: string; recordingId: string }).kind === kind)
    .map((e) => e.payload as { done: number; total: number });
}

describe('one summariser reads to the end', () => {
  it('summarises a transcript over three times the context in parts, citing its first and its last part', async () => {
    const { models } = await call(core.router, 'chat.models', { fresh: true });
    expect(models.find((m) => m.id === 'tiny-summary')).toMatchObject({ contextLength: 4096 });
    const insight = await call(core.router, 'insights.run', { id: long, kind: 'summary', model: 'tiny-summary' });
    expect(insight.result.kind).toBe('summary');
    const bullets = insight.result.kind === 'summary' ? insight.result.bullets : [];
    // Both citations survive: the first part's notes cite 00:00, the last part's 39:58, and the answer cites only those.
    expect(bullets.join(' ')).toContain('[Long review @ 00:00]');
    expect(bullets.join(' ')).toContain(`[Long review @ ${LAST}]`);
    const progress = progressOf('summary');
    const total = progress[0]?.total ?? 0;
    expect(total).toBeGreaterThanOrEqual(4);
    expect(progress.map((p) => p.done)).toEqual(Array.from({ length: total + 1 }, (_, i) => i));
    expect(progress.at(-1)).toEqual({ recordingId: long, kind: 'summary', done: total, total });
  });

  it('answers "What did I miss?" over a stretch longer than the context, citing its start and its end', async () => {
    const gateway = await core.clients.gateway();
    const turns: LiveTurn[] = Array.from({ length: COUNT }, (_, i) => ({
      key: `t${i}`,
      run: 1,
      source: 'mic',
      turnOrder: i,
      startMs: i * 2000,
      endMs: i * 2000 + 1800,
      text: textOf(i),
      final: true,
      speaker: null,
    })) as unknown as LiveTurn[];
    const updates: MissedSummary[] = [];
    const done = await writeMissed(
      { recordingId: long, fromMs: 0, toMs: COUNT * 2000, turns },
      {
        model: 'tiny-missed',
        generative: true,
        contextLength: 4096,
        stream: (m, d, s) => gateway.chatStream({ model: 'tiny-missed', messages: m, max_tokens: 200 }, d, s),
      },
      (s) => updates.push(s),
      new AbortController().signal,
    );
    expect(done.status, done.error ?? '').toBe('done');
    expect(done.citations.map((c) => c.label)).toEqual(['00:00', LAST]);
    const parts = updates.filter((u) => u.parts).map((u) => u.parts!);
    expect(parts[0]!.total).toBeGreaterThanOrEqual(4);
    expect(parts.at(-1)).toEqual({ done: parts[0]!.total, total: parts[0]!.total });
  });

  it('translates every paragraph, the last one included, in parts', async () => {
    const transcript = core.library.transcripts.get(long);
    const paragraphs = transcript.paragraphs.length ? transcript.paragraphs : transcript.sentences;
    const insight = await call(core.router, 'insights.run', { id: long, kind: 'translation', language: 'French', model: 'tiny-translate' });
    if (insight.result.kind !== 'translation') throw new Error('not a translation');
    expect(insight.result.paragraphs).toHaveLength(paragraphs.length);
    expect(insight.result.paragraphs.at(-1)).toMatchObject({
      original: paragraphs.at(-1)!.text,
      translated: expect.stringContaining(fixedSentence(TRANSLATED)),
    });
    expect(insight.result.paragraphs.every((p) => p.translated.length > 0)).toBe(true);
    const progress = progressOf('translation');
    expect(progress[0]!.total).toBeGreaterThan(1);
    expect(progress.at(-1)!.done).toBe(progress[0]!.total);
  });

  it('says what to choose when the model cannot read even one part', async () => {
    await expect(call(core.router, 'insights.run', { id: long, kind: 'summary', model: 'tiny-small' })).rejects.toMatchObject({
      code: 'unavailable',
      message: expect.stringMatching(/reads only 1024 tokens.*Choose a model with a larger context/),
    });
  });
});
