/**
 * The engine's recognizers, built in one place: a decoder pool for batch jobs
 * and live decoders for streaming sessions. Routes and jobs get them from the
 * context and never construct a recognizer themselves. The decoders come
 * from recognizer/index.ts's `createRecognizers`, which also serializes
 * decoder creation process-wide.
 */
import { setVadPoolsIdleMs, vadStatus } from './audio/vad';
import type { Logger } from './logger';
import { createRecognizers, type Recognizer, type RecognizerStream, type SpeakerAdapter } from './recognizer/index';
import { ModelRegistry } from './recognizer/sherpa/registry';

export interface EngineRecognizers {
  /** Decodes job segments; decoders are pooled inside. */
  readonly batch: Recognizer;
  /** Opens the decoder of one live session. Decoder creation is serialized. */
  live(params: { keyterms: string[] }): Promise<RecognizerStream>;
  /** False when the recognizer library or model is missing; `unavailableReason` says what to install. */
  readonly available: boolean;
  readonly unavailableReason: string | null;
  /** Speaker adaptation for jobs' second pass; null with an injected recognizer or when its tools are missing (then jobs decode once). */
  readonly adapter: SpeakerAdapter | null;
  /** Whether live sessions detect speech with Silero VAD (else with the decoder's own detector). */
  readonly liveVad: boolean;
  /** The installed local models (sherpa-onnx) under the models folder; `speech_models` and the streaming `speech_model` pick them. */
  readonly local: ModelRegistry;
  dispose(): void;
}

export interface RecognizerOptions {
  /** Parallel batch jobs (the batch pool keeps two more decoders). */
  workers: number;
  /** Concurrent live sessions. */
  maxSessions: number;
  /** Use Silero VAD for live sessions when it loads. */
  useVad: boolean;
  /** Decoders and detectors unused this long are freed (default 60 s). */
  idleMs?: number;
  /** Adapt the batch model to each longer recording's speaker (when its tools are installed). */
  speakerAdaptation?: boolean;
  /** An injected recognizer (tests, other engines), used as it is for both; the caller disposes it. */
  injected?: Recognizer;
  /** The folder of installed models (`--models`). */
  modelsDir: string;
  logger: Logger;
}

export function buildRecognizers(o: RecognizerOptions): EngineRecognizers {
  const vad = vadStatus();
  const liveVad = o.useVad && vad.available;
  if (o.useVad && !vad.available) o.logger.warn(`${vad.reason ?? 'Silero VAD is unavailable'}; streaming falls back to the decoder's speech detector`);
  // An injected recognizer serves both and stays the caller's to dispose.
  const set = o.injected
    ? { batch: o.injected, live: o.injected, adapter: null, dispose: () => undefined }
    : createRecognizers({ workers: o.workers, maxSessions: o.maxSessions, liveVad, idleMs: o.idleMs });
  if (o.idleMs !== undefined) setVadPoolsIdleMs(o.idleMs);
  const { batch, live } = set;
  let adapter = o.speakerAdaptation === false ? null : set.adapter;
  if (adapter && batch.available && !adapter.available) {
    o.logger.warn(`speaker adaptation is off, jobs are decoded in one pass (${adapter.unavailableReason ?? 'its tools are missing'})`);
    adapter = null;
  }
  const local = new ModelRegistry({ dir: o.modelsDir, idleMs: o.idleMs, logger: o.logger });
  // With Silero in front a session takes its decoder when speech starts: sessions that never speak hold none (20 hostile sessions took +336 MiB).
  const open = (keyterms?: string[]): Promise<RecognizerStream> =>
    live.openStream({ ...(keyterms ? { keyterms } : {}), ...(liveVad ? { onFirstUse: true } : {}) });
  return {
    batch,
    live: (params) => open(params.keyterms),
    get available() {
      return batch.available;
    },
    get unavailableReason() {
      return batch.unavailableReason;
    },
    adapter,
    liveVad,
    local,
    dispose() {
      set.dispose();
      local.dispose();
    },
  };
}
