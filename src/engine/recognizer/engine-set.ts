/**
 * The engine's recognizers, built in one place, and the one way routes and jobs get one: `forJob` (the model a
 * stored job names, checked and loaded, else PocketSphinx's decoder pool) and `forStream` (a live session's
 * model, else a PocketSphinx live decoder). Which model a name means is models/choose.ts's call; routes and
 * jobs never branch between built-in and installed themselves, nor reach into sherpa/.
 */
import { setVadPoolsIdleMs, vadStatus } from '../audio/vad';
import type { Logger } from '../logger';
import type { SpeechModels } from '../models/choose';
import { ModelFileError, type ModelsFolder } from '../models/folder';
import { createRecognizers, type Recognizer, type RecognizerStream, type SpeakerAdapter } from './index';
import { openJobModel, LocalModelError } from './sherpa/job-model';
import { LiveModelError, liveModelOf, openLiveModel } from './sherpa/live';
import type { SherpaRecognizer } from './sherpa/recognizer';
import { ModelRegistry } from './sherpa/registry';

export { LocalModelError, LiveModelError, liveModelOf };

/** What a job decodes with. */
export interface JobRecognizer {
  recognizer: Recognizer;
  /** The installed model, when the job names one (its word times, punctuation and name differ from PocketSphinx's). */
  local: SherpaRecognizer | null;
  /** Speaker adaptation for the second pass (PocketSphinx only). */
  adapter: SpeakerAdapter | null;
}

export interface EngineRecognizers {
  /** PocketSphinx's batch decoders (pooled inside); /health names it. */
  readonly batch: Recognizer;
  /** The recognizer of a stored job; throws LocalModelError (the model's fault, or nothing to transcribe with) with a message for the job's error. */
  forJob(params: { speech_models: readonly string[] | null; language_code: string }): Promise<JobRecognizer>;
  /** Opens a live session's decoder: the installed `model`, else PocketSphinx (creation serialized). Throws LiveModelError for the close reason. */
  forStream(params: { model: string | null; keyterms: string[]; onSlow: (message: string) => void; slowRtf?: number }): Promise<RecognizerStream>;
  /** The installed speech models by id, through the registry (a model deleted since it was used is released when asked for). */
  readonly speechModels: SpeechModels;
  /** Why a session on `model` (null: PocketSphinx) cannot start now, or null when it can. */
  unavailableFor(model: string | null): string | null;
  /** False when the recognizer library or model is missing; `unavailableReason` says what to install. */
  readonly available: boolean;
  readonly unavailableReason: string | null;
  /** Whether live sessions detect speech with Silero VAD (else with the decoder's own detector). */
  readonly liveVad: boolean;
  /** The installed local models (sherpa-onnx) under the models folder (tests and benches read what it has loaded). */
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
  /** The models folder's one reader. */
  models: ModelsFolder;
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
  const local = new ModelRegistry({ dir: o.models.dir, folder: o.models, idleMs: o.idleMs, logger: o.logger });
  const unavailableFor = (model: string | null): string | null =>
    model || batch.available ? null : (batch.unavailableReason ?? 'The recognizer is not available');
  return {
    batch,
    async forJob(p) {
      const model = await openJobModel(local, p.speech_models, p.language_code);
      if (model) return { recognizer: model, local: model, adapter: null };
      const why = unavailableFor(null);
      if (why) throw new LocalModelError(`The local engine cannot transcribe: ${why}`);
      return { recognizer: batch, local: null, adapter };
    },
    forStream(p) {
      if (p.model) {
        const name = p.model;
        // A broken manifest is that model's fault: the session closes naming it, as for a model that will not load.
        return openLiveModel(local, name, p.keyterms, p.onSlow, p.slowRtf).catch((err: unknown) => {
          throw err instanceof ModelFileError ? new LiveModelError(`speech_model ${name.slice(0, 40)} is broken; reinstall it in Settings → Models`) : err;
        });
      }
      // With Silero in front a session takes its decoder when speech starts: sessions that never speak hold none (20 hostile sessions took +336 MiB).
      return live.openStream({ keyterms: p.keyterms, ...(liveVad ? { onFirstUse: true } : {}) });
    },
    unavailableFor,
    speechModels: { find: (id) => local.find(id), list: () => local.list() },
    get available() {
      return batch.available;
    },
    get unavailableReason() {
      return batch.unavailableReason;
    },
    liveVad,
    local,
    dispose() {
      set.dispose();
      local.dispose();
    },
  };
}
