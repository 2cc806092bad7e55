/**
 * sherpa-onnx recognizer configs for an installed, checked model, by family, and keyterms turned into the
 * hotwords transducers take (each word spelled in the model's own tokens, longest match first).
 */
import type { ModelManifest } from '../../../shared/models/catalog';
import type { CheckedModel } from './validate';

const THREADS = 2;

export interface DecodeOptions {
  /** Transducers: modified_beam_search, so hotwords can be given per stream. */
  beam?: boolean;
  /** Whisper: a language code, '' to detect. */
  language?: string;
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
    default:
      throw new Error(`${m.family} models do not transcribe files`);
  }
  return {
    featConfig: { sampleRate: 16000, featureDim: featDim },
    modelConfig,
    decodingMethod: o.beam && isTransducer(m) ? 'modified_beam_search' : 'greedy_search',
    maxActivePaths: 4,
    hotwordsScore: 2,
  };
}

/** The OnlineRecognizer config of a checked streaming transducer. */
export function onlineConfig(c: CheckedModel, o: DecodeOptions = {}): Record<string, unknown> {
  const p = c.paths;
  return {
    featConfig: { sampleRate: 16000, featureDim: 80 },
    modelConfig: { transducer: { encoder: p.encoder, decoder: p.decoder, joiner: p.joiner }, tokens: p.tokens, numThreads: 1, debug: 0, provider: 'cpu' },
    decodingMethod: o.beam ? 'modified_beam_search' : 'greedy_search',
    maxActivePaths: 4,
    hotwordsScore: 2,
    enableEndpoint: 1,
    rule1MinTrailingSilence: 2.4,
    rule2MinTrailingSilence: 0.8,
    rule3MinUtteranceLength: 20,
  };
}

/** A word spelled in the vocabulary's tokens (▁ marks a word start), or null when it cannot be. */
export function spell(word: string, vocab: ReadonlySet<string>): string[] | null {
  const upper = [...vocab].some((t) => /[A-Z]/.test(t)) && ![...vocab].some((t) => /[a-z]/.test(t));
  const w = `▁${upper ? word.toUpperCase() : word.toLowerCase()}`;
  const out: string[] = [];
  let i = 0;
  while (i < w.length) {
    let j = w.length;
    while (j > i && !vocab.has(w.slice(i, j))) j--;
    if (j === i) return null;
    out.push(w.slice(i, j));
    i = j;
  }
  return out;
}

/** Keyterms as a hotwords string ("TOK TOK/TOK"), and which words could and could not be spelled. */
export function hotwordsFor(keyterms: string[], tokens: readonly string[]): { hotwords: string; added: string[]; skipped: string[] } {
  const vocab = new Set(tokens);
  const phrases: string[] = [];
  const added: string[] = [];
  const skipped: string[] = [];
  for (const term of keyterms) {
    const spelled: string[] = [];
    let ok = true;
    for (const word of term.split(/\s+/).filter(Boolean)) {
      const s = spell(word.replace(/[^\p{L}\p{N}']/gu, ''), vocab);
      if (s) {
        spelled.push(...s);
        added.push(word);
      } else {
        ok = false;
        skipped.push(word);
      }
    }
    if (ok && spelled.length) phrases.push(spelled.join(' '));
  }
  return { hotwords: phrases.join('/'), added, skipped };
}
