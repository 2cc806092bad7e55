/**
 * Wire types and zod schemas of the pre-recorded API (/v2), as ../shared/API.md
 * describes them. Used by the local engine to answer and by clients to parse.
 */
import { z } from 'zod';

export const ErrorBodySchema = z.object({ error: z.string() }).loose();
export type ErrorBody = z.infer<typeof ErrorBodySchema>;

export const UploadResponseSchema = z.object({ upload_url: z.string() });
export type UploadResponse = z.infer<typeof UploadResponseSchema>;

export const TranscriptStatusSchema = z.enum(['queued', 'processing', 'completed', 'error']);
export type TranscriptStatus = z.infer<typeof TranscriptStatusSchema>;

export const WordSchema = z.object({
  text: z.string(),
  start: z.number().int(),
  end: z.number().int(),
  confidence: z.number().min(0).max(1),
  speaker: z.string().nullable(),
  channel: z.string().nullable().optional(),
});
export type Word = z.infer<typeof WordSchema>;

export const SentenceSchema = z.object({
  text: z.string(),
  start: z.number().int(),
  end: z.number().int(),
  confidence: z.number(),
  words: z.array(WordSchema),
  speaker: z.string().nullable(),
  channel: z.string().nullable().optional(),
});
export type Sentence = z.infer<typeof SentenceSchema>;

export const ParagraphSchema = z.object({
  text: z.string(),
  start: z.number().int(),
  end: z.number().int(),
  confidence: z.number(),
  words: z.array(WordSchema),
});
export type Paragraph = z.infer<typeof ParagraphSchema>;

export const UtteranceSchema = z.object({
  speaker: z.string(),
  text: z.string(),
  start: z.number().int(),
  end: z.number().int(),
  confidence: z.number(),
  words: z.array(WordSchema),
});
export type Utterance = z.infer<typeof UtteranceSchema>;

export const SPEECH_MODELS = ['universal-3-pro', 'universal-2', 'universal-3-5-pro'] as const;
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

export const TranscriptSchema = z
  .object({
    id: z.string(),
    status: TranscriptStatusSchema,
    audio_url: z.string(),
    text: z.string().nullable(),
    words: z.array(WordSchema).nullable(),
    utterances: z.array(UtteranceSchema).nullable(),
    confidence: z.number().nullable(),
    audio_duration: z.number().nullable(),
    error: z.string().nullable().optional(),
    language_code: z.string().nullable(),
    speech_models: z.array(z.string()).nullable(),
    speech_model_used: z.string().nullable(),
    punctuate: z.boolean().nullable(),
    format_text: z.boolean().nullable(),
    disfluencies: z.boolean().nullable(),
    filter_profanity: z.boolean().nullable(),
    speaker_labels: z.boolean().nullable(),
    speakers_expected: z.number().nullable(),
    keyterms_prompt: z.array(z.string()).nullable(),
    audio_start_from: z.number().nullable(),
    audio_end_at: z.number().nullable(),
    redact_pii: z.boolean(),
    redact_pii_audio: z.boolean().nullable(),
    redact_pii_audio_quality: z.string().nullable(),
    redact_pii_policies: z.array(z.string()).nullable(),
    redact_pii_sub: z.string().nullable(),
    webhook_url: z.string().nullable(),
    webhook_auth: z.boolean(),
    webhook_auth_header_name: z.string().nullable(),
    webhook_status_code: z.number().nullable(),
    throttled: z.boolean().nullable(),
    metadata: z.object({ warnings: z.array(z.object({ message: z.string() })) }).loose().nullable(),
  })
  .loose();
export type Transcript = z.infer<typeof TranscriptSchema>;

export const SentencesResponseSchema = z.object({
  id: z.string(),
  confidence: z.number().nullable(),
  audio_duration: z.number().nullable(),
  sentences: z.array(SentenceSchema),
});
export const ParagraphsResponseSchema = z.object({
  id: z.string(),
  confidence: z.number().nullable(),
  audio_duration: z.number().nullable(),
  paragraphs: z.array(ParagraphSchema),
});

export const WordSearchResponseSchema = z.object({
  id: z.string(),
  total_count: z.number().int(),
  matches: z.array(z.object({ text: z.string(), count: z.number().int(), timestamps: z.array(z.tuple([z.number(), z.number()])), indexes: z.array(z.number().int()) })),
});
export type WordSearchResponse = z.infer<typeof WordSearchResponseSchema>;

export const RedactedAudioResponseSchema = z.object({ status: z.literal('redacted_audio_ready'), redacted_audio_url: z.string() });

export const TranscriptListItemSchema = z.object({
  id: z.string(),
  resource_url: z.string(),
  status: TranscriptStatusSchema,
  created: z.string(),
  completed: z.string().nullable(),
  audio_url: z.string(),
  error: z.string().nullable(),
});
export type TranscriptListItem = z.infer<typeof TranscriptListItemSchema>;

export const TranscriptListSchema = z.object({
  page_details: z.object({
    limit: z.number().int(),
    result_count: z.number().int(),
    current_url: z.string(),
    prev_url: z.string().nullable(),
    next_url: z.string().nullable(),
  }),
  transcripts: z.array(TranscriptListItemSchema),
});
export type TranscriptList = z.infer<typeof TranscriptListSchema>;

export const WebhookBodySchema = z.union([
  z.object({ transcript_id: z.string(), status: z.enum(['completed', 'error']) }),
  z.object({ transcript_id: z.string().optional(), status: z.literal('redacted_audio_ready'), redacted_audio_url: z.string() }),
]);
export type WebhookBody = z.infer<typeof WebhookBodySchema>;
