/**
 * Streaming v3's messages (API.md §8) as zod schemas: the connection's query
 * and its tunables, the client's control messages and the server's Begin,
 * Turn, Termination and Warning. The engine checks what clients send with them and
 * types what it sends by them; main's streaming client reads with the loose
 * variants. Messages name the parameter and what is allowed: the engine
 * passes the first one on as a close reason (3006).
 */
import { z } from 'zod';
import { lazySchemas } from '../lazy-schemas';

// Made on first use (lazy-schemas.ts): each schema below is a z.lazy of the one build() makes, by the same name.
const schemas = lazySchemas(build);

export const STREAMING_SPEECH_MODELS = ['universal-streaming-english', 'u3-rt-pro', 'universal-streaming-multilingual'] as const;

const show = (raw: unknown): string => JSON.stringify(raw) ?? String(raw);

const KEYTERMS_MSG = 'Invalid keyterms_prompt: expected a JSON array of at most 100 strings of at most 50 characters';

/** What a session may change while it runs (UpdateConfiguration) and set when it opens (query). */
export const StreamingTunablesSchema = z.lazy(() => schemas().StreamingTunablesSchema);
export type StreamingTunables = z.output<typeof StreamingTunablesSchema>;

/** The `/v3/ws` query (strings), tunables included. Unknown parameters are ignored, as by the cloud. */
export const StreamingQuerySchema = z.lazy(() => schemas().StreamingQuerySchema);
export type StreamingQuery = z.output<typeof StreamingQuerySchema>;

/** GET /v3/token. */
export const TokenResponseSchema = z.lazy(() => schemas().TokenResponseSchema);
export type TokenResponse = z.infer<typeof TokenResponseSchema>;

// ---- Client → server text messages ---------------------------------------------------------------

export const StreamingClientMessageSchema = z.lazy(() => schemas().StreamingClientMessageSchema);
export type StreamingClientMessage = z.input<typeof StreamingClientMessageSchema>;

// ---- Server → client messages -------------------------------------------------------------------

export const StreamingWordSchema = z.lazy(() => schemas().StreamingWordSchema);
export type StreamingWord = z.infer<typeof StreamingWordSchema>;

export const BeginSchema = z.lazy(() => schemas().BeginSchema);
export const TurnSchema = z.lazy(() => schemas().TurnSchema);
export const TerminationSchema = z.lazy(() => schemas().TerminationSchema);
/**
 * A notice that does not end the session, in the shape of the official SDK's
 * WarningEvent (a number code and the `warning` text), e.g. the local
 * engine's live model decoding slower than real time.
 */
export const WarningSchema = z.lazy(() => schemas().WarningSchema);
/** The local engine's Warning code for a live model that decodes slower than real time. */
export const WARNING_SLOWER_THAN_REAL_TIME = 4001;
/** A silent stretch of the session's audio (acknowledge_silence), on the clock of word times (ms). */
export const SilenceSchema = z.lazy(() => schemas().SilenceSchema);
/** One earlier turn whose speaker changed on re-clustering: its new label, and its words (text and times as sent) each with `speaker`. */
export const SpeakerRevisionItemSchema = z.lazy(() => schemas().SpeakerRevisionItemSchema);
/** The SDK's SpeakerRevisionEvent: only the turns whose label changed. */
export const SpeakerRevisionSchema = z.lazy(() => schemas().SpeakerRevisionSchema);
/** The SDK's HeartbeatEvent (session_heartbeat). */
export const HeartbeatSchema = z.lazy(() => schemas().HeartbeatSchema);
export const StreamingServerMessageSchema = z.lazy(() => schemas().StreamingServerMessageSchema);
export type StreamingServerMessage = z.infer<typeof StreamingServerMessageSchema>;
export type BeginMessage = z.infer<typeof BeginSchema>;
export type TurnMessage = z.infer<typeof TurnSchema>;
export type TerminationMessage = z.infer<typeof TerminationSchema>;
export type WarningMessage = z.infer<typeof WarningSchema>;
export type SilenceMessage = z.infer<typeof SilenceSchema>;
export type SpeakerRevisionMessage = z.infer<typeof SpeakerRevisionSchema>;
export type HeartbeatMessage = z.infer<typeof HeartbeatSchema>;

/** Server messages as a client reads them: unknown fields pass; `utterance` may be missing. */
export const StreamingServerMessageLooseSchema = z.lazy(() => schemas().StreamingServerMessageLooseSchema);
export type StreamingServerMessageLoose = z.infer<typeof StreamingServerMessageLooseSchema>;

function build() {
  /** A number given as a JSON number or a query string. */
  function numberLike(name: string, min: number, max: number, integer = false) {
    const expected = `expected ${integer ? 'an integer' : 'a number'} from ${min} to ${max}`;
    return z.union([z.number(), z.string()], { error: (i) => `Invalid ${name}: ${show(i.input)}; ${expected}` }).transform((raw, ctx) => {
      // A query string is read as plain decimal only (as the cloud does): Number() would also take 0x3e80, 16e3, 0b… and padding.
      const n = typeof raw === 'number' ? raw : (integer ? /^\d{1,9}$/ : /^-?(\d{1,9}(\.\d{1,9})?|\.\d{1,9})$/).test(raw) ? Number(raw) : NaN;
      if (!Number.isFinite(n) || n < min || n > max || (integer && !Number.isInteger(n))) {
        ctx.addIssue({ code: 'custom', message: `Invalid ${name}: ${show(raw)}; ${expected}` });
        return z.NEVER;
      }
      return n;
    });
  }

  /** A boolean given as JSON or as `true`/`false`/`1`/`0` in a query. */
  function boolLike(name: string) {
    return z.union([z.boolean(), z.string()], { error: (i) => `Invalid ${name}: ${show(i.input)}; expected true or false` }).transform((raw, ctx) => {
      if (raw === true || raw === 'true' || raw === '1') return true;
      if (raw === false || raw === 'false' || raw === '0') return false;
      ctx.addIssue({ code: 'custom', message: `Invalid ${name}: ${show(raw)}; expected true or false` });
      return z.NEVER;
    });
  }

  /** keyterms_prompt: a JSON array (or, in a query, its JSON text) of short strings. */
  const keytermsLike = z.union([z.array(z.unknown()), z.string()], { error: KEYTERMS_MSG }).transform((raw, ctx) => {
    let v: unknown = raw;
    if (typeof raw === 'string') {
      try {
        v = JSON.parse(raw);
      } catch {
        ctx.addIssue({ code: 'custom', message: 'Invalid keyterms_prompt: expected a JSON array of strings' });
        return z.NEVER;
      }
    }
    if (!Array.isArray(v) || v.length > 100 || !v.every((s) => typeof s === 'string' && s.length <= 50)) {
      ctx.addIssue({ code: 'custom', message: KEYTERMS_MSG });
      return z.NEVER;
    }
    return v as string[];
  });

  const StreamingTunablesSchema = z.looseObject({
    format_turns: boolLike('format_turns').nullish(),
    end_of_turn_confidence_threshold: numberLike('end_of_turn_confidence_threshold', 0, 1).nullish(),
    min_turn_silence: numberLike('min_turn_silence', 0, 10_000).nullish(),
    /** The older name of min_turn_silence. */
    min_end_of_turn_silence_when_confident: numberLike('min_end_of_turn_silence_when_confident', 0, 10_000).nullish(),
    max_turn_silence: numberLike('max_turn_silence', 0, 30_000).nullish(),
    keyterms_prompt: keytermsLike.nullish(),
    inactivity_timeout: numberLike('inactivity_timeout', 5, 3600).nullish(),
    /** Silence messages while no speech is transcribed (the SDK's acknowledgeSilence). */
    acknowledge_silence: boolLike('acknowledge_silence').nullish(),
    /** Heartbeat messages (the SDK's sessionHeartbeat). */
    session_heartbeat: boolLike('session_heartbeat').nullish(),
  });

  const StreamingQuerySchema = StreamingTunablesSchema.extend({
    sample_rate: numberLike('sample_rate', 8000, 48_000, true).optional(),
    encoding: z.enum(['pcm_s16le', 'pcm_mulaw'], { error: (i) => `Invalid encoding: ${show(i.input)}; expected pcm_s16le or pcm_mulaw` }).optional(),
    speech_model: z
      .enum(STREAMING_SPEECH_MODELS, { error: (i) => `Invalid speech_model: ${show(i.input)}; use ${STREAMING_SPEECH_MODELS.join(', ')}` })
      .optional(),
    language_detection: boolLike('language_detection').optional(),
    language_code: z.string().optional(),
    speaker_labels: boolLike('speaker_labels').optional(),
    /** The most speakers live labels may tell apart (with speaker_labels). */
    max_speakers: numberLike('max_speakers', 1, 10, true).optional(),
    /** With speaker_labels: mid-stream SpeakerRevision every so much audio (0: only the one before Termination); 0 to 24 h, non-zero clamped to 120,000–300,000 ms. */
    speaker_labels_revision_interval_ms: numberLike('speaker_labels_revision_interval_ms', 0, 86_400_000, true).optional(),
    token: z.string().optional(),
  });

  const TokenResponseSchema = z.strictObject({ token: z.string(), expires_in_seconds: z.number().int() });

  const StreamingClientMessageSchema = z.discriminatedUnion(
    'type',
    [
      z.looseObject({ type: z.literal('Terminate') }),
      z.looseObject({ type: z.literal('ForceEndpoint') }),
      z.looseObject({ type: z.literal('KeepAlive') }),
      StreamingTunablesSchema.extend({ type: z.literal('UpdateConfiguration') }),
    ],
    {
      error: (i) =>
        `Unknown message type ${show((i.input as { type?: unknown } | null)?.type ?? null)}; expected Terminate, ForceEndpoint, KeepAlive or UpdateConfiguration`,
    },
  );

  const StreamingWordSchema = z.strictObject({ text: z.string(), start: z.number(), end: z.number(), confidence: z.number(), word_is_final: z.boolean() });

  const BeginSchema = z.strictObject({ type: z.literal('Begin'), id: z.string(), expires_at: z.number() });

  const TurnSchema = z.strictObject({
    type: z.literal('Turn'),
    turn_order: z.number().int(),
    turn_is_formatted: z.boolean(),
    end_of_turn: z.boolean(),
    transcript: z.string(),
    utterance: z.string(),
    end_of_turn_confidence: z.number(),
    words: z.array(StreamingWordSchema),
    /** With speaker_labels: who spoke the finished turn ("A", "B", … or "UNKNOWN" for too little speech). */
    speaker_label: z.string().optional(),
  });

  const TerminationSchema = z.strictObject({ type: z.literal('Termination'), audio_duration_seconds: z.number(), session_duration_seconds: z.number() });

  const WarningSchema = z.strictObject({ type: z.literal('Warning'), warning_code: z.number().int(), warning: z.string() });

  const SilenceSchema = z.strictObject({ type: z.literal('Silence'), start_ms: z.number(), end_ms: z.number() });

  const SpeakerRevisionItemSchema = z.strictObject({
    turn_order: z.number().int(),
    speaker_label: z.string().optional(),
    words: z.array(StreamingWordSchema.extend({ speaker: z.string().optional() })),
  });

  const SpeakerRevisionSchema = z.strictObject({ type: z.literal('SpeakerRevision'), revisions: z.array(SpeakerRevisionItemSchema) });

  const HeartbeatSchema = z.strictObject({
    type: z.literal('Heartbeat'),
    total_audio_received_ms: z.number(),
    total_duration_ms: z.number(),
    realtime_factor: z.number(),
    max_speech_probability: z.number(),
  });

  const StreamingServerMessageSchema = z.discriminatedUnion('type', [
    BeginSchema,
    TurnSchema,
    TerminationSchema,
    WarningSchema,
    SilenceSchema,
    SpeakerRevisionSchema,
    HeartbeatSchema,
  ]);

  const LooseStreamingWordSchema = z.looseObject({ ...StreamingWordSchema.shape, confidence: z.number().optional(), word_is_final: z.boolean().optional() });

  const StreamingServerMessageLooseSchema = z.discriminatedUnion('type', [
    z.looseObject(BeginSchema.shape),
    z.looseObject({
      ...TurnSchema.shape,
      utterance: z.string().optional(),
      end_of_turn_confidence: z.number().optional(),
      words: z.array(LooseStreamingWordSchema).optional(),
    }),
    z.looseObject({ ...TerminationSchema.shape, audio_duration_seconds: z.number().optional(), session_duration_seconds: z.number().optional() }),
    // The SDK's shape (and the local engine's): `warning` text, a number code; a `message` text and a string code are read too.
    z.looseObject({
      type: z.literal('Warning'),
      warning_code: z.union([z.number(), z.string()]).optional(),
      message: z.string().optional(),
      warning: z.string().optional(),
    }),
    z.looseObject({ type: z.literal('Silence'), start_ms: z.number(), end_ms: z.number() }),
    z.looseObject({
      type: z.literal('SpeakerRevision'),
      revisions: z.array(
        z.looseObject({
          turn_order: z.number().int(),
          speaker_label: z.string().optional(),
          words: z.array(LooseStreamingWordSchema.extend({ speaker: z.string().optional() })).optional(),
        }),
      ),
    }),
    z.looseObject({ type: z.literal('Heartbeat') }),
  ]);
  return {
    StreamingTunablesSchema,
    StreamingQuerySchema,
    TokenResponseSchema,
    StreamingClientMessageSchema,
    StreamingWordSchema,
    BeginSchema,
    TurnSchema,
    TerminationSchema,
    WarningSchema,
    SilenceSchema,
    SpeakerRevisionItemSchema,
    SpeakerRevisionSchema,
    HeartbeatSchema,
    StreamingServerMessageSchema,
    StreamingServerMessageLooseSchema,
  };
}
