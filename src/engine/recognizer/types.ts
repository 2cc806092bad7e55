/**
 * The Recognizer interface shared by batch transcription (jobs/) and live
 * streaming (streaming/). Audio is always 16 kHz mono signed 16-bit PCM.
 */

/** One recognised word; times in milliseconds from the start of the audio given to the stream. */
export interface RecognizedWord {
  text: string;
  start: number;
  end: number;
  /** 0–1, from the decoder's posteriors. */
  confidence: number;
}

export interface PartialResult {
  text: string;
  words?: RecognizedWord[];
}

/**
 * One utterance-level decoding session with a resident decoder. Calls are
 * serialised internally; none of them blocks the event loop.
 */
export interface RecognizerStream {
  /** Feed audio (16 kHz mono PCM16). Resolves once the decoder has consumed it. */
  accept(pcm: Int16Array): Promise<void>;
  /** The current best hypothesis of the utterance in progress (cheap; no posteriors). */
  partial(): Promise<PartialResult>;
  /**
   * Ends the utterance and returns its words with timings and confidences.
   * Times are relative to the utterance's first sample (the first sample
   * accepted after the previous `finish()`); add the stream position of that
   * sample (`acceptedMs` read right after the previous finish) for stream times.
   * The stream then accepts the next utterance.
   */
  finish(): Promise<RecognizedWord[]>;
  /** Whether the decoder's own voice activity detector currently hears speech. */
  inSpeech(): Promise<boolean>;
  /** Milliseconds of audio accepted since the stream was opened (all utterances). */
  readonly acceptedMs: number;
  /** Frees the decoder (or returns it to the pool). Idempotent. */
  close(): void;
}

/** A speaker-adaptation (MLLR) transform of the model's means, as a file (recognizer/adapt.ts makes it). */
export interface SpeakerTransform {
  file: string;
}

/** What became of a request's keyterms, word by word. */
export interface KeytermReport {
  /** Words the dictionary lacked, added with a pronunciation built from dictionary words. */
  added: string[];
  /** Words already in the dictionary and language model (nothing to add; they cannot be weighted further). */
  known: string[];
  /** Words no pronunciation could be built for: they cannot be recognized. */
  skipped: string[];
  /** How a local model took them: as hotwords its decoding boosts ('added': boosted, 'skipped': not spellable in its vocabulary), or not at all. Absent: PocketSphinx's dictionary. */
  by?: 'hotwords' | 'unsupported';
}

export interface Recognizer {
  readonly name: string;
  /** False when the library or model is missing; `unavailableReason` then says what to install. */
  readonly available: boolean;
  readonly unavailableReason: string | null;
  /** A stream with a resident decoder (`onFirstUse`: taken when first used, where the recognizer supports it). Throws an Error carrying `unavailableReason` when not available. */
  openStream(opts?: { keyterms?: string[]; onFirstUse?: boolean }): Promise<RecognizerStream>;
  /**
   * Decodes a whole clip as one utterance (batch normalisation; keep clips ≤ ~30 s, e.g. VAD segments); times relative to the clip.
   * `speaker`: a transform of the model to this recording's speaker (recognizer/adapt.ts), for the second pass.
   */
  recognize(pcm: Int16Array, opts?: { keyterms?: string[]; speaker?: SpeakerTransform }): Promise<RecognizedWord[]>;
  /**
   * Readies decoders for `keyterms` (later `recognize`/`openStream` calls with
   * the same terms use them) and says what became of each word; see keytermWarning.
   */
  prepareKeyterms?(keyterms: string[]): Promise<KeytermReport>;
  /** Loads `n` decoders ahead of use (optional). */
  prewarm?(n: number): Promise<void>;
  /** Frees every pooled decoder. */
  dispose(): void;
}

export const SAMPLE_RATE = 16000;
