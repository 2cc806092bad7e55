/**
 * Recognizer entry point. `createRecognizer()` returns the engine's default
 * recognizer (PocketSphinx); check `available` / `unavailableReason`.
 */
import { SphinxRecognizer, type SphinxOptions } from './sphinx';
import type { Recognizer } from './types';

export type { PartialResult, RecognizedWord, Recognizer, RecognizerStream } from './types';
export { SAMPLE_RATE } from './types';
export { SphinxRecognizer, cleanSphinxWord } from './sphinx';

export type RecognizerFactory = () => Recognizer;

export function createRecognizer(opts?: SphinxOptions): Recognizer {
  return new SphinxRecognizer(opts);
}
