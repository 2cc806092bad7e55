/**
 * The pre-recorded API's messages (/v2, API.md §2–7) as zod schemas: the one
 * description of them. The local engine validates requests and types its
 * answers with the strict schemas; main's client parses answers with the
 * loose `*ResponseSchema` variants, so a newer service's extra fields pass.
 */
import { z } from 'zod';
import { lazySchemas } from '../lazy-schemas';

// Made on first use (lazy-schemas.ts): each schema below is a z.lazy of the one build() makes, by the same name.
const schemas = lazySchemas(build);

export const ErrorBodySchema = z.lazy(() => schemas().ErrorBodySchema);
export type ErrorBody = z.infer<typeof ErrorBodySchema>;

export const UploadResponseSchema = z.lazy(() => schemas().UploadResponseSchema);
export type UploadResponse = z.infer<typeof UploadResponseSchema>;

export const TranscriptStatusSchema = z.lazy(() => schemas().TranscriptStatusSchema);
export type TranscriptStatus = z.infer<typeof TranscriptStatusSchema>;

export const WordSchema = z.lazy(() => schemas().WordSchema);
export type Word = z.infer<typeof WordSchema>;

export const SentenceSchema = z.lazy(() => schemas().SentenceSchema);
export type Sentence = z.infer<typeof SentenceSchema>;

export const ParagraphSchema = z.lazy(() => schemas().ParagraphSchema);
export type Paragraph = z.infer<typeof ParagraphSchema>;

export const UtteranceSchema = z.lazy(() => schemas().UtteranceSchema);
export type Utterance = z.infer<typeof UtteranceSchema>;

/** Bounds on the number of speakers diarization may find (the SDK's SpeakerOptions). */
export const SpeakerOptionsSchema = z.lazy(() => schemas().SpeakerOptionsSchema);
export type SpeakerOptions = z.infer<typeof SpeakerOptionsSchema>;

export const SPEECH_MODELS = ['universal-3-pro', 'universal-2', 'universal-3-5-pro'] as const;
/** The older single-model field's values, which clients other than the official SDK still send and the cloud accepts. */
export const LEGACY_SPEECH_MODELS = ['best', 'nano', 'slam-1', 'universal'] as const;
export const PII_POLICIES = [
  'person_name',
  'phone_number',
  'email_address',
  'credit_card_number',
  'credit_card_cvv',
  'credit_card_expiration',
  'us_social_security_number',
  'date_of_birth',
  'location',
  'banking_information',
  'number_sequence',
] as const;
export type PiiPolicy = (typeof PII_POLICIES)[number];

const AUDIO_OPTIONS =
  'redact_pii_audio_options must be an object with return_redacted_no_speech_audio (true or false) and/or override_audio_redaction_method ("silence").';
/** How redacted audio is made (AssemblyAI's PII docs): silence instead of a beep; a file with no speech still gets a redacted copy. */
export const RedactPiiAudioOptionsSchema = z.lazy(() => schemas().RedactPiiAudioOptionsSchema);
export type RedactPiiAudioOptions = z.infer<typeof RedactPiiAudioOptionsSchema>;

/** Longest window bound (ms) a request may name: 2^31 − 1, about 596 hours. */
export const MAX_WINDOW_MS = 2_147_483_647;

// ---- The create request (API.md §3) -------------------------------------------------------------
// Strict: an unknown parameter fails (the engine answers 400 naming it). Every message names the
// parameter and what is allowed, so the engine can pass the first one on as its 400.

const isHttpUrl = (v: string): boolean => {
  try {
    const u = new URL(v);
    return u.protocol === 'http:' || u.protocol === 'https:';
  } catch {
    return false;
  }
};

/** Inline speech understanding (API.md §9): which features to run on the finished transcript. Unknown features pass (a service says which it runs). */
const SU_REQUEST = 'speech_understanding.request must be an object with translation, speaker_identification or custom_formatting.';
const TARGETS = 'translation.target_languages must be a non-empty array of language codes.';
const CUSTOM = 'custom_formatting needs at least one of date (e.g. "mm/dd/yyyy"), phone_number (e.g. "(xxx)xxx-xxxx") or email (e.g. "username@domain.com").';
export const SpeechUnderstandingRequestSchema = z.lazy(() => schemas().SpeechUnderstandingRequestSchema);
export type SpeechUnderstandingRequest = z.infer<typeof SpeechUnderstandingRequestSchema>;

/** Documented parameters of features a service may not implement (the local engine refuses them when set). */
export const OPTIONAL_FEATURE_PARAMS = [
  'speaker_labels',
  'speakers_expected',
  'speaker_options',
  'sentiment_analysis',
  'entity_detection',
  'auto_highlights',
  'auto_chapters',
  'summarization',
  'summary_model',
  'summary_type',
  'content_safety',
  'content_safety_confidence',
  'iab_categories',
  'multichannel',
  'custom_spelling',
  'prompt',
  'temperature',
  'language_confidence_threshold',
  'dual_channel',
  'word_boost',
  'boost_param',
  'custom_topics',
  'topics',
  'speech_threshold',
  'language_detection_options',
  'redact_pii_return_unredacted',
  'domain',
  'remove_audio_tags',
] as const;

export const TranscriptRequestSchema = z.lazy(() => schemas().TranscriptRequestSchema);
/** What a client sends to POST /v2/transcript. */
export type TranscriptRequest = z.input<typeof TranscriptRequestSchema>;

/** The first problem of a failed parse, as one sentence for a 400 (every message above names its parameter). */
export function firstIssue(err: z.ZodError): string {
  const i = err.issues[0];
  if (!i) return 'The request is not valid.';
  if (i.code === 'unrecognized_keys') return `Unknown parameter ${i.keys.join(', ')}.`;
  return i.message;
}

// ---- The transcript (API.md §4) -------------------------------------------------------------------
// Strict: every field the engine sends, nothing else. Clients parse with TranscriptResponseSchema, a
// loose variant of the same shape: unknown fields pass and only id and status must be there.

export const TranscriptSchema = z.lazy(() => schemas().TranscriptSchema);
export type Transcript = z.infer<typeof TranscriptSchema>;

export type LooseWord = z.infer<ReturnType<typeof schemas>['LooseWordSchema']>;

/** A transcript as a client reads it: the same fields, all optional but id and status; unknown fields pass. */
export const TranscriptResponseSchema = z.lazy(() => schemas().TranscriptResponseSchema);
export type TranscriptResponse = z.infer<typeof TranscriptResponseSchema>;

export const SentencesResponseSchema = z.lazy(() => schemas().SentencesResponseSchema);
export type SentencesResponse = z.infer<typeof SentencesResponseSchema>;
export const ParagraphsResponseSchema = z.lazy(() => schemas().ParagraphsResponseSchema);
export type ParagraphsResponse = z.infer<typeof ParagraphsResponseSchema>;
/** Sentences or paragraphs as a client reads them. */
export const SpansResponseSchema = z.lazy(() => schemas().SpansResponseSchema);
export type SpansResponse = z.infer<typeof SpansResponseSchema>;

export const WordSearchResponseSchema = z.lazy(() => schemas().WordSearchResponseSchema);
export type WordSearchResponse = z.infer<typeof WordSearchResponseSchema>;
export const WordSearchLooseSchema = z.lazy(() => schemas().WordSearchLooseSchema);

export const RedactedAudioResponseSchema = z.lazy(() => schemas().RedactedAudioResponseSchema);
export type RedactedAudioResponse = z.infer<typeof RedactedAudioResponseSchema>;
export const RedactedAudioLooseSchema = z.lazy(() => schemas().RedactedAudioLooseSchema);

export const TranscriptListItemSchema = z.lazy(() => schemas().TranscriptListItemSchema);
export type TranscriptListItem = z.infer<typeof TranscriptListItemSchema>;

export const TranscriptListSchema = z.lazy(() => schemas().TranscriptListSchema);
export type TranscriptList = z.infer<typeof TranscriptListSchema>;
/** A list page as a client reads it. */
export const TranscriptListLooseSchema = z.lazy(() => schemas().TranscriptListLooseSchema);
export type TranscriptListLoose = z.infer<typeof TranscriptListLooseSchema>;

export const UploadLooseSchema = z.lazy(() => schemas().UploadLooseSchema);

export const WebhookBodySchema = z.lazy(() => schemas().WebhookBodySchema);
export type WebhookBody = z.infer<typeof WebhookBodySchema>;
/** A webhook as a receiver reads it: the transcript it names (unknown fields pass). */
export const WebhookBodyLooseSchema = z.lazy(() => schemas().WebhookBodyLooseSchema);

function build() {
  const ErrorBodySchema = z.object({ error: z.string() }).loose();

  const UploadResponseSchema = z.strictObject({ upload_url: z.string() });

  const TranscriptStatusSchema = z.enum(['queued', 'processing', 'completed', 'error']);

  const WordSchema = z.strictObject({
    text: z.string(),
    start: z.number().int(),
    end: z.number().int(),
    confidence: z.number().min(0).max(1),
    speaker: z.string().nullable(),
    channel: z.string().nullable().optional(),
  });

  const SentenceSchema = z.strictObject({
    text: z.string(),
    start: z.number().int(),
    end: z.number().int(),
    confidence: z.number(),
    words: z.array(WordSchema),
    speaker: z.string().nullable(),
    channel: z.string().nullable().optional(),
  });

  const ParagraphSchema = z.strictObject({
    text: z.string(),
    start: z.number().int(),
    end: z.number().int(),
    confidence: z.number(),
    words: z.array(WordSchema),
  });

  const UtteranceSchema = z.strictObject({
    speaker: z.string(),
    text: z.string(),
    start: z.number().int(),
    end: z.number().int(),
    confidence: z.number(),
    words: z.array(WordSchema),
  });

  const SpeakerOptionsSchema = z.strictObject({
    min_speakers_expected: z.number().int().nullable().optional(),
    max_speakers_expected: z.number().int().nullable().optional(),
  });

  const RedactPiiAudioOptionsSchema = z.strictObject(
    {
      return_redacted_no_speech_audio: z.boolean({ error: AUDIO_OPTIONS }).optional(),
      override_audio_redaction_method: z.enum(['silence'], { error: AUDIO_OPTIONS }).optional(),
    },
    { error: AUDIO_OPTIONS },
  );

  const bool = (k: string) => z.boolean({ error: `${k} must be a boolean (true or false).` }).nullish();

  const str = (k: string) => z.string({ error: `${k} must be a string.` }).nullish();

  const num = (k: string) => z.number({ error: `${k} must be a number.` }).nullish();

  const strArray = (k: string) => z.array(z.string({ error: `${k} must be an array of strings.` }), { error: `${k} must be an array of strings.` }).nullish();

  const anyObject = (k: string) => z.record(z.string(), z.unknown(), { error: `${k} must be an object.` }).nullish();

  const ms = (k: string, min: 0 | 1) => {
    const msg = `${k} must be ${min === 0 ? 'a non-negative' : 'a positive'} integer number of milliseconds, at most ${MAX_WINDOW_MS}.`;
    return z.number({ error: msg }).int({ error: msg }).min(min, { error: msg }).max(MAX_WINDOW_MS, { error: msg }).nullish();
  };

  const SpeechUnderstandingRequestSchema = z.looseObject(
    {
      request: z.looseObject(
        {
          translation: z
            .looseObject(
              {
                target_languages: z.array(z.string({ error: TARGETS }).min(1, { error: TARGETS }), { error: TARGETS }).min(1, { error: TARGETS }),
                formal: z.boolean({ error: 'translation.formal must be a boolean.' }).nullish(),
              },
              { error: TARGETS },
            )
            .optional(),
          speaker_identification: z
            .looseObject(
              {
                speaker_type: z.enum(['name', 'role'], { error: 'speaker_identification.speaker_type must be "name" or "role".' }),
                known_values: z
                  .array(z.string({ error: 'speaker_identification.known_values must be an array of strings.' }), {
                    error: 'speaker_identification.known_values must be an array of strings.',
                  })
                  .nullish(),
              },
              { error: 'speaker_identification.speaker_type must be "name" or "role".' },
            )
            .optional(),
          custom_formatting: z
            .looseObject({ date: z.string().nullish(), phone_number: z.string().nullish(), email: z.string().nullish() }, { error: CUSTOM })
            .refine((c) => [c.date, c.phone_number, c.email].some((v) => typeof v === 'string'), { error: CUSTOM })
            .optional(),
        },
        { error: SU_REQUEST },
      ),
    },
    { error: SU_REQUEST },
  );

  const TranscriptRequestSchema = z
    .strictObject(
      {
        audio_url: z
          .string({
            error: (i) =>
              i.input === undefined || i.input === null
                ? 'audio_url is required: the URL of the audio, or the upload_url from POST /v2/upload.'
                : 'audio_url must be a string.',
          })
          .min(1, { error: 'audio_url is required: the URL of the audio, or the upload_url from POST /v2/upload.' }),
        speech_models: z
          .array(z.enum(SPEECH_MODELS, { error: (i) => `speech_models: unknown model ${JSON.stringify(i.input)}; use ${SPEECH_MODELS.join(', ')}.` }), {
            error: 'speech_models must be an array of model names.',
          })
          .min(1, { error: 'speech_models must list at least one model.' })
          .nullish(),
        speech_model: z
          .enum([...LEGACY_SPEECH_MODELS, ...SPEECH_MODELS], {
            error: (i) =>
              `speech_model: unknown model ${JSON.stringify(i.input)}; use ${[...LEGACY_SPEECH_MODELS, ...SPEECH_MODELS].join(', ')}, or speech_models.`,
          })
          .nullish(),
        language_code: str('language_code'),
        language_detection: bool('language_detection'),
        punctuate: bool('punctuate'),
        format_text: bool('format_text'),
        disfluencies: bool('disfluencies'),
        filter_profanity: bool('filter_profanity'),
        keyterms_prompt: strArray('keyterms_prompt'),
        keyterms_prompt_options: anyObject('keyterms_prompt_options'),
        audio_start_from: ms('audio_start_from', 0),
        audio_end_at: ms('audio_end_at', 1),
        redact_pii: bool('redact_pii'),
        redact_pii_policies: z
          .array(z.enum(PII_POLICIES, { error: (i) => `redact_pii_policies: unknown policy ${JSON.stringify(i.input)}; use ${PII_POLICIES.join(', ')}.` }), {
            error: 'redact_pii_policies must be an array of policy names.',
          })
          .nullish(),
        redact_pii_sub: z.enum(['hash', 'entity_name'], { error: 'redact_pii_sub must be "hash" or "entity_name".' }).nullish(),
        redact_pii_audio: bool('redact_pii_audio'),
        redact_pii_audio_quality: z.enum(['mp3', 'wav'], { error: 'redact_pii_audio_quality must be "mp3" or "wav".' }).nullish(),
        redact_pii_audio_options: RedactPiiAudioOptionsSchema.nullish(),
        webhook_url: z.string({ error: 'webhook_url must be an http(s) URL.' }).refine(isHttpUrl, { error: 'webhook_url must be an http(s) URL.' }).nullish(),
        webhook_auth_header_name: z
          .string({ error: 'webhook_auth_header_name must be a string.' })
          .regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/, { error: 'webhook_auth_header_name is not a valid HTTP header name.' })
          .nullish(),
        webhook_auth_header_value: str('webhook_auth_header_value'),
        speech_understanding: z.record(z.string(), z.unknown(), { error: 'speech_understanding must be an object.' }).nullish(),
        // Documented features (OPTIONAL_FEATURE_PARAMS), typed loosely: a service says itself what it cannot do.
        speaker_labels: bool('speaker_labels'),
        speakers_expected: num('speakers_expected'),
        speaker_options: anyObject('speaker_options'),
        sentiment_analysis: bool('sentiment_analysis'),
        entity_detection: bool('entity_detection'),
        auto_highlights: bool('auto_highlights'),
        auto_chapters: bool('auto_chapters'),
        summarization: bool('summarization'),
        summary_model: str('summary_model'),
        summary_type: str('summary_type'),
        content_safety: bool('content_safety'),
        content_safety_confidence: num('content_safety_confidence'),
        iab_categories: bool('iab_categories'),
        multichannel: bool('multichannel'),
        custom_spelling: z.array(z.unknown(), { error: 'custom_spelling must be an array.' }).nullish(),
        prompt: str('prompt'),
        temperature: num('temperature'),
        language_confidence_threshold: num('language_confidence_threshold'),
        dual_channel: bool('dual_channel'),
        word_boost: strArray('word_boost'),
        boost_param: str('boost_param'),
        custom_topics: bool('custom_topics'),
        topics: strArray('topics'),
        speech_threshold: num('speech_threshold'),
        language_detection_options: anyObject('language_detection_options'),
        redact_pii_return_unredacted: bool('redact_pii_return_unredacted'),
        domain: str('domain'),
        remove_audio_tags: str('remove_audio_tags'),
      },
      { error: (i) => (i.code === 'unrecognized_keys' ? `Unknown parameter ${i.keys.join(', ')}.` : 'The request body must be a JSON object.') },
    )
    .superRefine((b, ctx) => {
      if (b.audio_start_from != null && b.audio_end_at != null && b.audio_end_at <= b.audio_start_from)
        ctx.addIssue({ code: 'custom', path: ['audio_end_at'], message: 'audio_end_at must be greater than audio_start_from.' });
      if ((b.webhook_auth_header_name == null) !== (b.webhook_auth_header_value == null))
        ctx.addIssue({
          code: 'custom',
          path: ['webhook_auth_header_name'],
          message: 'webhook_auth_header_name and webhook_auth_header_value must be given together.',
        });
      if (b.redact_pii_audio && !b.redact_pii)
        ctx.addIssue({ code: 'custom', path: ['redact_pii_audio'], message: 'redact_pii_audio needs redact_pii: true.' });
    });

  const TranscriptSchema = z.strictObject({
    id: z.string(),
    status: TranscriptStatusSchema,
    audio_url: z.string(),
    text: z.string().nullable(),
    words: z.array(WordSchema).nullable(),
    utterances: z.array(UtteranceSchema).nullable(),
    confidence: z.number().nullable(),
    audio_duration: z.number().nullable(),
    // Absent rather than null where AssemblyAI's spec types a value (openapi.yml's Transcript): error, speech_model_used,
    // keyterms_prompt, redact_pii_sub, redact_pii_audio_options and speech_understanding appear only when they have one.
    error: z.string().optional(),
    language_code: z.string().nullable(),
    language_detection: z.boolean(),
    /** Required by the spec; null: the engine does not detect the language (language_detection is refused). */
    language_confidence: z.number().min(0).max(1).nullable(),
    language_confidence_threshold: z.number().min(0).max(1).nullable(),
    speech_models: z.array(z.string()).nullable(),
    speech_model: z.string().nullable(),
    speech_model_used: z.string().optional(),
    punctuate: z.boolean().nullable(),
    format_text: z.boolean().nullable(),
    disfluencies: z.boolean().nullable(),
    filter_profanity: z.boolean().nullable(),
    speaker_labels: z.boolean().nullable(),
    speakers_expected: z.number().nullable(),
    speaker_options: SpeakerOptionsSchema.nullable().optional(),
    keyterms_prompt: z.array(z.string()).optional(),
    audio_start_from: z.number().nullable(),
    audio_end_at: z.number().nullable(),
    redact_pii: z.boolean(),
    redact_pii_audio: z.boolean().nullable(),
    redact_pii_audio_quality: z.string().nullable(),
    redact_pii_policies: z.array(z.string()).nullable(),
    redact_pii_sub: z.enum(['hash', 'entity_name']).optional(),
    redact_pii_audio_options: RedactPiiAudioOptionsSchema.optional(),
    webhook_url: z.string().nullable(),
    webhook_auth: z.boolean(),
    webhook_auth_header_name: z.string().nullable(),
    webhook_status_code: z.number().nullable(),
    throttled: z.boolean().nullable(),
    // For the SDK's types: features the engine does not run, always off.
    auto_highlights: z.boolean(),
    auto_highlights_result: z.null(),
    summarization: z.boolean(),
    summary: z.null(),
    content_safety: z.boolean(),
    iab_categories: z.boolean(),
    sentiment_analysis: z.boolean(),
    entity_detection: z.boolean(),
    auto_chapters: z.boolean(),
    chapters: z.null(),
    entities: z.null(),
    multichannel: z.boolean().nullable(),
    language_model: z.string(),
    acoustic_model: z.string(),
    speech_understanding: z.record(z.string(), z.unknown()).optional(),
    translated_texts: z.record(z.string(), z.string()).optional(),
  });

  const LooseWordSchema = z.looseObject({ ...WordSchema.shape, speaker: z.string().nullish(), channel: z.string().nullish(), confidence: z.number() });

  const TranscriptResponseSchema = z
    .looseObject({
      ...TranscriptSchema.shape,
      words: z.array(LooseWordSchema).nullable(),
      utterances: z.array(z.looseObject({ ...UtteranceSchema.shape, speaker: z.string().nullable(), words: z.array(LooseWordSchema) })).nullable(),
      metadata: z.looseObject({ warnings: z.array(z.looseObject({ message: z.string() })).optional() }).nullable(),
      // A service may send null where the engine leaves a field out.
      error: z.string().nullish(),
      speech_model_used: z.string().nullish(),
      keyterms_prompt: z.array(z.string()).nullish(),
      redact_pii_sub: z.string().nullish(),
      redact_pii_audio_options: z.looseObject({}).nullish(),
      speech_understanding: z.record(z.string(), z.unknown()).nullish(),
      language_confidence: z.number().nullish(),
      language_confidence_threshold: z.number().nullish(),
      // Any value: a newer service may run features the engine leaves off.
      auto_highlights_result: z.unknown(),
      summary: z.unknown(),
      chapters: z.unknown(),
      entities: z.unknown(),
    })
    .partial()
    .required({ id: true, status: true });

  const SentencesResponseSchema = z.strictObject({
    id: z.string(),
    confidence: z.number().nullable(),
    audio_duration: z.number().nullable(),
    sentences: z.array(SentenceSchema),
  });

  const ParagraphsResponseSchema = z.strictObject({
    id: z.string(),
    confidence: z.number().nullable(),
    audio_duration: z.number().nullable(),
    paragraphs: z.array(ParagraphSchema),
  });

  const looseSpan = z.looseObject({ text: z.string(), start: z.number(), end: z.number(), confidence: z.number().optional(), words: z.array(LooseWordSchema) });

  const SpansResponseSchema = z.looseObject({ sentences: z.array(looseSpan).optional(), paragraphs: z.array(looseSpan).optional() });

  const WordSearchResponseSchema = z.strictObject({
    id: z.string(),
    total_count: z.number().int(),
    matches: z.array(
      z.strictObject({ text: z.string(), count: z.number().int(), timestamps: z.array(z.tuple([z.number(), z.number()])), indexes: z.array(z.number().int()) }),
    ),
  });

  const WordSearchLooseSchema = z.looseObject({
    total_count: z.number(),
    matches: z.array(
      z.looseObject({ text: z.string(), count: z.number(), timestamps: z.array(z.tuple([z.number(), z.number()])), indexes: z.array(z.number()) }),
    ),
  });

  const RedactedAudioResponseSchema = z.strictObject({ status: z.literal('redacted_audio_ready'), redacted_audio_url: z.string() });

  const RedactedAudioLooseSchema = z.looseObject({ status: z.string(), redacted_audio_url: z.string() });

  const TranscriptListItemSchema = z.strictObject({
    id: z.string(),
    resource_url: z.string(),
    status: TranscriptStatusSchema,
    created: z.string(),
    completed: z.string().nullable(),
    audio_url: z.string(),
    error: z.string().nullable(),
  });

  const TranscriptListSchema = z.strictObject({
    page_details: z.strictObject({
      limit: z.number().int(),
      result_count: z.number().int(),
      current_url: z.string(),
      prev_url: z.string().nullable(),
      next_url: z.string().nullable(),
    }),
    transcripts: z.array(TranscriptListItemSchema),
  });

  const TranscriptListLooseSchema = z.looseObject({
    page_details: z.looseObject({ limit: z.number(), result_count: z.number(), prev_url: z.string().nullable(), next_url: z.string().nullable() }).partial(),
    transcripts: z.array(
      z.looseObject({ ...TranscriptListItemSchema.shape, resource_url: z.string().optional(), completed: z.string().nullish(), error: z.string().nullish() }),
    ),
  });

  const UploadLooseSchema = z.looseObject({ upload_url: z.string() });

  const WebhookBodySchema = z.union([
    z.object({ transcript_id: z.string(), status: z.enum(['completed', 'error']) }),
    z.object({ transcript_id: z.string().optional(), status: z.literal('redacted_audio_ready'), redacted_audio_url: z.string() }),
  ]);

  const WebhookBodyLooseSchema = z.looseObject({ transcript_id: z.string(), status: z.string().optional() });
  return {
    ErrorBodySchema,
    UploadResponseSchema,
    TranscriptStatusSchema,
    WordSchema,
    SentenceSchema,
    ParagraphSchema,
    UtteranceSchema,
    SpeakerOptionsSchema,
    RedactPiiAudioOptionsSchema,
    SpeechUnderstandingRequestSchema,
    TranscriptRequestSchema,
    TranscriptSchema,
    LooseWordSchema,
    TranscriptResponseSchema,
    SentencesResponseSchema,
    ParagraphsResponseSchema,
    SpansResponseSchema,
    WordSearchResponseSchema,
    WordSearchLooseSchema,
    RedactedAudioResponseSchema,
    RedactedAudioLooseSchema,
    TranscriptListItemSchema,
    TranscriptListSchema,
    TranscriptListLooseSchema,
    UploadLooseSchema,
    WebhookBodySchema,
    WebhookBodyLooseSchema,
  };
}
