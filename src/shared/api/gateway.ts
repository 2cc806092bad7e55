/**
 * The LLM gateway's messages (API.md §9) as zod schemas: chat completions
 * (whole and streamed), the model list and speech understanding. The engine
 * checks requests with them and types its answers by them; main's gateway
 * client parses answers with the loose variants.
 */
import { z } from 'zod';
import { SpeechUnderstandingRequestSchema, TranscriptResponseSchema } from './transcript';
import { lazySchemas } from '../lazy-schemas';

// Made on first use (lazy-schemas.ts): each schema below is a z.lazy of the one build() makes, by the same name.
const schemas = lazySchemas(build);

export const CHAT_ROLES = ['system', 'user', 'assistant', 'tool'] as const;
export type ChatRole = (typeof CHAT_ROLES)[number];

/** A message of a request: content is text, an array of parts (`{type:"text", text}`), or null beside tool calls. */
export const ChatMessageSchema = z.lazy(() => schemas().ChatMessageSchema);
export type ChatMessage = z.infer<typeof ChatMessageSchema>;

export const ResponseFormatSchema = z.lazy(() => schemas().ResponseFormatSchema);

const MESSAGES = 'messages must be a non-empty array of {role, content} (or send prompt, a string).';
const STOP = 'stop must be a string or an array of at most 4 non-empty strings.';
/** Stop sequences (OpenAI's `stop`): the answer ends before the first one. */
export const StopSchema = z.lazy(() => schemas().StopSchema);

/**
 * POST /v1/chat/completions. Loose at the top level on purpose: OpenAI-style
 * clients send many optional knobs (top_p, seed, user…) that the cloud
 * gateway accepts; a service ignores what it does not use. The spec's
 * `prompt` (a string, turned into one user message) stands in for messages.
 */
export const ChatCompletionRequestSchema = z.lazy(() => schemas().ChatCompletionRequestSchema);
export type ChatCompletionRequest = z.input<typeof ChatCompletionRequestSchema>;

export const ChatCompletionSchema = z.lazy(() => schemas().ChatCompletionSchema);
export type ChatCompletion = z.infer<typeof ChatCompletionSchema>;

/** A completion as a client reads it: unknown fields pass, either usage naming. */
export const ChatCompletionLooseSchema = z.lazy(() => schemas().ChatCompletionLooseSchema);
export type ChatCompletionLoose = z.infer<typeof ChatCompletionLooseSchema>;

export const ChatDeltaSchema = z.lazy(() => schemas().ChatDeltaSchema);
export type ChatDelta = z.infer<typeof ChatDeltaSchema>;

export const ChatCompletionChunkSchema = z.lazy(() => schemas().ChatCompletionChunkSchema);
export type ChatCompletionChunk = z.infer<typeof ChatCompletionChunkSchema>;
export const ChatCompletionChunkLooseSchema = z.lazy(() => schemas().ChatCompletionChunkLooseSchema);

/** The gateway's error body (llm-gateway.yml ErrorResponse, and what OpenAI's clients read): code is the HTTP status. */
export const GatewayErrorBodySchema = z.lazy(() => schemas().GatewayErrorBodySchema);
export type GatewayErrorBody = z.infer<typeof GatewayErrorBodySchema>;

/** The message of an error body in either shape a service sends: `{error: "…"}` (REST) or `{error: {message: "…"}}` (gateways); null if neither. */
export function errorMessageOf(body: unknown): string | null {
  if (!body || typeof body !== 'object') return null;
  const e = (body as { error?: unknown; message?: unknown }).error;
  if (typeof e === 'string') return e;
  if (e && typeof e === 'object' && typeof (e as { message?: unknown }).message === 'string') return (e as { message: string }).message;
  const m = (body as { message?: unknown }).message;
  return typeof m === 'string' ? m : null;
}

export const ModelInfoSchema = z.lazy(() => schemas().ModelInfoSchema);
export const ModelListSchema = z.lazy(() => schemas().ModelListSchema);
export const ModelListLooseSchema = z.lazy(() => schemas().ModelListLooseSchema);
export type ModelInfo = z.infer<typeof ModelInfoSchema>;
export type ModelList = z.infer<typeof ModelListSchema>;

/** POST /v1/speech-understanding (also /v1/understanding): run features on a completed transcript. */
export const UnderstandingRequestSchema = z.lazy(() => schemas().UnderstandingRequestSchema);
export type UnderstandingRequest = z.input<typeof UnderstandingRequestSchema>;

export const UnderstandingResultSchema = z.lazy(() => schemas().UnderstandingResultSchema);
export type UnderstandingResult = z.infer<typeof UnderstandingResultSchema>;

/** The answer as a client reads it: the transcript with the understanding merged in. */
export const UnderstandingResponseLooseSchema = z.lazy(() => schemas().UnderstandingResponseLooseSchema);
export type UnderstandingResponse = z.infer<typeof UnderstandingResponseLooseSchema>;

function build() {
  const ChatMessageSchema = z.looseObject({
    role: z.enum(CHAT_ROLES, { error: (i) => `role must be system, user, assistant or tool (got ${JSON.stringify(i.input)}).` }),
    content: z.union([z.string(), z.array(z.unknown()), z.null()], { error: 'content must be a string or an array of parts.' }).optional(),
    tool_calls: z.array(z.unknown()).optional(),
    tool_call_id: z.string().optional(),
    name: z.string().optional(),
  });

  const ResponseFormatSchema = z.looseObject({
    type: z.enum(['json_schema', 'json_object', 'text'], { error: 'response_format.type must be json_schema, json_object or text.' }),
    json_schema: z
      .looseObject(
        { name: z.string().optional(), schema: z.record(z.string(), z.unknown()), strict: z.boolean().optional() },
        { error: 'response_format.json_schema.schema must be a JSON schema object.' },
      )
      .optional(),
  });

  const tokens = (k: string) =>
    z
      .number({ error: `${k} must be a positive integer.` })
      .int({ error: `${k} must be a positive integer.` })
      .min(1, { error: `${k} must be a positive integer.` })
      .optional();

  const StopSchema = z.union(
    [z.string({ error: STOP }).min(1, { error: STOP }), z.array(z.string({ error: STOP }).min(1, { error: STOP })).max(4, { error: STOP })],
    {
      error: STOP,
    },
  );

  const ChatCompletionRequestSchema = z
    .looseObject({
      model: z.string({ error: 'model is required (a string; see GET /v1/models).' }).min(1, { error: 'model is required (a string; see GET /v1/models).' }),
      messages: z.array(ChatMessageSchema, { error: MESSAGES }).min(1, { error: MESSAGES }).optional(),
      prompt: z.string({ error: 'prompt must be a string.' }).min(1, { error: 'prompt must be a non-empty string.' }).optional(),
      max_tokens: tokens('max_tokens'),
      /** OpenAI's current name for the limit; it wins over max_tokens when both are sent. */
      max_completion_tokens: tokens('max_completion_tokens'),
      stop: StopSchema.nullish(),
      temperature: z
        .number({ error: 'temperature must be a number from 0 to 2.' })
        .min(0, { error: 'temperature must be a number from 0 to 2.' })
        .max(2, { error: 'temperature must be a number from 0 to 2.' })
        .optional(),
      stream: z.boolean({ error: 'stream must be true or false.' }).optional(),
      tools: z.array(z.unknown(), { error: 'tools must be an array.' }).optional(),
      tool_choice: z.unknown().optional(),
      response_format: ResponseFormatSchema.optional(),
      transcript_id: z.string({ error: 'transcript_id must be a string.' }).min(1, { error: 'transcript_id must be a string.' }).optional(),
      transcript_ids: z.array(z.string().min(1), { error: 'transcript_ids must be an array of transcript ids.' }).optional(),
    })
    .superRefine((b, ctx) => {
      if (!b.messages && b.prompt === undefined) ctx.addIssue({ code: 'custom', path: ['messages'], message: MESSAGES });
      if (b.messages && b.prompt !== undefined) ctx.addIssue({ code: 'custom', path: ['prompt'], message: 'Send either messages or prompt, not both.' });
      if (b.response_format?.type === 'json_schema' && !b.response_format.json_schema)
        ctx.addIssue({ code: 'custom', path: ['response_format'], message: 'response_format.json_schema.schema must be a JSON schema object.' });
    });

  const UsageSchema = z.strictObject({
    prompt_tokens: z.number(),
    completion_tokens: z.number(),
    total_tokens: z.number(),
    input_tokens: z.number(),
    output_tokens: z.number(),
  });

  const ChatCompletionSchema = z.strictObject({
    request_id: z.string(),
    id: z.string(),
    object: z.literal('chat.completion'),
    created: z.number(),
    model: z.string(),
    choices: z.array(
      z.strictObject({
        index: z.number(),
        message: z.strictObject({ role: z.literal('assistant'), content: z.string().nullable(), tool_calls: z.array(z.unknown()).optional() }),
        finish_reason: z.string(),
      }),
    ),
    usage: UsageSchema,
  });

  const ChatCompletionLooseSchema = z.looseObject({
    id: z.string().optional(),
    model: z.string().optional(),
    choices: z
      .array(
        z.looseObject({
          index: z.number().optional(),
          message: z.looseObject({ role: z.string().optional(), content: z.string().nullable().optional(), tool_calls: z.array(z.unknown()).optional() }),
          finish_reason: z.string().nullable().optional(),
        }),
      )
      .min(1),
    usage: z.record(z.string(), z.unknown()).optional(),
  });

  const ChatDeltaSchema = z.strictObject({
    role: z.literal('assistant').optional(),
    content: z.string().optional(),
    tool_calls: z.array(z.unknown()).optional(),
  });

  const ChatCompletionChunkSchema = z.strictObject({
    id: z.string(),
    object: z.literal('chat.completion.chunk'),
    created: z.number(),
    model: z.string(),
    choices: z.array(z.strictObject({ index: z.number(), delta: ChatDeltaSchema, finish_reason: z.string().nullable() })),
  });

  const ChatCompletionChunkLooseSchema = z.looseObject({
    choices: z.array(z.looseObject({ delta: z.looseObject({ content: z.string().nullish() }).optional() })).optional(),
  });

  const GatewayErrorBodySchema = z.strictObject({
    error: z.strictObject({ message: z.string(), type: z.string(), code: z.number().int(), param: z.null() }),
  });

  const ModelInfoSchema = z.strictObject({
    id: z.string(),
    name: z.string(),
    description: z.string(),
    context_length: z.number(),
    object: z.literal('model'),
    owned_by: z.string(),
  });

  const ModelListSchema = z.strictObject({ object: z.literal('list'), data: z.array(ModelInfoSchema) });

  const ModelListLooseSchema = z.looseObject({
    data: z.array(z.looseObject({ id: z.string(), name: z.string().optional(), description: z.string().optional() })),
  });

  const UnderstandingRequestSchema = z.looseObject({
    transcript_id: z
      .string({ error: 'transcript_id is required (the id of a completed transcript).' })
      .min(1, { error: 'transcript_id is required (the id of a completed transcript).' }),
    speech_understanding: SpeechUnderstandingRequestSchema,
  });

  const UnderstandingResultSchema = z.strictObject({
    speech_understanding: z.strictObject({ request: z.record(z.string(), z.unknown()), response: z.record(z.string(), z.unknown()) }),
    translated_texts: z.record(z.string(), z.string()).optional(),
  });

  const UnderstandingResponseLooseSchema = TranscriptResponseSchema.unwrap().extend({
    speech_understanding: z
      .looseObject({ request: z.record(z.string(), z.unknown()).optional(), response: z.record(z.string(), z.unknown()).optional() })
      .nullish(),
    translated_texts: z.record(z.string(), z.string()).optional(),
  });
  return {
    ChatMessageSchema,
    ResponseFormatSchema,
    StopSchema,
    ChatCompletionRequestSchema,
    ChatCompletionSchema,
    ChatCompletionLooseSchema,
    ChatDeltaSchema,
    ChatCompletionChunkSchema,
    ChatCompletionChunkLooseSchema,
    GatewayErrorBodySchema,
    ModelInfoSchema,
    ModelListSchema,
    ModelListLooseSchema,
    UnderstandingRequestSchema,
    UnderstandingResultSchema,
    UnderstandingResponseLooseSchema,
  };
}
