// A file's speech segments decoded side by side on one loaded model give the same words, times and order as
// decoding them one after another: 60 tone words, each its own segment, through a tiny Parakeet TDT model.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { findSpeechSegments } from '../../src/engine/audio/segment';
import { recognizeSegments } from '../../src/engine/jobs/recognize-segments';
import type { Recognizer } from '../../src/engine/recognizer/index';
import { ModelRegistry } from '../../src/engine/recognizer/sherpa/registry';
import { writeComputeModel } from '../fixtures/models/compute';
import { toneSequence, writeTinyModel } from '../fixtures/models/speech';

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
