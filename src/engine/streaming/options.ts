/** Streaming v3 limits of this engine (sessions, burst allowance, session length, VAD). */

export interface StreamingEngineOptions {
  /** Concurrent sessions before 3009 (default 4). */
  maxSessions: number;
  /** Audio ahead of real time tolerated before 3007 (default 10 s). */
  burstMs: number;
  /** Session limit without a token limit (default 3 h). */
  maxSessionSeconds: number;
  /** Use Silero VAD when it loads (default true). */
  useVad: boolean;
}

export const STREAMING_DEFAULTS: StreamingEngineOptions = { maxSessions: 4, burstMs: 10_000, maxSessionSeconds: 10_800, useVad: true };
