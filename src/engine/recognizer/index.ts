/**
 * Recognizer entry point: `createRecognizers()` returns the engine's batch
 * and live recognizers (PocketSphinx, each with decoder settings of its own);
 * check `available` / `unavailableReason`. Decoder creation is serialized
 * process-wide inside sphinx.ts: callers need no lock of their own.
 */
import { SpeakerAdapter } from './adapt';
import { LIVE_DECODER_ARGS, SPHINX_MODEL_DIR, SphinxRecognizer, type SphinxOptions } from './sphinx';
import type { Recognizer } from './types';

export type { KeytermReport, PartialResult, RecognizedWord, Recognizer, RecognizerStream, SpeakerTransform } from './types';
export { SAMPLE_RATE } from './types';
export { BATCH_DECODER_ARGS, LIVE_DECODER_ARGS, SphinxRecognizer, cleanSphinxWord, keytermWords } from './sphinx';
export { keytermWarning } from './keyterms';
export { ADAPT_MIN_SPEECH_S, ADAPT_SAMPLE_S, SpeakerAdapter, type Utterance } from './adapt';

export type RecognizerFactory = () => Recognizer;

export interface RecognizerSet {
  /** Whole-clip decoding for jobs: accuracy first (see BATCH_DECODER_ARGS). */
  batch: Recognizer;
  /** Streaming decoding: latency first (see LIVE_DECODER_ARGS). */
  live: Recognizer;
  /** Speaker adaptation for the batch recognizer's second pass (see ./adapt.ts); check `available`. */
  adapter: SpeakerAdapter;
  /** Frees every pooled decoder of both. */
  dispose(): void;
}

export interface RecognizerSetOptions {
  /** Job workers: batch decoders kept warm. */
  workers: number;
  /** Concurrent streaming sessions: live decoders kept warm. */
  maxSessions: number;
  /**
   * Whether streaming has Silero VAD. Without it the decoder's own detector
   * decides speech vs silence, which needs PocketSphinx's silence removal
   * (word times after long pauses then come out early).
   */
  liveVad: boolean;
  /** A decoder unused this long is freed (default 60 s). */
  idleMs?: number;
  modelDir?: string;
}

/** Idle live decoders kept for the next session. */
const LIVE_IDLE_DECODERS = 2;

export function createRecognizers(opts: RecognizerSetOptions): RecognizerSet {
  const batch = new SphinxRecognizer({ poolSize: opts.workers + 2, idleMs: opts.idleMs, modelDir: opts.modelDir });
  const live = new SphinxRecognizer({
    // Each live decoder holds its own model (about 70 MB): after a burst of sessions only two are kept warm, the rest freed at once.
    poolSize: Math.min(opts.maxSessions, LIVE_IDLE_DECODERS),
    // Sessions take their decoder when speech starts; while some wait, two are made ready ahead (never more than maxSessions in all).
    spares: opts.liveVad ? LIVE_IDLE_DECODERS : 0,
    maxDecoders: opts.maxSessions,
    idleMs: opts.idleMs,
    modelDir: opts.modelDir,
    preset: LIVE_DECODER_ARGS,
    args: opts.liveVad ? {} : { '-remove_silence': 'yes' },
  });
  const adapter = new SpeakerAdapter({ modelDir: opts.modelDir ?? SPHINX_MODEL_DIR });
  return {
    batch,
    live,
    adapter,
    dispose: () => {
      batch.dispose();
      live.dispose();
      adapter.dispose();
    },
  };
}

/** The batch recognizer alone (kept for callers that take one recognizer). */
export function createRecognizer(opts?: SphinxOptions): Recognizer {
  return new SphinxRecognizer(opts);
}
