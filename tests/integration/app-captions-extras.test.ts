/**
 * Translation and "What did I miss?" beside live captions, through main's
 * services and the real local engine with tiny GGUF models written by the
 * test (each answers a fixed sentence whatever the prompt): speech streamed
 * at real time gives turns; each final turn gets exactly one translated line
 * (the model's sentence), no partial one gets any, and the session keeps both
 * texts. A summary of a stretch cites turns of that stretch only, with the
 * extractive model (quotes) and with a model that writes (one citation in
 * the stretch, one outside it).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeFrame } from '../../src/shared/audio-frame';
import type { LiveTurn } from '../../src/shared/captions';
import type { LiveTranslation, MissedSummary } from '../../src/shared/captions-extras';
import { createCore, type Core } from '../../src/main/core';
import { createHostPlatform } from '../../src/main/platform/host';
import { GatewayClient } from '../../src/main/services/client/gateway';
import { writeMissed, type MissedModel } from '../../src/main/services/captions/missed';
import { fixedSentence, installTinyGguf } from '../fixtures/models/gguf';
import { hasSpeechTools } from '../fixtures/speech';
import { call } from '../support/router';

const tools = hasSpeechTools();
if (!tools) console.log('app-captions-extras: the translation test is skipped: flite and ffmpeg are needed to make speech');

const dir = mkdtempSync(join(tmpdir(), 'verbatim-app-captions-extras-'));
const TRANSLATED = ['[FR]', 'Bonjour', 'à', 'tous', '.'];
/** A model that writes a summary citing one moment inside the stretch asked (01:05) and one before it (00:01). */
const CITING = ['Budget', 'approved', '[00:01]', 'and', 'launch', 'on', 'Friday', '[01:05]', '.'];
let core: Core;
let engine: { url: string; key: string };
const events: { event: string; payload: unknown }[] = [];

beforeAll(async () => {
  const dataDir = join(dir, 'data');
  installTinyGguf(join(dataDir, 'models'), 'tiny-translator', { words: TRANSLATED });
  delete process.env.ASSEMBLYAI_API_KEY;
  core = createCore(createHostPlatform({ dataDir, version: 't', keyFile: join(dir, 'k') }), () => true, { log: () => undefined, resume: false });
  core.router.subscribe((event, payload) => events.push({ event, payload }));
  engine = await core.engine.ensure();
});

afterAll(async () => {
  await core?.dispose();
  rmSync(dir, { recursive: true, force: true });
});

function speech(name: string, text: string, padSeconds: number): Buffer {
  execFileSync('flite', ['-voice', 'slt', '-t', text, '-o', join(dir, `${name}.wav`)]);
  execFileSync('ffmpeg', [
    '-loglevel',
    'error',
    '-y',
    '-i',
    join(dir, `${name}.wav`),
    '-af',
    `apad=pad_dur=${padSeconds}`,
    '-ar',
    '16000',
    '-ac',
    '1',
    '-f',
    's16le',
    join(dir, `${name}.raw`),
  ]);
  return readFileSync(join(dir, `${name}.raw`));
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** 50 ms frames at real time, as the bridge delivers them. */
async function stream(run: number, pcm: Buffer): Promise<void> {
  const t0 = performance.now();
  for (let i = 0, n = 0; i < pcm.length; i += 1600, n++) {
    const frame = Buffer.alloc(1600);
    pcm.copy(frame, 0, i, Math.min(pcm.length, i + 1600));
    core.captions.frame(new Uint8Array(encodeFrame({ kind: 'pcm', source: 'mic', run, capturedAt: Date.now(), payload: frame })));
    await sleep(Math.max(0, t0 + (n + 1) * 50 - performance.now()));
  }
}

const of = <T>(name: string) => events.filter((e) => e.event === name).map((e) => e.payload as T);

function turn(startMs: number, text: string, final = true): LiveTurn {
  return { run: 1, source: 'mic', key: `mic:0:${startMs}`, text, words: [], final, startMs, endMs: startMs + 2000, receivedAt: 0, capturedAt: null };
}

describe.skipIf(!tools)('translated captions through the local GGUF model', () => {
  it('gives each final turn exactly one translated line, no partial turn any, and keeps both texts with the session', async () => {
    const run = await call(core.router, 'captions.start', { sources: ['mic'], recordingMime: 'audio/webm;codecs=opus' });
    const on = await call(core.router, 'captions.translate', { language: 'fr' });
    expect(on).toMatchObject({ state: 'on', language: 'fr', model: 'tiny-translator', region: 'local' });
    await stream(run.run, speech('a', 'Good morning everyone.', 2));
    await stream(run.run, speech('b', 'The budget meeting starts at nine.', 2));
    await stream(run.run, speech('c', 'Thank you all for coming.', 2.5));
    const turns = () => of<LiveTurn>('captions.turn').filter((t) => t.run === run.run);
    const finals = () => [
      ...new Set(
        turns()
          .filter((t) => t.final)
          .map((t) => t.key),
      ),
    ];
    await expect.poll(() => finals().length, { timeout: 30_000 }).toBeGreaterThan(1);
    // Every final turn's translation arrives (the queue never waits long for a tiny model).
    await expect.poll(() => new Set(of<LiveTranslation>('captions.translation').map((t) => t.key)).size, { timeout: 60_000 }).toBe(finals().length);
    const translations = of<LiveTranslation>('captions.translation').filter((t) => t.run === run.run);
    const keys = translations.map((t) => t.key);
    // Exactly one each, and only for final turns: a key seen only while growing has none.
    expect(new Set(keys).size).toBe(keys.length);
    expect(keys.sort()).toEqual(finals().sort());
    const partialOnly = [...new Set(turns().map((t) => t.key))].filter((k) => !finals().includes(k));
    for (const k of partialOnly) expect(keys).not.toContain(k);
    expect(turns().some((t) => !t.final)).toBe(true);
    for (const t of translations) expect(t).toMatchObject({ language: 'fr', text: fixedSentence(TRANSLATED) });

    await call(core.router, 'captions.stop', { run: run.run });
    const saved = core.library.liveExtras.translations(run.recordingId);
    expect(saved.map((s) => s.key).sort()).toEqual(finals().sort());
    const finalText = new Map(
      turns()
        .filter((t) => t.final)
        .map((t) => [t.key, t.text]),
    );
    for (const s of saved) expect(s).toMatchObject({ original: finalText.get(s.key), text: fixedSentence(TRANSLATED), language: 'fr' });
  });
});

describe('"What did I miss?" cites turns within the asked stretch only', () => {
  const turns = [
    turn(1_000, 'The budget for the new office was approved.'),
    turn(30_000, 'Sam will send the slides to the board.'),
    turn(65_000, 'The launch moves to Friday next week.'),
    turn(90_000, 'Lunch is at noon in the big room.'),
    turn(95_000, 'The launch party is still growing', false),
  ];

  it('with the extractive model: quotes turns of the stretch, each cited at its moment, and says it is extractive', async () => {
    const gateway = new GatewayClient(engine.url, engine.key);
    const updates: MissedSummary[] = [];
    const done = await writeMissed(
      { recordingId: 'r', fromMs: 60_000, toMs: 100_000, turns },
      { model: 'verbatim-extractive', generative: false, stream: (m, d, s) => gateway.chatStream({ model: 'verbatim-extractive', messages: m }, d, s) },
      (s) => updates.push(s),
      new AbortController().signal,
    );
    expect(done.status).toBe('done');
    expect(done.extractive).toBe(true);
    expect(done.content).toMatch(/extractive/i);
    expect(done.citations.length).toBeGreaterThan(0);
    for (const c of done.citations) expect([65_000, 90_000]).toContain(c.startMs);
    expect(done.content).not.toMatch(/budget|slides/i);
    expect(done.content).not.toContain('growing');
    expect(updates.at(-1)).toEqual(done);
  });

  it('with a model that writes: a citation outside the stretch is taken out, the one inside kept', async () => {
    installTinyGguf(join(dir, 'data', 'models'), 'tiny-citing', { words: CITING });
    const gateway = new GatewayClient(engine.url, engine.key);
    await expect.poll(async () => (await gateway.models()).some((m) => m.id === 'tiny-citing'), { timeout: 30_000 }).toBe(true);
    const updates: MissedSummary[] = [];
    const pieces: string[] = [];
    // The gateway's pieces are handed on one by one, the rest only once the summary has shown the first: on a busy
    // machine they can all arrive within one flush, and whether the text grows must not hang on that.
    const stream: MissedModel['stream'] = async (m, d, s) => {
      const whole = await gateway.chatStream({ model: 'tiny-citing', messages: m, max_tokens: 100 }, (p) => pieces.push(p), s);
      d(pieces[0] ?? '');
      await expect.poll(() => updates.some((u) => u.status === 'streaming' && u.content.length > 0), { timeout: 30_000 }).toBe(true);
      for (const p of pieces.slice(1)) d(p);
      return whole;
    };
    const done = await writeMissed(
      { recordingId: 'r', fromMs: 60_000, toMs: 100_000, turns },
      { model: 'tiny-citing', generative: true, stream },
      (s) => updates.push(s),
      new AbortController().signal,
    );
    expect(pieces.length).toBeGreaterThan(1);
    expect(done.status).toBe('done');
    expect(done.citations).toEqual([{ startMs: 65_000, label: '01:05' }]);
    expect(done.content).toContain('[01:05]');
    expect(done.content).not.toContain('[00:01]');
    // It streamed: the text grew before the end.
    expect(updates.some((u) => u.status === 'streaming' && u.content.length > 0)).toBe(true);
  });

  it('a stretch with nothing captioned says so without asking a model', async () => {
    const done = await writeMissed(
      { recordingId: 'r', fromMs: 200_000, toMs: 260_000, turns, minutes: 2 },
      { unavailable: 'never asked' },
      () => undefined,
      new AbortController().signal,
    );
    // No model: the error is said plainly; a model is never needed for an empty stretch.
    expect(done.status).toBe('error');
    const empty = await writeMissed(
      { recordingId: 'r', fromMs: 200_000, toMs: 260_000, turns, minutes: 2 },
      { model: 'm', generative: true, stream: () => Promise.reject(new Error('must not be asked')) },
      () => undefined,
      new AbortController().signal,
    );
    expect(empty).toMatchObject({ status: 'done', content: 'Nothing was captioned in the last 2 minutes.', citations: [] });
  });
});
