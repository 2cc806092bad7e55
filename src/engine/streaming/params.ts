/**
 * Streaming v3 connection parameters (API.md §8.1) and the tunables that
 * `UpdateConfiguration` may change. Every value is checked; a bad one becomes
 * a close code with a reason that names the parameter and what is allowed.
 */

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

/** `reason` cut to at most 123 bytes of UTF-8 at a character boundary, with "..." when cut. */
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
  return `${out}...`;
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
}

export interface StreamingParams extends Tunables {
  sampleRate: number;
  encoding: Encoding;
  speechModel: string;
}

export const SPEECH_MODELS = ['universal-streaming-english', 'u3-rt-pro', 'universal-streaming-multilingual'] as const;
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
};

function bad(reason: string): never {
  throw new StreamingClose(CLOSE.invalidMessage, reason);
}

function num(name: string, raw: unknown, min: number, max: number, integer = false): number {
  const n = typeof raw === 'number' ? raw : typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : NaN;
  if (!Number.isFinite(n) || n < min || n > max || (integer && !Number.isInteger(n))) {
    bad(`Invalid ${name}: ${JSON.stringify(raw)}; expected ${integer ? 'an integer' : 'a number'} from ${min} to ${max}`);
  }
  return n;
}

function bool(name: string, raw: unknown): boolean {
  if (raw === true || raw === 'true' || raw === '1') return true;
  if (raw === false || raw === 'false' || raw === '0') return false;
  return bad(`Invalid ${name}: ${JSON.stringify(raw)}; expected true or false`);
}

function keyterms(raw: unknown): string[] {
  let v: unknown = raw;
  if (typeof raw === 'string') {
    try {
      v = JSON.parse(raw);
    } catch {
      bad('Invalid keyterms_prompt: expected a JSON array of strings');
    }
  }
  if (!Array.isArray(v) || !v.every((s) => typeof s === 'string' && s.length <= 50) || v.length > 100) {
    bad('Invalid keyterms_prompt: expected a JSON array of at most 100 strings of at most 50 characters');
  }
  return v as string[];
}

/** Applies tunables from a query or an UpdateConfiguration message onto `into`. */
export function applyTunables(into: Tunables, src: Record<string, unknown>): void {
  const has = (k: string) => src[k] !== undefined && src[k] !== null;
  if (has('format_turns')) into.formatTurns = bool('format_turns', src.format_turns);
  if (has('end_of_turn_confidence_threshold')) into.endOfTurnConfidenceThreshold = num('end_of_turn_confidence_threshold', src.end_of_turn_confidence_threshold, 0, 1);
  const minKey = has('min_turn_silence') ? 'min_turn_silence' : has('min_end_of_turn_silence_when_confident') ? 'min_end_of_turn_silence_when_confident' : null;
  if (minKey) into.minTurnSilence = num(minKey, src[minKey], 0, 10000);
  if (has('max_turn_silence')) into.maxTurnSilence = num('max_turn_silence', src.max_turn_silence, 0, 30000);
  if (has('keyterms_prompt')) into.keyterms = keyterms(src.keyterms_prompt);
  if (has('inactivity_timeout')) into.inactivityTimeout = num('inactivity_timeout', src.inactivity_timeout, 5, 3600);
  if (into.minTurnSilence > into.maxTurnSilence) {
    bad(`Invalid min_turn_silence: ${into.minTurnSilence} ms is longer than max_turn_silence (${into.maxTurnSilence} ms)`);
  }
}

/** Parses the /v3/ws query string. Throws StreamingClose(3006) on a bad value. */
export function parseParams(query: URLSearchParams): StreamingParams {
  const src: Record<string, string> = {};
  for (const [k, v] of query) src[k] = v;
  const p: StreamingParams = { ...DEFAULTS, keyterms: [] };
  if (src.sample_rate !== undefined) p.sampleRate = num('sample_rate', src.sample_rate, 8000, 48000, true);
  if (src.encoding !== undefined) {
    if (src.encoding !== 'pcm_s16le' && src.encoding !== 'pcm_mulaw') bad(`Invalid encoding: ${JSON.stringify(src.encoding)}; expected pcm_s16le or pcm_mulaw`);
    p.encoding = src.encoding;
  }
  if (src.speech_model !== undefined) {
    if (!ENGLISH_MODELS.has(src.speech_model)) {
      bad(`Invalid speech_model: ${JSON.stringify(src.speech_model)}; the local engine supports universal-streaming-english and u3-rt-pro`);
    }
    p.speechModel = src.speech_model;
  }
  if (src.language_detection !== undefined && bool('language_detection', src.language_detection)) {
    bad('language_detection is not supported by the local engine (English only)');
  }
  if (src.language_code !== undefined && !/^en([_-](us|uk|au|gb))?$/i.test(src.language_code)) {
    bad(`Invalid language_code: ${JSON.stringify(src.language_code)}; the local engine recognizes English only`);
  }
  if (src.speaker_labels !== undefined && bool('speaker_labels', src.speaker_labels)) {
    bad('speaker_labels is not supported by the local engine');
  }
  applyTunables(p, src);
  return p;
}

/** Milliseconds of audio in a binary frame, or null when the byte count cannot be whole samples. */
export function frameMs(bytes: number, p: Pick<StreamingParams, 'sampleRate' | 'encoding'>): number | null {
  const width = p.encoding === 'pcm_s16le' ? 2 : 1;
  if (bytes % width !== 0) return null;
  return (bytes / width / p.sampleRate) * 1000;
}
