/** Where a transcript's word confidences come from, told by its service and model: the cloud, a local model's token scores, PocketSphinx, or nowhere. */
// From the catalog's data alone (as wordTimes.ts): the schemas would bring zod into the first chunk.
import { catalogEntry } from '../../../shared/models/lookup';

export type ConfidenceSource = 'cloud' | 'tokens' | 'sphinx' | 'none';

/** The local families whose results carry per-token log-probabilities (sherpa-onnx's transducer decoders); CTC, Whisper, Moonshine and SenseVoice give none. */
const SCORED_FAMILIES: ReadonlySet<string> = new Set(['nemo-transducer', 'zipformer-transducer', 'streaming-transducer']);

/** `region`: the service that made it; `model`: the model it says it used (speech_model_used). */
export function confidenceSource(region: string, model: string | null): ConfidenceSource {
  if (model && /sphinx/i.test(model)) return 'sphinx';
  const entry = model ? catalogEntry(model) : undefined;
  if (entry) return SCORED_FAMILIES.has(entry.family) ? 'tokens' : 'none';
  // A cloud (or self-hosted compatible) service gives each word its own confidence; a local model we do not know gives none we can trust.
  return region === 'local' ? 'none' : 'cloud';
}

/** The sentence the details panel shows. */
export function confidenceSourceText(source: ConfidenceSource, model: string | null): string {
  const name = (model && catalogEntry(model)?.name) ?? model;
  switch (source) {
    case 'cloud':
      return 'Word confidences from the transcription service.';
    case 'tokens':
      return `Word confidences from ${name ?? 'the local model'}’s scores for each piece of a word (a word is as sure as its least sure piece).`;
    case 'sphinx':
      return 'Word confidences from PocketSphinx’s word probabilities.';
    case 'none':
      return `${name ?? 'This model'} gives no word confidences, so there are no doubtful words to review.`;
  }
}
