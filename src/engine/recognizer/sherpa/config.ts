/**
 * sherpa-onnx recognizer configs for an installed, checked model, by family, and keyterms turned into the
 * hotwords transducers take: raw words (in the vocabulary's case) that sherpa-onnx splits itself with
 * `modelingUnit: 'bpe'` and a `bpeVocab` built from tokens.txt, as upstream's own hotword example does
 * (k2-fsa/sherpa-onnx nodejs-addon-examples/test_asr_non_streaming_nemo_parakeet_tdt_v2_hotwords.js).
 */
import { createHash } from 'node:crypto';
import { mkdir, rename, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ModelManifest } from '../../../shared/models/catalog';
import type { CheckedModel } from './validate';

/**
 * One thread per decode: a file's segments are decoded side by side instead, as many as its share of the cores
 * (recognizer/decode-share.ts), so busy threads never outnumber cores. Measured with the compute model
 * (bench/local-scaling.ts) on the 2-core dev machine: 1 thread decoded 8 clips in 2.0 s, 2 threads in 3.5 s.
 */
const THREADS = 1;

export interface DecodeOptions {
  /** Transducers: modified_beam_search, so hotwords can be given per stream. */
  beam?: boolean;
  /** Whisper: a language code, '' to detect. SenseVoice: its language ('' or 'auto' to detect). */
  language?: string;
  /** Transducers with hotwords: the bpe.vocab file sherpa-onnx splits the raw words with (bpeVocabFile). */
  bpeVocab?: string;
  /** Streaming transducers: the hotwords, one phrase a line, given to the recognizer (its streams start with them). */
  hotwords?: string;
}

/** Whether the family decodes with a transducer (hotwords possible). */
export function isTransducer(m: ModelManifest): boolean {
  return m.family === 'nemo-transducer' || m.family === 'zipformer-transducer' || m.family === 'streaming-transducer';
}

/** The OfflineRecognizer config of a checked model. */
export function offlineConfig(m: ModelManifest, c: CheckedModel, o: DecodeOptions = {}): Record<string, unknown> {
  const p = c.paths;
  const featDim = Number(c.metadata.encoder?.feat_dim ?? c.metadata.model?.feat_dim ?? 80) || 80;
  const modelConfig: Record<string, unknown> = { tokens: p.tokens, numThreads: THREADS, debug: 0, provider: 'cpu' };
  switch (m.family) {
    case 'nemo-transducer':
      modelConfig.transducer = { encoder: p.encoder, decoder: p.decoder, joiner: p.joiner };
      modelConfig.modelType = 'nemo_transducer';
      break;
    case 'zipformer-transducer':
      modelConfig.transducer = { encoder: p.encoder, decoder: p.decoder, joiner: p.joiner };
      break;
    case 'nemo-ctc':
      modelConfig.nemoCtc = { model: p.model };
      break;
    case 'zipformer-ctc':
      modelConfig.zipformerCtc = { model: p.model };
      break;
    case 'whisper':
      modelConfig.whisper = { encoder: p.encoder, decoder: p.decoder, language: o.language ?? '', task: 'transcribe', tailPaddings: -1 };
      break;
    case 'moonshine':
      modelConfig.moonshine = { preprocessor: p.preprocessor, encoder: p.encoder, uncachedDecoder: p.uncachedDecoder, cachedDecoder: p.cachedDecoder };
      break;
    case 'moonshine-v2':
      // v2 has no preprocessor and one merged decoder (upstream's test_asr_non_streaming_moonshine_v2.js).
      modelConfig.moonshine = { encoder: p.encoder, mergedDecoder: p.mergedDecoder };
      break;
    case 'sense-voice':
      // Inverse text normalization on, as upstream's example has it: numbers come back as digits.
      modelConfig.senseVoice = { model: p.model, language: o.language ?? '', useInverseTextNormalization: 1 };
      break;
    default:
      throw new Error(`${m.family} models do not transcribe files`);
  }
  const beam = o.beam === true && isTransducer(m);
  if (beam && o.bpeVocab) Object.assign(modelConfig, { modelingUnit: 'bpe', bpeVocab: o.bpeVocab });
  return {
    featConfig: { sampleRate: 16000, featureDim: featDim },
    modelConfig,
    decodingMethod: beam ? 'modified_beam_search' : 'greedy_search',
    maxActivePaths: 4,
    hotwordsScore: 2,
  };
}

/**
 * The OnlineRecognizer config of a checked streaming transducer. Hotwords go in the config (`hotwordsBuf`):
 * sherpa-onnx-node 1.13.8's OnlineRecognizer.createStream() takes no hotwords (its native createOnlineStream
 * takes only the recognizer), so every stream of a recognizer made with them starts with them.
 */
export function onlineConfig(c: CheckedModel, o: DecodeOptions = {}): Record<string, unknown> {
  const p = c.paths;
  const modelConfig: Record<string, unknown> = {
    transducer: { encoder: p.encoder, decoder: p.decoder, joiner: p.joiner },
    tokens: p.tokens,
    numThreads: 1,
    debug: 0,
    provider: 'cpu',
  };
  const hotwords = o.beam && o.hotwords && o.bpeVocab ? o.hotwords : '';
  if (hotwords) Object.assign(modelConfig, { modelingUnit: 'bpe', bpeVocab: o.bpeVocab });
  return {
    featConfig: { sampleRate: 16000, featureDim: 80 },
    modelConfig,
    decodingMethod: o.beam ? 'modified_beam_search' : 'greedy_search',
    maxActivePaths: 4,
    hotwordsScore: 2,
    ...(hotwords ? { hotwordsBuf: hotwords, hotwordsBufSize: Buffer.byteLength(hotwords) } : {}),
    enableEndpoint: 1,
    rule1MinTrailingSilence: 2.4,
    rule2MinTrailingSilence: 0.8,
    rule3MinUtteranceLength: 20,
  };
}

/** What spell() needs of a vocabulary, worked out once per set: its case and its longest piece. */
const vocabFacts = new WeakMap<ReadonlySet<string>, { upper: boolean; lower: boolean; longest: number }>();
function factsOf(vocab: ReadonlySet<string>): { upper: boolean; lower: boolean; longest: number } {
  let f = vocabFacts.get(vocab);
  if (!f) {
    let upper = false;
    let lower = false;
    let longest = 0;
    for (const t of vocab) {
      if (!upper && /[A-Z]/.test(t)) upper = true;
      if (!lower && /[a-z]/.test(t)) lower = true;
      longest = Math.max(longest, t.length);
    }
    f = { upper, lower, longest };
    vocabFacts.set(vocab, f);
  }
  return f;
}

/** The word as the vocabulary writes its letters: upper case for an upper-case vocabulary (LibriSpeech zipformers), lower for a lower-case one, else as typed (Parakeet). */
function inVocabCase(word: string, vocab: ReadonlySet<string>): string {
  const { upper, lower } = factsOf(vocab);
  return upper && !lower ? word.toUpperCase() : lower && !upper ? word.toLowerCase() : word;
}

/** A longer "word" is no word a model can be steered to (the longest English ones have ~45 letters); it is skipped. */
export const MAX_HOTWORD_CHARS = 100;

/**
 * A word spelled in the vocabulary's tokens (▁ marks a word start) with the fewest pieces, or null when it
 * cannot be: sherpa-onnx splits a hotword with a bpe.vocab whose pieces all score alike (fewest pieces
 * wins), and a word it cannot split becomes <unk>, which drops the stream's every hotword. Only pieces as
 * long as the vocabulary's longest are tried, so the work is linear in the word (it was every split, O(L²)).
 */
export function spell(word: string, vocab: ReadonlySet<string>): string[] | null {
  if (word.length > MAX_HOTWORD_CHARS) return null;
  const w = `▁${inVocabCase(word, vocab)}`;
  const { longest } = factsOf(vocab);
  // count[i]: fewest pieces spelling w[0, i); from[i]: where its last piece starts.
  const count = new Array<number>(w.length + 1).fill(Infinity);
  const from = new Array<number>(w.length + 1).fill(-1);
  count[0] = 0;
  for (let i = 1; i <= w.length; i++) {
    for (let j = Math.max(0, i - longest); j < i; j++) {
      const c = (count[j] as number) + 1;
      if (c < (count[i] as number) && vocab.has(w.slice(j, i))) {
        count[i] = c;
        from[i] = j;
      }
    }
  }
  if (count[w.length] === Infinity) return null;
  const pieces: string[] = [];
  for (let i = w.length; i > 0; i = from[i] as number) pieces.unshift(w.slice(from[i] as number, i));
  return pieces;
}

/**
 * Keyterms as hotwords: the raw words of each term, in the vocabulary's case, phrases joined by '/' (what an
 * offline stream takes; an online recognizer's hotwordsBuf takes one a line). A term with a word the model
 * cannot spell is left out whole, so it cannot cost the others.
 */
export function hotwordsFor(keyterms: string[], tokens: readonly string[]): { hotwords: string; added: string[]; skipped: string[] } {
  const vocab = new Set(tokens);
  const out = { phrases: [] as string[], added: [] as string[], skipped: [] as string[] };
  for (const term of keyterms) termHotwords(term, vocab, out);
  return { hotwords: out.phrases.join('/'), added: out.added, skipped: out.skipped };
}

function termHotwords(term: string, vocab: ReadonlySet<string>, out: { phrases: string[]; added: string[]; skipped: string[] }): void {
  const words: string[] = [];
  let ok = true;
  for (const word of term.split(/\s+/).filter(Boolean)) {
    // '/' separates phrases and ':' starts a score in sherpa-onnx's hotwords, so only letters, digits and apostrophes pass.
    const clean = word.replace(/[^\p{L}\p{N}']/gu, '');
    if (clean && spell(clean, vocab)) {
      words.push(inVocabCase(clean, vocab));
      out.added.push(word);
    } else {
      ok = false;
      out.skipped.push(word.length > MAX_HOTWORD_CHARS ? `${word.slice(0, 40)}…` : word);
    }
  }
  if (ok && words.length) out.phrases.push(words.join(' '));
}

/** hotwordsFor in slices of a few milliseconds, the event loop turning between them (many or long keyterms take a while). */
export async function hotwordsForInSlices(keyterms: string[], tokens: readonly string[]): Promise<{ hotwords: string; added: string[]; skipped: string[] }> {
  const vocab = new Set(tokens);
  const out = { phrases: [] as string[], added: [] as string[], skipped: [] as string[] };
  let sliceStart = performance.now();
  for (const term of keyterms) {
    termHotwords(term, vocab, out);
    if (performance.now() - sliceStart > 8) {
      await new Promise<void>((r) => setImmediate(r));
      sliceStart = performance.now();
    }
  }
  return { hotwords: out.phrases.join('/'), added: out.added, skipped: out.skipped };
}

/** bpe.vocab as upstream's hotword example builds it from tokens.txt: each symbol, a tab, the same score. */
export function bpeVocabText(tokens: readonly string[]): string {
  return (
    tokens
      .filter((t) => t && !/\s/.test(t))
      .map((t) => `${t}\t-1.0`)
      .join('\n') + '\n'
  );
}

/**
 * The bpe.vocab of a model's tokens, written once per vocabulary under the temporary folder (named by its
 * hash; rewritten if something removed it); the model's own folder is left as the manager installed it.
 */
export async function bpeVocabFile(tokens: readonly string[]): Promise<string> {
  const text = bpeVocabText(tokens);
  const dir = join(tmpdir(), 'verbatim-bpe-vocab');
  const file = join(dir, `${createHash('sha256').update(text).digest('hex').slice(0, 32)}.vocab`);
  const have = await stat(file).catch(() => null);
  if (have?.size === Buffer.byteLength(text)) return file;
  await mkdir(dir, { recursive: true });
  const part = `${file}.${process.pid}.${Date.now()}.part`;
  await writeFile(part, text);
  await rename(part, file);
  return file;
}
