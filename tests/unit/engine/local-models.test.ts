// Local speech models, the parts with no native code: speech_models and language checks against installed
// manifests, words from sherpa-onnx's tokens, times spread for models without them, keyterms spelled in a
// model's tokens, and the ONNX walk refusing what is not a model.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ModelManifest } from '../../../src/shared/models/catalog';
import { validateCreate } from '../../../src/engine/routes/transcripts';
import { liveModelOf } from '../../../src/engine/recognizer/sherpa/live';
import { hotwordsFor, spell } from '../../../src/engine/recognizer/sherpa/config';
import { spreadWords, wordsFromTokens } from '../../../src/engine/recognizer/sherpa/words';
import { checkOnnx } from '../../../src/engine/recognizer/sherpa/onnx-check';
import { OnnxGraph } from '../../fixtures/models/onnx';

const manifest = (id: string, family: ModelManifest['family'], languages: string[]): ModelManifest => ({
  id,
  name: id,
  task: 'files',
  family,
  languages,
  files: {},
  wordTimings: family === 'whisper' ? 'segments' : 'words',
  sha256: null,
  bytes: 1,
  installedAt: '2026-01-01T00:00:00Z',
  contextLength: null,
  ramBytes: null,
});
const installed = new Map<string, ModelManifest>([
  ['parakeet', manifest('parakeet', 'nemo-transducer', ['en'])],
  ['whisper-small', manifest('whisper-small', 'whisper', ['en', 'de', 'fr', 'es'])],
  ['streaming-zipformer', { ...manifest('streaming-zipformer', 'streaming-transducer', ['en']), task: 'live' }],
]);
const ctx = { baseUrl: 'http://127.0.0.1:1', allowFileUrls: false, installed };
const create = (body: Record<string, unknown>) => validateCreate({ audio_url: 'http://x/a.wav', ...body }, ctx);

describe('speech_models on the local engine', () => {
  it('takes installed models, pocketsphinx and the cloud names, and keeps the list as asked', () => {
    expect(create({ speech_models: ['parakeet'] }).params.speech_models).toEqual(['parakeet']);
    expect(create({ speech_models: ['pocketsphinx', 'universal-2'] }).params.speech_models).toEqual(['pocketsphinx', 'universal-2']);
  });

  it('refuses a model that is not installed, naming it and where to get it', () => {
    expect(() => create({ speech_models: ['moonshine-base'] })).toThrow(/"moonshine-base" is not installed.*Settings → Models/);
    expect(() => create({ speech_models: ['parakeet', 'whisper-tiny'] })).toThrow(/whisper-tiny/);
    expect(() => create({ speech_models: ['streaming-zipformer'] })).toThrow(/live-captions \(streaming\) model/);
  });

  it('lets language_code and language_detection through only with a multilingual model first', () => {
    expect(create({ speech_models: ['whisper-small'], language_code: 'de' }).params.language_code).toBe('de');
    expect(create({ speech_models: ['whisper-small'], language_detection: true }).params.language_code).toBe('auto');
    expect(() => create({ speech_models: ['whisper-small'], language_code: 'ja' })).toThrow(
      /language_code "ja" is not one of the languages of the model whisper-small/,
    );
    expect(() => create({ speech_models: ['parakeet'], language_code: 'de' })).toThrow(/language_code "de" is not supported/);
    expect(() => create({ speech_models: ['parakeet'], language_detection: true })).toThrow(/language_detection is not supported/);
  });

  it('picks the live model from the /v3/ws query', () => {
    const q = (s: string) => new URLSearchParams(s);
    expect(liveModelOf(q('speech_model=tiny-lstm&sample_rate=16000'))).toMatchObject({ name: 'tiny-lstm' });
    expect(liveModelOf(q('speech_model=tiny-lstm')).query.has('speech_model')).toBe(false);
    expect(liveModelOf(q('speech_model=universal-streaming-english'), 'streaming-zipformer').name).toBe('streaming-zipformer');
    expect(liveModelOf(q(''), null).name).toBeNull();
    expect(liveModelOf(q('speech_model=pocketsphinx'), 'streaming-zipformer').name).toBeNull();
  });
});

describe('words from sherpa-onnx results', () => {
  it('joins tokens into words at word-start marks, with times, TDT durations and confidences', () => {
    const words = wordsFromTokens(
      {
        text: 'HELLO WORLD',
        tokens: [' HE', 'LLO', ' WOR', 'LD'],
        timestamps: [0.2, 0.28, 0.6, 0.7],
        durations: [0.08, 0.08, 0.1, 0.12],
        ys_log_probs: [0, -0.2, -0.1, -0.1],
      },
      2000,
    );
    // A word is as sure as its least sure token (recognizer/sherpa/confidence.ts): hello's "LLO" at e^-0.2.
    expect(words).toEqual([
      { text: 'hello', start: 200, end: 360, confidence: 0.819 },
      { text: 'world', start: 600, end: 820, confidence: 0.905 },
    ]);
  });

  it('ends a word at the next one (or 0.5 s after its last token) when there are no durations', () => {
    const words = wordsFromTokens({ text: 'a b', tokens: [' a', ' b'], timestamps: [0.1, 1.5], ys_log_probs: [] }, 1800);
    expect(words.map((w) => [w.start, w.end, w.confidence])).toEqual([
      [100, 600, 0.9],
      [1500, 1800, 0.9],
    ]);
  });

  it('spreads the words of a model without times over the clip by length', () => {
    const words = spreadWords('Hi there everyone', 1800);
    expect(words.map((w) => w.text)).toEqual(['Hi', 'there', 'everyone']);
    expect(words[0]?.start).toBe(0);
    expect((words[2]?.end ?? 0) <= 1800).toBe(true);
    for (let i = 1; i < words.length; i++) expect((words[i]?.start ?? 0) >= (words[i - 1]?.end ?? 0)).toBe(true);
  });
});

describe('keyterms as hotwords', () => {
  it("spells words in the model's tokens, longest match first, in the vocabulary's case", () => {
    const upper = new Set(['▁', '▁KU', 'BER', 'NE', 'TES', '▁THE', 'S']);
    expect(spell('Kubernetes', upper)).toEqual(['▁KU', 'BER', 'NE', 'TES']);
    expect(spell('zzz', upper)).toBeNull();
    expect(hotwordsFor(['the Kubernetes', 'Xylo'], [...upper])).toEqual({ hotwords: 'THE KUBERNETES', added: ['the', 'Kubernetes'], skipped: ['Xylo'] });
  });
});

describe('the ONNX walk', () => {
  const dir = mkdtempSync(join(tmpdir(), 'verbatim-onnx-check-'));
  it('reads the metadata of a model and refuses text, a truncated model and an empty file', async () => {
    const g = new OnnxGraph();
    g.input('x', 'float', [1, 2]);
    g.output(g.node('Identity', ['x']), 'float', [1, 2], 'y');
    const bytes = g.toBytes({ vocab_size: 5, url: 'tdt' });
    writeFileSync(join(dir, 'ok.onnx'), bytes);
    expect((await checkOnnx(join(dir, 'ok.onnx'))).metadata).toEqual({ vocab_size: '5', url: 'tdt' });
    writeFileSync(join(dir, 'text.onnx'), 'version https://git-lfs.github.com/spec/v1\noid sha256:abc\nsize 12\n');
    await expect(checkOnnx(join(dir, 'text.onnx'))).rejects.toThrow(/not a usable ONNX model/);
    writeFileSync(join(dir, 'cut.onnx'), bytes.subarray(0, Math.floor(bytes.length * 0.6)));
    await expect(checkOnnx(join(dir, 'cut.onnx'))).rejects.toThrow(/truncated|not an ONNX model|no graph/);
    writeFileSync(join(dir, 'empty.onnx'), '');
    await expect(checkOnnx(join(dir, 'empty.onnx'))).rejects.toThrow(/empty/);
  });
});
