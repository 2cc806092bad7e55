/**
 * Streaming v3 connection parameters (API.md §8.1) and the tunables that
 * `UpdateConfiguration` may change, checked with the wire schema
 * (src/shared/api/streaming.ts) and then against what the local engine can
 * do; a bad value becomes close 3006 with a reason naming the parameter.
 */
import type { z } from 'zod';
import { StreamingQuerySchema, StreamingTunablesSchema, type StreamingTunables } from '../../shared/api/streaming';

export const CLOSE = {
  normal: 1000,
  unauthorized: 1008,
  serverError: 3005,
  invalidMessage: 3006,
  badAudio: 3007,
  expired: 3008,
  tooMany: 3009,
} as const;

/** WebSocket close reasons are limited to 123 bytes of UTF-8 (ws throws a RangeError beyond). */
export const MAX_CLOSE_REASON_BYTES = 123;

/** `reason` cut to at most 123 bytes of UTF-8 at the end of a word (a character, for one long word), with "..." when cut. */
export function closeReason(reason: string): string {
  if (Buffer.byteLength(reason) <= MAX_CLOSE_REASON_BYTES) return reason;
  let out = '';
  let bytes = 0;
  for (const ch of reason) {
    const n = Buffer.byteLength(ch);
    if (bytes + n > MAX_CLOSE_REASON_BYTES - 3) break;
    out += ch;
    bytes += n;
  }
  const space = out.lastIndexOf(' ');
  const whole = space > out.length / 2 && !/\s/.test(reason[out.length] ?? ' ') ? out.slice(0, space) : out;
  return `${whole.replace(/[\s,;:]+$/, '')}...`;
}

export class StreamingClose extends Error {
  constructor(
    readonly code: number,
    reason: string,
  ) {
    super(closeReason(reason));
  }
}

export type Encoding = 'pcm_s16le' | 'pcm_mulaw';

export interface Tunables {
  formatTurns: boolean;
  endOfTurnConfidenceThreshold: number;
  minTurnSilence: number;
  maxTurnSilence: number;
  keyterms: string[];
  /** Seconds, or null for none. */
  inactivityTimeout: number | null;
  /** Silence messages while no speech is transcribed. */
  acknowledgeSilence: boolean;
  /** Heartbeat messages, one a second of audio. */
  sessionHeartbeat: boolean;
}

export interface StreamingParams extends Tunables {
  sampleRate: number;
  encoding: Encoding;
  speechModel: string;
  /** Label each finished turn's speaker (turn-voices.ts). */
  speakerLabels: boolean;
  /** The most speakers the labels tell apart, or null for no bound (speaker_labels only). */
  maxSpeakers: number | null;
  /** Audio between mid-stream SpeakerRevisions (ms), 0 for only the one before Termination. */
  speakerRevisionMs: number;
}

/** The SDK's documented clamp of a non-zero speaker_labels_revision_interval_ms. */
export const REVISION_MIN_MS = 120_000;
export const REVISION_MAX_MS = 300_000;

const ENGLISH_MODELS = new Set(['universal-streaming-english', 'u3-rt-pro']);

export const DEFAULTS: StreamingParams = {
  sampleRate: 16000,
  encoding: 'pcm_s16le',
  speechModel: 'universal-streaming-english',
  formatTurns: false,
  endOfTurnConfidenceThreshold: 0.4,
  minTurnSilence: 400,
  maxTurnSilence: 1280,
  keyterms: [],
  inactivityTimeout: null,
  speakerLabels: false,
  maxSpeakers: null,
  acknowledgeSilence: false,
  sessionHeartbeat: false,
  speakerRevisionMs: 0,
};

function bad(reason: string): never {
  throw new StreamingClose(CLOSE.invalidMessage, reason);
}

/** Parses with a wire schema; the first problem becomes close 3006 with its reason. */
function checked<S extends z.ZodType>(schema: S, src: unknown): z.output<S> {
  const r = schema.safeParse(src);
  if (!r.success) bad(r.error.issues[0]?.message ?? 'Invalid message');
  return r.data;
}

/** Applies checked tunables (a query or an UpdateConfiguration message) onto `into`. */
function apply(into: Tunables, t: StreamingTunables): void {
  if (t.format_turns != null) into.formatTurns = t.format_turns;
  if (t.end_of_turn_confidence_threshold != null) into.endOfTurnConfidenceThreshold = t.end_of_turn_confidence_threshold;
  const min = t.min_turn_silence ?? t.min_end_of_turn_silence_when_confident;
  if (min != null) into.minTurnSilence = min;
  if (t.max_turn_silence != null) into.maxTurnSilence = t.max_turn_silence;
  if (t.keyterms_prompt != null) into.keyterms = t.keyterms_prompt;
  if (t.inactivity_timeout != null) into.inactivityTimeout = t.inactivity_timeout;
  if (t.acknowledge_silence != null) into.acknowledgeSilence = t.acknowledge_silence;
  if (t.session_heartbeat != null) into.sessionHeartbeat = t.session_heartbeat;
  if (into.minTurnSilence > into.maxTurnSilence) {
    bad(`Invalid min_turn_silence: ${into.minTurnSilence} ms is longer than max_turn_silence (${into.maxTurnSilence} ms)`);
  }
}

/** Applies tunables from an UpdateConfiguration message onto `into`. Throws StreamingClose(3006) on a bad value. */
export function applyTunables(into: Tunables, src: Record<string, unknown>): void {
  apply(into, checked(StreamingTunablesSchema, src));
}

/** Parses the /v3/ws query string with the wire schema, then what the local engine can do. Throws StreamingClose(3006). */
export function parseParams(query: URLSearchParams): StreamingParams {
  const q = checked(StreamingQuerySchema, Object.fromEntries(query));
  const p: StreamingParams = { ...DEFAULTS, keyterms: [] };
  if (q.sample_rate !== undefined) p.sampleRate = q.sample_rate;
  if (q.encoding !== undefined) p.encoding = q.encoding;
  if (q.speech_model !== undefined) {
    if (!ENGLISH_MODELS.has(q.speech_model))
      bad(`Invalid speech_model: ${JSON.stringify(q.speech_model)}; the local engine supports universal-streaming-english and u3-rt-pro`);
    p.speechModel = q.speech_model;
  }
  if (q.language_detection) bad('language_detection is not supported by the local engine (English only)');
  if (q.language_code !== undefined && !/^en([_-](us|uk|au|gb))?$/i.test(q.language_code)) {
    bad(`Invalid language_code: ${JSON.stringify(q.language_code)}; the local engine recognizes English only`);
  }
  p.speakerLabels = q.speaker_labels === true;
  if (q.max_speakers !== undefined) p.maxSpeakers = q.max_speakers;
  const every = q.speaker_labels_revision_interval_ms ?? 0;
  p.speakerRevisionMs = every === 0 ? 0 : Math.min(REVISION_MAX_MS, Math.max(REVISION_MIN_MS, every));
  apply(p, q);
  return p;
}

/** Milliseconds of audio in a binary frame, or null when the byte count cannot be whole samples. */
export function frameMs(bytes: number, p: Pick<StreamingParams, 'sampleRate' | 'encoding'>): number | null {
  const width = p.encoding === 'pcm_s16le' ? 2 : 1;
  if (bytes % width !== 0) return null;
  return (bytes / width / p.sampleRate) * 1000;
}
