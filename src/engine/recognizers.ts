/**
 * The engine's recognizers, built in one place: a decoder pool for batch jobs
 * and live decoders for streaming sessions. Routes and jobs get them from the
 * context and never construct a recognizer themselves. When
 * recognizer/index.ts exports `createRecognizers`, `buildRecognizers` becomes
 * a call to it.
 */
import { vadStatus } from './audio/vad';
import type { Logger } from './logger';
import { createRecognizer, SphinxRecognizer, type Recognizer, type RecognizerStream } from './recognizer/index';

/** Decoder arguments for live sessions: no second (flat) pass and tighter pruning, for latency. */
export const LIVE_DECODER_ARGS = { '-fwdflat': 'no', '-maxhmmpf': '1500', '-pl_window': '10', '-topn': '2', '-maxwpf': '5', '-remove_silence': 'no' };

export interface EngineRecognizers {
  /** Decodes job segments; decoders are pooled inside. */
  readonly batch: Recognizer;
  /** Opens the decoder of one live session. Decoder creation is serialized. */
  live(params: { keyterms: string[] }): Promise<RecognizerStream>;
  /** False when the recognizer library or model is missing; `unavailableReason` says what to install. */
  readonly available: boolean;
  readonly unavailableReason: string | null;
  /** Whether live sessions detect speech with Silero VAD (else with the decoder's own detector). */
  readonly liveVad: boolean;
  dispose(): void;
}

export interface RecognizerOptions {
  /** Parallel batch jobs (the batch pool keeps two more decoders). */
  workers: number;
  /** Concurrent live sessions. */
  maxSessions: number;
  /** Use Silero VAD for live sessions when it loads. */
  useVad: boolean;
  /** An injected recognizer (tests, other engines), used as it is for both; the caller disposes it. */
  injected?: Recognizer;
  logger: Logger;
}

export function buildRecognizers(o: RecognizerOptions): EngineRecognizers {
  const vad = vadStatus();
  const liveVad = o.useVad && vad.available;
  if (o.useVad && !vad.available) o.logger.warn(`${vad.reason ?? 'Silero VAD is unavailable'}; streaming falls back to the decoder's speech detector`);
  const batch = o.injected ?? createRecognizer({ poolSize: o.workers + 2 });
  // Live decoders are tuned for latency: ending a turn costs ~50 ms instead of ~300 and a session
  // about 0.15 of a core instead of 0.25, same words on our clips. Without Silero the decoder's own
  // detector needs PocketSphinx's silence removal (which makes times after long pauses early).
  const live = o.injected ?? new SphinxRecognizer({ poolSize: o.maxSessions, args: liveVad ? LIVE_DECODER_ARGS : { ...LIVE_DECODER_ARGS, '-remove_silence': 'yes' } });
  /** Decoder openings, chained: loading models concurrently on worker threads is not known to be safe. */
  let opens: Promise<unknown> = Promise.resolve();
  const open = (keyterms?: string[]): Promise<RecognizerStream> => {
    const opening = opens.catch(() => undefined).then(() => live.openStream(keyterms ? { keyterms } : undefined));
    opens = opening;
    return opening;
  };
  if (live.available) {
    // Load two live decoders now so the first sessions do not wait for the model.
    void open()
      .then(async (a) => {
        const b = o.maxSessions > 1 ? await open() : null;
        a.close();
        b?.close();
      })
      .catch((err: unknown) => o.logger.warn(`streaming warm-up failed: ${err instanceof Error ? err.message : String(err)}`));
  }
  return {
    batch,
    live: (params) => open(params.keyterms),
    get available() {
      return batch.available;
    },
    get unavailableReason() {
      return batch.unavailableReason;
    },
    liveVad,
    dispose() {
      if (o.injected) return;
      live.dispose();
      batch.dispose();
    },
  };
}
