// A file's speech segments decoded side by side on one loaded model give the same words, times and order as
// decoding them one after another: 60 tone words, each its own segment, through a tiny Parakeet TDT model.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { findSpeechSegments, type SpeechSegment } from '../../src/engine/audio/segment';
import { recognizeSegments, SegmentFeed } from '../../src/engine/jobs/recognize-segments';
import type { Recognizer } from '../../src/engine/recognizer/index';
import { ModelRegistry } from '../../src/engine/recognizer/sherpa/registry';
import { writeComputeModel } from '../fixtures/models/compute';
import { toneSequence, writeTinyModel } from '../fixtures/models/speech';
import { CLIPS, concatSpeech, makeSpeech } from '../fixtures/speech';

const dir = mkdtempSync(join(tmpdir(), 'verbatim-parallel-decode-'));
let registry: ModelRegistry;
const WORDS = Array.from({ length: 60 }, (_, i) => (i % 3 === 2 ? 'boop' : 'beep'));

beforeAll(() => {
  writeTinyModel(join(dir, 'models'), 'nemo-tdt');
  registry = new ModelRegistry({ dir: join(dir, 'models'), idleMs: 60_000 });
});

afterAll(() => {
  registry.dispose();
  rmSync(dir, { recursive: true, force: true });
});

/** The recognizer, counting the most decodes it had in flight at once. */
function counting(rec: Recognizer): { rec: Recognizer; most: () => number } {
  let now = 0;
  let most = 0;
  const wrapped = Object.create(rec) as Recognizer;
  wrapped.recognize = async (pcm, opts) => {
    most = Math.max(most, ++now);
    try {
      return await rec.recognize(pcm, opts);
    } finally {
      now--;
    }
  };
  return { rec: wrapped, most: () => most };
}

it('decodes 50+ segments in parallel word for word as in sequence', async () => {
  // Long gaps so the speech detector cuts each word into a segment of its own.
  const { pcm } = toneSequence(WORDS, { toneMs: 400, gapMs: 900 });
  const raw = join(dir, 'audio.raw');
  writeFileSync(raw, Buffer.from(pcm.buffer, pcm.byteOffset, pcm.byteLength));
  const segments = await findSpeechSegments(raw, pcm.length, { useVad: false, minSilenceMs: 300 });
  expect(segments.length).toBeGreaterThanOrEqual(50);
  const model = await registry.recognizer('tiny-nemo-tdt');
  const run = async (parallel: number) => {
    const c = counting(model);
    const out = await recognizeSegments({
      raw,
      segments,
      recognizer: c.rec,
      adapter: null,
      narrowband: false,
      workDir: join(dir, 'adapt'),
      signal: new AbortController().signal,
      warn: () => undefined,
      parallel: () => parallel,
    });
    return { words: out.bySegment, most: c.most() };
  };
  const sequential = await run(1);
  const parallel = await run(4);
  expect(sequential.most).toBe(1);
  expect(parallel.most).toBeGreaterThan(1);
  expect(sequential.words.flat().map((w) => w.text)).toEqual(WORDS);
  expect(parallel.words).toEqual(sequential.words);
});

it('the compute model (real work per frame) reads the tones as the tiny model does', async () => {
  writeComputeModel(join(dir, 'models'));
  const { pcm } = toneSequence();
  const tiny = await (await registry.recognizer('tiny-nemo-tdt')).recognize(pcm);
  expect(tiny.map((w) => w.text)).toEqual(['beep', 'beep', 'boop']);
  expect(await (await registry.recognizer('compute-nemo-tdt')).recognize(pcm)).toEqual(tiny);
});

it('hands each segment on as soon as the speech detector has closed it: the same segments, in order, as its result', async () => {
  // Silero hears speech, not tones: eight sentences read by flite, a second apart.
  const clips = Object.entries(CLIPS).map(([name, text]) => makeSpeech(dir, name, text));
  const wav = concatSpeech(dir, 'sentences', [...clips, ...clips], 1);
  const raw = join(dir, 'sentences.raw');
  execFileSync('ffmpeg', ['-v', 'error', '-y', '-i', wav, '-f', 's16le', '-ar', '16000', '-ac', '1', raw]);
  const samples = statSync(raw).size / 2;
  for (const useVad of [true, false]) {
    const handed: SpeechSegment[] = [];
    const found = await findSpeechSegments(raw, samples, { useVad, onSegment: (s) => handed.push({ ...s }) });
    expect(found.length).toBeGreaterThanOrEqual(4);
    expect(handed).toEqual(found);
  }
});

it('starts decoding on the first segment found, before detection ends, and keeps segment order', async () => {
  const { pcm } = toneSequence(WORDS.slice(0, 9), { toneMs: 400, gapMs: 900 });
  const raw = join(dir, 'early.raw');
  writeFileSync(raw, Buffer.from(pcm.buffer, pcm.byteOffset, pcm.byteLength));
  const segments = await findSpeechSegments(raw, pcm.length, { useVad: false, minSilenceMs: 300 });
  const model = await registry.recognizer('tiny-nemo-tdt');
  const feed = new SegmentFeed();
  let firstCall: () => void = () => undefined;
  const called = new Promise<void>((r) => (firstCall = r));
  const rec = Object.create(model) as Recognizer;
  rec.recognize = (samples, opts) => {
    firstCall();
    return model.recognize(samples, opts);
  };
  feed.push(segments[0] as SpeechSegment);
  const run = recognizeSegments({
    raw,
    segments: feed,
    recognizer: rec,
    adapter: null,
    narrowband: false,
    workDir: join(dir, 'adapt'),
    signal: new AbortController().signal,
    warn: () => undefined,
    parallel: () => 2,
  });
  // Only one segment is known and detection has not ended: the decode has begun all the same.
  await called;
  expect(feed.ended).toBe(false);
  for (const s of segments.slice(1)) feed.push(s);
  feed.end();
  const out = await run;
  expect(out.bySegment.flat().map((w) => w.text)).toEqual(WORDS.slice(0, 9));
});

it('fails the decode when detection fails part-way', async () => {
  const feed = new SegmentFeed();
  const model = await registry.recognizer('tiny-nemo-tdt');
  const run = recognizeSegments({
    raw: join(dir, 'early.raw'),
    segments: feed,
    recognizer: model,
    adapter: null,
    narrowband: false,
    workDir: join(dir, 'adapt'),
    signal: new AbortController().signal,
    warn: () => undefined,
  });
  feed.fail(new Error('the file could not be read'));
  await expect(run).rejects.toThrow('the file could not be read');
});
