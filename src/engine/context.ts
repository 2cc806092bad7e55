/**
 * What routes and jobs are handed: the engine's options, store, recognizers,
 * gateway, webhook sender and job queue. server.ts builds it; no route or job
 * imports server.ts, so the engine has no import cycle.
 */
import type { IncomingMessage } from 'node:http';
import type { DownloadLimits } from './audio/download';
import type { Gateway } from './gateway/gateway';
import type { GatewayOptions } from './gateway/config';
import type { Logger } from './logger';
import type { Recognizer } from './recognizer/index';
import type { ModelsFolder } from './models/folder';
import type { EngineRecognizers } from './recognizer/engine-set';
import type { SpeakerLabels } from './recognizer/speakers';
import type { RetentionPolicy } from './retention';
import type { Store } from './store';
import type { StreamingEngineOptions } from './streaming/options';
import type { TlsFiles } from './tls';
import type { WebhookOptions, WebhookSender } from './webhooks';

export type { Logger } from './logger';

export interface EngineOptions {
  host: string;
  port: number;
  apiKey: string;
  dataDir: string;
  /** Parallel transcription jobs; default cores − 1, at least 1. */
  workers?: number;
  /** Accept `file://` audio URLs. */
  allowFileUrls?: boolean;
  /** Upload size limit in bytes (default 5 GiB). */
  maxUploadBytes?: number;
  /** Size limit for audio fetched from http(s) URLs (default 5 GiB). */
  maxFetchBytes?: number;
  /** Timeout for fetching audio URLs (default 60 s without progress). */
  fetchTimeoutMs?: number;
  /** Fetch audio URLs on loopback and private addresses. Default: only when listening on loopback (the caller is on this machine anyway). */
  allowPrivateUrls?: boolean;
  /** Deadline, minimum rate and redirects of audio URL downloads (defaults in audio/download.ts). */
  fetchLimits?: Partial<DownloadLimits>;
  /** Webhook timings and clock (tests make them fast). */
  webhook?: Partial<WebhookOptions>;
  /** Recognizer to use for batch and live decoding (default PocketSphinx); the caller disposes it. */
  recognizer?: Recognizer;
  /** How long SIGTERM waits for running jobs before leaving them queued (default 30 s). */
  drainTimeoutMs?: number;
  /** No request logging. */
  quiet?: boolean;
  /** Serve https/wss with these PEM files (the SDK's StreamingTranscriber needs wss). */
  tls?: TlsFiles;
  /** Streaming v3 limits (sessions, burst, max duration). */
  streaming?: Partial<StreamingEngineOptions>;
  /** LLM gateway upstreams and limits (merged with <data>/gateway.json). */
  gateway?: GatewayOptions;
  /** Decoders and speech detectors unused this long are freed (default 60 s). */
  idleMs?: number;
  /**
   * Adapt the model to the speaker of narrowband (telephone-band) recordings
   * with 20 s of speech or more (a first pass, an MLLR transform, a second
   * pass; recognizer/adapt.ts, jobs/recognize-segments.ts).
   * Default true; it needs sphinxtrain and sphinxbase-utils, else jobs decode once.
   */
  speakerAdaptation?: boolean;
  /**
   * Suppress the noise of noisy recordings (estimated SNR below 22 dB) with
   * RNNoise before recognition (audio/denoise.ts). Default true.
   */
  denoise?: boolean;
  /** Disk retention (defaults in retention.ts: partial files 1 h, unused uploads 24 h, hourly sweep). */
  retention?: Partial<RetentionPolicy>;
  /** The folder of installed models (default `<dataDir>/models`); diarization finds its models there. */
  modelsDir?: string;
  /** The installed model live sessions use when they name none (`--live-model`); default PocketSphinx. */
  liveModel?: string | null;
  /**
   * The decoding-to-audio time ratio above which a live model is reported slower than real time
   * (a Warning on /v3/ws; `--live-slow-rtf`, or VERBATIM_LIVE_SLOW_RTF). Default 1; 0 reports any model, which tests use.
   */
  liveSlowRtf?: number;
}

export type ResolvedOptions = Required<
  Pick<EngineOptions, 'host' | 'apiKey' | 'dataDir' | 'workers' | 'allowFileUrls' | 'maxUploadBytes' | 'maxFetchBytes' | 'fetchTimeoutMs' | 'drainTimeoutMs'>
> &
  EngineOptions & { streaming: StreamingEngineOptions };

/** What routes ask of the job runner. */
export interface JobQueue {
  /** False once the engine drains for shutdown. */
  readonly accepting: boolean;
  /** Wakes an idle worker after a new job was stored. */
  notify(): void;
  /** Cancels a running job (its transcript was deleted). */
  cancel(id: string): void;
}

export interface EngineContext {
  opts: ResolvedOptions;
  store: Store;
  recognizers: EngineRecognizers;
  /** The models folder's one reader (models/folder.ts): installed speech, speaker and chat models. */
  models: ModelsFolder;
  gateway: Gateway;
  webhooks: WebhookSender;
  jobs: JobQueue;
  /** Speaker diarization (recognizer/speakers.ts). */
  speakers: SpeakerLabels;
  logger: Logger;
  /** `http://host:port` once listening. */
  baseUrl(): string;
  /** Whether a request carries the API key. */
  isAuthorized(req: IncomingMessage): boolean;
  /** Registers cleanup run by `close()`, before the store closes. */
  onClose(fn: () => void | Promise<void>): void;
}

/** What the job runner and a job are handed: everything but the queue itself. */
export type JobContext = Omit<EngineContext, 'jobs'>;
