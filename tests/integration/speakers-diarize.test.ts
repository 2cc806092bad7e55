// Speaker diarization with tiny generated models (tests/fixtures/models/speakers.ts) in the native worker child: two voices
// alternating come back as two speakers with every word and utterance right; the request's counts steer the clustering;
// short audio is clustered too; broken models are refused before native code loads them, or cost a clear error, never the process.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Word } from '../../src/shared/api/transcript';
import { NativeChild } from '../../src/engine/native/child-host';
import { SHERPA_CHILD } from '../../src/engine/recognizer/sherpa/child-kinds';
import { createSpeakerLabels, DiarizationError, type SpeakerLabels } from '../../src/engine/recognizer/sherpa/diarize';
import { PIECE_SECONDS } from '../../src/engine/recognizer/sherpa/child-diarize';
import type { SpeakerCounts } from '../../src/engine/recognizer/sherpa/diarize-plan';
import { assignSpeakers, buildUtterances } from '../../src/engine/text/speakers';
import {
  conversation,
  installModel,
  installTinySpeakerModels,
  tinyEmbedding,
  tinySegmentation,
  WINDOW,
  type SpokenTone,
  type Voice,
} from '../fixtures/models/speakers';

const root = mkdtempSync(join(tmpdir(), 'verbatim-diarize-'));
const open: SpeakerLabels[] = [];
afterAll(() => {
  for (const s of open) s.close();
  rmSync(root, { recursive: true, force: true });
});

let n = 0;
/** A models folder with the given models, and diarization over it in its own child. */
function setup(install: (dir: string) => void): SpeakerLabels {
  const dir = join(root, `models-${n++}`);
  install(dir);
  const s = createSpeakerLabels(dir, new NativeChild({ ...SHERPA_CHILD, name: 'speaker diarization' }));
  open.push(s);
  return s;
}

function audioFile(turns: Voice[], opts?: Parameters<typeof conversation>[1]): { path: string; samples: number; tones: SpokenTone[] } {
  const { pcm, tones } = conversation(turns, opts);
  const path = join(root, `audio-${n++}.raw`);
  writeFileSync(path, Buffer.from(pcm.buffer, pcm.byteOffset, pcm.byteLength));
  return { path, samples: pcm.length, tones };
}

const none: SpeakerCounts = { expected: null, min: null, max: null };

async function diarize(s: SpeakerLabels, file: { path: string; samples: number }, counts = none) {
  const models = await s.models();
  if ('missing' in models) throw new Error(models.missing);
  return s.diarize({ rawPath: file.path, samples: file.samples, counts, models });
}

/** The tones as the words a recognizer would give, then labelled by the turns. */
function wordsOf(tones: SpokenTone[]): Word[] {
  return tones.map((t) => ({ text: t.word, start: t.start, end: t.end, confidence: 0.9, speaker: null, channel: null }));
}

describe('speaker diarization with tiny models', () => {
  let good: SpeakerLabels;
  beforeAll(() => {
    good = setup((dir) => installTinySpeakerModels(dir));
  });

  it('hears two voices alternating A/B/A/B in a file longer than the window, and gives every word and utterance its voice', async () => {
    const file = audioFile(['A', 'B', 'A', 'B']);
    expect(file.samples).toBeGreaterThan(WINDOW * 4);
    const { turns } = await diarize(good, file);
    expect(new Set(turns.map((t) => t.speaker)).size).toBe(2);
    const words = assignSpeakers(wordsOf(file.tones), turns);
    // Lettered by first appearance: the 500 Hz voice speaks first, so it is A.
    expect(words.map((w) => w.speaker)).toEqual(file.tones.map((t) => t.voice));
    const utterances = buildUtterances(words);
    expect(utterances.map((u) => [u.speaker, u.text])).toEqual([
      ['A', 'boop boop boop'],
      ['B', 'beep beep beep'],
      ['A', 'boop boop boop'],
      ['B', 'beep beep beep'],
    ]);
  });

  it('the same file with an embedding that gives every voice the same vector comes back as one speaker (the control)', async () => {
    const control = setup((dir) => installTinySpeakerModels(dir, { embedding: { sameForAll: true } }));
    const file = audioFile(['A', 'B', 'A', 'B']);
    const { turns } = await diarize(control, file);
    expect(new Set(turns.map((t) => t.speaker)).size).toBe(1);
  });

  it('follows speakers_expected, and falls back to the threshold when more are expected than there is speech for', async () => {
    const file = audioFile(['A', 'B', 'A', 'B']);
    const two = await diarize(good, file, { expected: 2, min: null, max: null });
    expect(new Set(two.turns.map((t) => t.speaker)).size).toBe(2);
    expect(two.warning).toBeNull();
    const one = await diarize(good, file, { expected: 1, min: null, max: null });
    expect(assignSpeakers(wordsOf(file.tones), one.turns).every((w) => w.speaker === 'A')).toBe(true);
    // A short file has a few embeddings only: asking for 10 clusters would make everyone speaker 0.
    const short = audioFile(['A', 'B'], { perTurn: 1, toneMs: 300, turnGapMs: 200 });
    const tooMany = await diarize(good, short, { expected: 10, min: null, max: null });
    expect(assignSpeakers(wordsOf(short.tones), tooMany.turns).map((w) => w.speaker)).toEqual(['A', 'B']);
    expect(tooMany.warning).toMatch(/speakers_expected was 10, but only 2 voices/);
  });

  it('keeps min/max_speakers_expected: at most one merges the voices, at least two keeps them', async () => {
    const file = audioFile(['A', 'B', 'A', 'B']);
    const atMostOne = await diarize(good, file, { expected: null, min: null, max: 1 });
    expect(new Set(atMostOne.turns.map((t) => t.speaker)).size).toBe(1);
    const between = await diarize(good, file, { expected: null, min: 2, max: 3 });
    expect(new Set(between.turns.map((t) => t.speaker)).size).toBe(2);
  });

  it('clusters audio no longer than the window too (padded past it), so two short turns stay two speakers', async () => {
    const file = audioFile(['A', 'B'], { perTurn: 1, toneMs: 300, turnGapMs: 200 });
    expect(file.samples).toBeLessThanOrEqual(WINDOW);
    const { turns } = await diarize(good, file, { expected: 2, min: null, max: null });
    const words = assignSpeakers(wordsOf(file.tones), turns);
    expect(words.map((w) => w.speaker)).toEqual(['A', 'B']);
    // Turns never run past the real end of the audio.
    expect(Math.max(...turns.map((t) => t.end))).toBeLessThanOrEqual((file.samples / 16000) * 1000);
  });

  it('diarizes a file longer than a piece (5 min) piece by piece and joins the voices across pieces', async () => {
    const turns = Array.from({ length: 110 }, (_, i): Voice => (i % 2 ? 'B' : 'A'));
    const file = audioFile(turns);
    expect(file.samples).toBeGreaterThan(PIECE_SECONDS * 16000 * 1.5);
    const { turns: found } = await diarize(good, file);
    expect(new Set(found.map((t) => t.speaker)).size).toBe(2);
    const words = assignSpeakers(wordsOf(file.tones), found);
    expect(words.map((w) => w.speaker)).toEqual(file.tones.map((t) => t.voice));
    const two = await diarize(good, file, { expected: 2, min: null, max: null });
    expect(assignSpeakers(wordsOf(file.tones), two.turns).map((w) => w.speaker)).toEqual(file.tones.map((t) => t.voice));
  });

  it('names the models to download when none is installed', async () => {
    const empty = setup(() => undefined);
    const m = await empty.models();
    expect('missing' in m && m.missing).toMatch(
      /pyannote segmentation 3\.0 \(pyannote-segmentation-3\.0\).*speaker-embedding model such as .*Settings → Models/,
    );
    const half = setup((dir) => installModel(dir, 'seg', 'segmentation', tinySegmentation()));
    const h = await half.models();
    expect('missing' in h && h.missing).toMatch(
      /a speaker-embedding model such as 3D-Speaker CAM\+\+ \(English, VoxCeleb\) \(3dspeaker-campplus-en\) is not installed/,
    );
  });
});

describe('broken speaker models', () => {
  const file = () => audioFile(['A', 'B', 'A', 'B']);
  const cases: { name: string; install: (dir: string) => void; error: RegExp }[] = [
    {
      name: 'a segmentation model without num_classes (sherpa-onnx would exit inside its constructor)',
      install: (dir) => installTinySpeakerModels(dir, { segmentation: { omit: ['num_classes'] } }),
      error: /segmentation model .* lacks the metadata num_classes; it cannot be used for speaker labels/,
    },
    {
      name: 'powerset_max_classes 3 (exit 255)',
      install: (dir) => installTinySpeakerModels(dir, { segmentation: { meta: { powerset_max_classes: 3 } } }),
      error: /powerset_max_classes 3; sherpa-onnx runs only 2/,
    },
    {
      name: 'an embedding model whose output_dim lies (everyone would silently be speaker 0)',
      install: (dir) => installTinySpeakerModels(dir, { embedding: { declaredDim: 192 } }),
      error: /output has 2 values, but its metadata output_dim says 192/,
    },
    {
      name: 'an embedding model without framework (a SIGSEGV at the first run)',
      install: (dir) => installTinySpeakerModels(dir, { embedding: { omit: ['framework'] } }),
      error: /lacks the metadata framework/,
    },
    {
      name: 'a garbage file',
      install: (dir) => {
        installModel(dir, 'tiny-segmentation', 'segmentation', new Uint8Array(Buffer.from('this is not a model at all, just text')));
        installModel(dir, 'tiny-embedding', 'embedding', tinyEmbedding());
      },
      error: /is not a usable ONNX model/,
    },
  ];
  for (const c of cases) {
    it(`refuses ${c.name} with a clear error, before loading it`, async () => {
      const s = setup(c.install);
      const err = await diarize(s, file()).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(DiarizationError);
      expect((err as Error).message).toMatch(c.error);
      expect((err as Error).message).toMatch(/Settings → Models/);
    });
  }

  it('a model that passes the checks but crashes sherpa-onnx costs a clear error, and the next job with good models works', async () => {
    // Its metadata and shapes are right, but ONNX Runtime fails inside it: sherpa-onnx's process() aborts on that.
    const s = setup((d) => {
      installTinySpeakerModels(d);
      installModel(d, 'tiny-segmentation', 'segmentation', tinySegmentation({ failsWhenRun: true }));
    });
    const err = await diarize(s, file()).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DiarizationError);
    expect((err as Error).message).toMatch(
      /Speaker diarization failed with the models tiny-segmentation and tiny-embedding \(speaker diarization: the worker (was killed by SIG\w+|exited with status \d+)/,
    );
    const fine = setup((d) => installTinySpeakerModels(d));
    expect(new Set((await diarize(fine, file())).turns.map((t) => t.speaker)).size).toBe(2);
  });
});
