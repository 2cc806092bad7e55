// Word confidences for local transcripts from a model's own token scores: generated transducers (offline and streaming)
// (tests/fixtures/models/speech.ts, "near tie") read beep's tone with no rival token, and boop's with
// "▁bop" half a nat behind. Decoded by sherpa-onnx-node as the engine configures it, its per-token
// log-probabilities (ys_log_probs) become word confidences: beep high, boop low. Before, every word of a
// multi-token result was the mean of its pieces, and the rule below (the least sure piece) was not there.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { MODEL_MANIFEST_FILE, type ModelManifest } from '../../../src/shared/models/catalog';
import { offlineConfig, onlineConfig } from '../../../src/engine/recognizer/sherpa/config';
import { NO_CONFIDENCE, tokenProbability, wordConfidence } from '../../../src/engine/recognizer/sherpa/confidence';
import type { SherpaResult } from '../../../src/engine/recognizer/sherpa/child-asr';
import { checkModelFiles } from '../../../src/engine/recognizer/sherpa/validate';
import { wordsFromTokens } from '../../../src/engine/recognizer/sherpa/words';
import { toneSequence, writeTinyModel } from '../../fixtures/models/speech';

interface OnlineStream {
  acceptWaveform(w: { samples: Float32Array; sampleRate: number }): void;
  inputFinished(): void;
}
interface Sherpa {
  OnlineRecognizer: new (config: unknown) => {
    createStream(): OnlineStream;
    isReady(s: OnlineStream): boolean;
    decode(s: OnlineStream): void;
    getResult(s: OnlineStream): SherpaResult;
  };
  OfflineRecognizer: {
    createAsync(config: unknown): Promise<{
      createStream(): { acceptWaveform(w: { samples: Float32Array; sampleRate: number }): void };
      decodeAsync(s: unknown): Promise<SherpaResult>;
    }>;
  };
}

const dir = mkdtempSync(join(tmpdir(), 'verbatim-word-confidence-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('word confidence from token log-probabilities', () => {
  it('is a word’s least sure token, so one doubtful piece makes the word doubtful', () => {
    expect(wordConfidence([Math.log(0.99), Math.log(0.4), Math.log(0.98)])).toBe(0.4);
    expect(wordConfidence([-0.001])).toBe(0.999);
    // A score above 0 (rounding in sherpa-onnx's JSON) is certainty; a NaN is no confidence at all.
    expect(tokenProbability(0.000001)).toBe(1);
    expect(wordConfidence([Number.NaN, 0])).toBe(0);
    expect(wordConfidence([Number.NEGATIVE_INFINITY])).toBe(0);
    expect(wordConfidence([])).toBe(NO_CONFIDENCE);
  });

  it('groups tokens into words and scores each from its own tokens', () => {
    const r: SherpaResult = {
      text: ' Phoebe said',
      tokens: ['▁Ph', 'oe', 'be', '▁said'].map((t) => t.replace('▁', ' ')),
      timestamps: [0.1, 0.2, 0.3, 0.6],
      ys_log_probs: [Math.log(0.35), -0.01, -0.02, -0.001],
    };
    const words = wordsFromTokens(r, 1000);
    expect(words.map((w) => [w.text, w.confidence])).toEqual([
      ['Phoebe', 0.35],
      ['said', 0.999],
    ]);
    // Streaming results name the same scores ys_probs.
    const live = wordsFromTokens({ ...r, ys_log_probs: undefined, ys_probs: [-0.01, -0.01, -0.01, Math.log(0.2)] }, 1000);
    expect(live.map((w) => w.confidence)).toEqual([0.99, 0.2]);
  });

  it('gives a token the model is sure of a high confidence and a near-tied one a low confidence (generated transducer)', async () => {
    const folder = writeTinyModel(dir, 'zipformer-bpe-near-tie');
    const manifest = JSON.parse(readFileSync(join(folder, MODEL_MANIFEST_FILE), 'utf8')) as ModelManifest;
    const checked = await checkModelFiles(folder, manifest);
    const sherpa = createRequire(import.meta.url)('sherpa-onnx-node') as Sherpa;
    const recognizer = await sherpa.OfflineRecognizer.createAsync(offlineConfig(manifest, checked));
    const { pcm } = toneSequence(['beep', 'boop', 'beep']);
    const stream = recognizer.createStream();
    stream.acceptWaveform({ samples: Float32Array.from(pcm, (v) => v / 32768), sampleRate: 16000 });
    const result = await recognizer.decodeAsync(stream);
    // The scores are the model's: one per token, as sherpa-onnx answers them.
    expect(result.ys_log_probs).toHaveLength(result.tokens.length);
    const words = wordsFromTokens(result, (pcm.length / 16000) * 1000);
    expect(words.map((w) => w.text)).toEqual(['beep', 'boop', 'beep']);
    const [sure, borderline, again] = words.map((w) => w.confidence) as [number, number, number];
    expect(sure).toBeGreaterThan(0.95);
    expect(again).toBeGreaterThan(0.95);
    // "▁bop" is half a nat behind "▁boop": boop's share is about 1 / (1 + e^-0.5) ≈ 0.62.
    expect(borderline).toBeLessThan(0.7);
    expect(borderline).toBeGreaterThan(0.4);
  });

  it('does the same for a streaming transducer, whose results name the scores ys_probs', async () => {
    const folder = writeTinyModel(dir, 'streaming-bpe-near-tie');
    const manifest = JSON.parse(readFileSync(join(folder, MODEL_MANIFEST_FILE), 'utf8')) as ModelManifest;
    const sherpa = createRequire(import.meta.url)('sherpa-onnx-node') as Sherpa;
    const recognizer = new sherpa.OnlineRecognizer(onlineConfig(await checkModelFiles(folder, manifest)));
    const { pcm } = toneSequence(['beep', 'boop', 'beep']);
    const stream = recognizer.createStream();
    stream.acceptWaveform({ samples: Float32Array.from(pcm, (v) => v / 32768), sampleRate: 16000 });
    stream.inputFinished();
    while (recognizer.isReady(stream)) recognizer.decode(stream);
    const result = recognizer.getResult(stream);
    expect(result.ys_probs).toHaveLength(result.tokens.length);
    const words = wordsFromTokens(result, (pcm.length / 16000) * 1000);
    expect(words.map((w) => w.text)).toEqual(['beep', 'boop', 'beep']);
    const [sure, borderline] = words.map((w) => w.confidence) as [number, number];
    expect(sure).toBeGreaterThan(0.95);
    expect(borderline).toBeLessThan(0.7);
  });
});
