/**
 * Subtitles translated into a second track through main's services and the
 * real local engine, with tiny GGUF models written by the test (each answers
 * a fixed sentence whatever the prompt; the engine holds it to the JSON
 * schema, one string per cue):
 * - the track has the source's cue timings exactly, every cue translated,
 *   progress counted in cues;
 * - a bilingual SRT puts the source line above the translation in each cue;
 * - Stop keeps the parts done, and translating again asks only for the cues
 *   left (counted by the engine's chat calls and the progress), then for a cue
 *   whose source was edited since;
 * - a dropped connection keeps the parts done;
 * - a rate limit is waited out (and shown), and Stop ends the wait;
 * - no model that writes, or one too small for one cue, says what to install or choose.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCore, type Core } from '../../src/main/core';
import { createHostPlatform } from '../../src/main/platform/host';
import { MAX_CUES_PER_PART } from '../../src/main/services/chat/cue-translate';
import { GatewayClient } from '../../src/main/services/client/gateway';
import type { Payload } from '../../src/shared/ipc';
import type { Word } from '../../src/shared/library';
import { parseSubtitles } from '../../src/shared/subtitles/index';
import { AppError } from '../../src/shared/errors';
import { fixedSentence, installTinyGguf } from '../fixtures/models/gguf';
import { addCompleted } from '../support/library';
import { call } from '../support/router';

const dir = mkdtempSync(join(tmpdir(), 'verbatim-app-subtitle-translate-'));
let core: Core;
type Progress = Payload<'subtitles.translateProgress'>;
const progress: Progress[] = [];
const SAID = ['Bonjour', 'tout', 'le', 'monde', '.'];
/** An answer longer than one subtitle line (55 characters). */
const LONG = ['This', 'translation', 'is', 'much', 'longer', 'than', 'one', 'subtitle', 'line', '.'];
/** 300 sentences, 3 s apart: several parts of at most MAX_CUES_PER_PART cues. */
const COUNT = 300;
let talk: string;
const textOf = (i: number) => `Point ${i} of the talk matters today.`;

beforeAll(async () => {
  const dataDir = join(dir, 'data');
  const vocabulary = ['Point', 'of', 'the', 'talk', 'matters', 'today.', 'Before:', 'Translate', 'into', ...Array.from({ length: COUNT }, (_, i) => String(i))];
  const models = join(dataDir, 'models');
  installTinyGguf(models, 'tiny-subtitles', { words: SAID, vocabulary });
  // The engine reads at least 1,024 tokens whatever the file says.
  installTinyGguf(models, 'tiny-narrow', { words: SAID, contextLength: 1024 });
  installTinyGguf(models, 'tiny-limited', { words: SAID, vocabulary });
  installTinyGguf(models, 'tiny-long', { words: LONG, vocabulary });
  // The engine takes 2 requests a minute for tiny-limited: the third waits out the limit.
  mkdirSync(join(dataDir, 'engine'), { recursive: true });
  writeFileSync(join(dataDir, 'engine', 'gateway.json'), JSON.stringify({ limits: { 'tiny-limited': 2 } }));
  delete process.env.ASSEMBLYAI_API_KEY;
  core = createCore(createHostPlatform({ dataDir, version: 't', keyFile: join(dir, 'k') }), () => true, { log: () => undefined });
  core.router.subscribe((event, payload) => {
    if (event === 'subtitles.translateProgress') progress.push(payload as Progress);
  });
  const words: Word[] = Array.from({ length: COUNT }, (_, i) => textOf(i)).flatMap((text, i) =>
    text.split(' ').map((w, j) => ({ text: w, start: i * 3000 + j * 300, end: i * 3000 + j * 300 + 250, confidence: 0.9, speaker: null })),
  );
  talk = addCompleted(core.library, 'Talk', words).recordingId;
}, 120_000);

afterAll(async () => {
  await core?.dispose();
  rmSync(dir, { recursive: true, force: true });
});

const runOf = (language: string) => progress.filter((p) => p.language === language);
const timings = (id: string) => core.library.subtitles.cues(id).cues.map((c) => [c.start, c.end]);

describe('subtitles translated into a second track', () => {
  it('keeps every cue timing of the source and translates every cue, with progress by cue', async () => {
    const source = core.library.subtitles.cues(talk).cues;
    expect(source.length).toBeGreaterThan(MAX_CUES_PER_PART * 2);
    const track = await call(core.router, 'subtitles.translate', { id: talk, language: 'French', model: 'tiny-subtitles' });
    expect(track).toMatchObject({ title: 'Talk (French)', language: 'French', done: source.length, total: source.length });
    expect(timings(track.id)).toEqual(source.map((c) => [c.start, c.end]));
    const cues = core.library.subtitles.cues(track.id).cues;
    expect(cues.every((c) => c.text.includes(fixedSentence(SAID)))).toBe(true);
    const run = runOf('French');
    expect(run[0]).toMatchObject({ done: 0, total: source.length, running: true });
    expect(run.at(-1)).toMatchObject({ done: source.length, running: false });
    // One event a part: the cues arrive in parts, never all at once.
    expect(run.filter((p) => p.running && p.done > 0).length).toBeGreaterThanOrEqual(Math.ceil(source.length / MAX_CUES_PER_PART));
    // The track reads as text too, and knows what it was translated from.
    expect(core.library.transcripts.get(track.id).text).toContain('Bonjour');
    expect(await call(core.router, 'subtitles.translations', { id: track.id })).toMatchObject({ of: { sourceId: talk, language: 'French' } });
    expect((await call(core.router, 'subtitles.translations', { id: talk })).tracks).toEqual([track]);
  });

  it('exports a bilingual SRT: each cue the source line above the translation, with the source timings', async () => {
    const { tracks } = await call(core.router, 'subtitles.translations', { id: talk });
    const id = tracks[0]!.id;
    const file = await call(core.router, 'library.export', { id, format: 'srt', bilingual: true });
    expect(file.filename).toBe('Talk (French).srt');
    const bilingual = parseSubtitles(file.content).doc.cues;
    const original = parseSubtitles((await call(core.router, 'library.export', { id: talk, format: 'srt' })).content).doc.cues;
    expect(bilingual.map((c) => [c.start, c.end])).toEqual(original.map((c) => [c.start, c.end]));
    bilingual.forEach((c, i) => {
      const lines = c.text.split('\n');
      expect(lines.slice(0, -1).join('\n')).toBe(original[i]!.text);
      expect(lines.at(-1)).toBe(fixedSentence(SAID));
    });
    const only = parseSubtitles((await call(core.router, 'library.export', { id, format: 'vtt' })).content).doc.cues;
    expect(only.every((c) => c.text === fixedSentence(SAID))).toBe(true);
    // The source has no translation of its own to put under its lines.
    await expect(call(core.router, 'library.export', { id: talk, format: 'srt', bilingual: true })).rejects.toMatchObject({ code: 'bad_request' });
  });

  it('resumes after Stop without asking again for the cues done, and redoes a cue whose source changed', async () => {
    const total = core.library.subtitles.cues(talk).cues.length;
    // Stop as soon as the first part is stored.
    const off = core.router.subscribe((event, payload) => {
      const p = payload as Progress;
      if (event === 'subtitles.translateProgress' && p.language === 'German' && p.running && p.done > 0)
        void call(core.router, 'subtitles.translateStop', { id: talk });
    });
    await expect(call(core.router, 'subtitles.translate', { id: talk, language: 'German', model: 'tiny-subtitles' })).rejects.toMatchObject({
      code: 'canceled',
      message: expect.stringMatching(/cues are translated; Translate… continues from there/),
    });
    off();
    const [, german] = (await call(core.router, 'subtitles.translations', { id: talk })).tracks;
    expect(german).toMatchObject({ language: 'German', total });
    const kept = german!.done;
    expect(kept).toBeGreaterThan(0);
    expect(kept).toBeLessThan(total);
    const before = core.library.subtitles.cues(german!.id).cues;
    const asked = engineChats();
    const start = progress.length;
    const done = await call(core.router, 'subtitles.translate', { id: talk, language: 'german', model: 'tiny-subtitles' });
    expect(done).toMatchObject({ id: german!.id, done: total, total });
    const resumed = progress.slice(start);
    // It starts from the cues kept, and only the cues left are asked: one chat call a part of them.
    expect(resumed[0]).toMatchObject({ done: kept, total });
    expect(engineChats() - asked).toBe(Math.ceil((total - kept) / MAX_CUES_PER_PART));
    expect(core.library.subtitles.cues(german!.id).cues.slice(0, kept)).toEqual(before.slice(0, kept));
    expect(timings(german!.id)).toEqual(timings(talk));

    // The source's third cue edited: only it is asked again.
    const doc = core.library.subtitles.open(talk);
    core.library.subtitles.run(talk, doc.version, {
      command: 'editText',
      args: { index: 2, text: 'A changed line.' },
      view: { selection: [[2, 2]], caret: null, playheadMs: 0 },
    });
    expect((await call(core.router, 'subtitles.translations', { id: talk })).tracks.map((t) => t.done)).toEqual([total - 1, total - 1]);
    const again = engineChats();
    await call(core.router, 'subtitles.translate', { id: talk, language: 'German', model: 'tiny-subtitles' });
    expect(engineChats() - again).toBe(1);
    expect(core.library.translations.state(german!.id)!.sources[`${doc.cues[2]!.start}-${doc.cues[2]!.end}`]).toBe('A changed line.');
  });

  it('lays a translation longer than a line out in lines by the track’s rules', async () => {
    const words: Word[] = ['Short one.', 'Another one.'].flatMap((text, i) =>
      text.split(' ').map((w, j) => ({ text: w, start: i * 4000 + j * 300, end: i * 4000 + j * 300 + 250, confidence: 0.9, speaker: null })),
    );
    const short = addCompleted(core.library, 'Short', words).recordingId;
    const track = await call(core.router, 'subtitles.translate', { id: short, language: 'Dutch', model: 'tiny-long' });
    const cues = core.library.subtitles.cues(track.id).cues;
    expect(cues.length).toBeGreaterThan(0);
    for (const c of cues) {
      expect(c.text.replace('\n', ' ')).toBe(fixedSentence(LONG));
      expect(c.text.split('\n').map((l) => l.length <= 42)).toEqual([true, true]);
    }
  });

  it('keeps the parts done when the connection drops mid-way, and says so', async () => {
    const total = core.library.subtitles.cues(talk).cues.length;
    dropAt = 3;
    await expect(call(core.router, 'subtitles.translate', { id: talk, language: 'Swedish', model: 'tiny-subtitles' })).rejects.toMatchObject({
      code: 'network',
      message: `${2 * MAX_CUES_PER_PART} of ${total} cues are translated and kept; the rest stopped: The connection to the assistant was lost (ECONNRESET). Translate… again continues from there.`,
    });
    dropAt = null;
    const swedish = (await call(core.router, 'subtitles.translations', { id: talk })).tracks.find((t) => t.language === 'Swedish');
    expect(swedish?.done).toBe(2 * MAX_CUES_PER_PART);
  });

  it('waits out the model’s rate limit, shown in the progress, and Stop during the wait keeps the parts done', async () => {
    let seenAt: number | undefined;
    const off = core.router.subscribe((event, payload) => {
      const p = payload as Progress;
      if (event === 'subtitles.translateProgress' && p.language === 'Spanish' && p.waitingUntil) {
        seenAt ??= Date.now();
        void call(core.router, 'subtitles.translateStop', { id: talk });
      }
    });
    await expect(call(core.router, 'subtitles.translate', { id: talk, language: 'Spanish', model: 'tiny-limited' })).rejects.toMatchObject({
      code: 'canceled',
    });
    off();
    const waiting = runOf('Spanish').find((p) => p.waitingUntil);
    expect(Date.parse(waiting!.waitingUntil!)).toBeGreaterThan(seenAt!);
    // Two parts were let through before the limit, and are kept.
    expect(waiting!.done).toBe(2 * MAX_CUES_PER_PART);
    const spanish = (await call(core.router, 'subtitles.translations', { id: talk })).tracks.find((t) => t.language === 'Spanish');
    expect(spanish?.done).toBe(2 * MAX_CUES_PER_PART);
  });

  it('says what to install or choose when no model writes, or the model cannot take one cue with its context', async () => {
    await expect(call(core.router, 'subtitles.translate', { id: talk, language: 'Italian', model: 'verbatim-extractive' })).rejects.toMatchObject({
      code: 'unavailable',
      message: expect.stringMatching(/Translation needs a language model that writes: download a chat model in Settings → Models/),
    });
    // One cue of 1,900 characters: more than a 1,024-token context holds with the cues around it and its answer.
    const long = Array.from({ length: 190 }, () => 'long words').join(' ');
    const lecture = await call(core.router, 'subtitles.importNew', { name: 'Lecture.srt', content: `1\n00:00:01,000 --> 00:00:09,000\n${long}\n` });
    await expect(call(core.router, 'subtitles.translate', { id: lecture.id, language: 'Italian', model: 'tiny-narrow' })).rejects.toMatchObject({
      code: 'unavailable',
      message: expect.stringMatching(/reads only 1024 tokens.*too few to translate even one cue.*Choose a model with a larger context/),
    });
    // Nothing was made for either.
    expect((await call(core.router, 'subtitles.translations', { id: talk })).tracks.map((t) => t.language)).toEqual(['French', 'German', 'Swedish', 'Spanish']);
    expect((await call(core.router, 'subtitles.translations', { id: lecture.id })).tracks).toEqual([]);
  });
});

let chatCalls = 0;
/** Chat calls made, counted on the gateway client the services use (each call still goes to the engine). */
function engineChats(): number {
  return chatCalls;
}
const realChat = GatewayClient.prototype.chat;
/** When set, the chat call of that number (counted from the setting) fails as a dropped connection does. */
let dropAt: number | null = null;
GatewayClient.prototype.chat = function (this: GatewayClient, ...args: Parameters<GatewayClient['chat']>) {
  chatCalls++;
  if (dropAt !== null && --dropAt === 0) return Promise.reject(new AppError('network', 'The connection to the assistant was lost (ECONNRESET).'));
  return realChat.apply(this, args);
};
