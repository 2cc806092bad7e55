/**
 * Shapes of chats over recordings and of speech-understanding results
 * ("insights") as they cross IPC: chats with their recordings and messages,
 * citations, the models a region offers, and each action's structured result.
 */
import { z } from 'zod';
import { lazySchemas } from '../lazy-schemas';

// Made on first use (lazy-schemas.ts): each schema below is a z.lazy of the one build() makes, by the same name.
const schemas = lazySchemas(build);

export const EXTRACTIVE_MODEL = 'verbatim-extractive';

export const chatModelSchema = z.lazy(() => schemas().chatModelSchema);
export type ChatModel = z.infer<typeof chatModelSchema>;

export const citationSchema = z.lazy(() => schemas().citationSchema);
export type Citation = z.infer<typeof citationSchema>;

/** A recording an answer drew on, and how many of its passages the prompt carried. */
export const chatSourceSchema = z.lazy(() => schemas().chatSourceSchema);
export type ChatSource = z.infer<typeof chatSourceSchema>;

export const messageStatusSchema = z.lazy(() => schemas().messageStatusSchema);

export const chatMessageSchema = z.lazy(() => schemas().chatMessageSchema);
export type ChatMessage = z.infer<typeof chatMessageSchema>;

export const chatScopeSchema = z.lazy(() => schemas().chatScopeSchema);

export const chatSummarySchema = z.lazy(() => schemas().chatSummarySchema);
export type ChatSummary = z.infer<typeof chatSummarySchema>;

export const chatDetailSchema = z.lazy(() => schemas().chatDetailSchema);
export type ChatDetail = z.infer<typeof chatDetailSchema>;

/** What a chat is doing: thinking (request sent), streaming, or waiting out a rate limit until retryAt. */
export const chatStateSchema = z.lazy(() => schemas().chatStateSchema);
export type ChatState = z.infer<typeof chatStateSchema>;

// ── speech understanding actions ─────────────────────────────────────────

export const insightKindSchema = z.lazy(() => schemas().insightKindSchema);
export type InsightKind = z.infer<typeof insightKindSchema>;

export const customFormattingSchema = z.lazy(() => schemas().customFormattingSchema);

export const insightResultSchema = z.lazy(() => schemas().insightResultSchema);
export type InsightResult = z.infer<typeof insightResultSchema>;

export const insightSchema = z.lazy(() => schemas().insightSchema);
export type Insight = z.infer<typeof insightSchema>;

/** Which actions a model can run, and what the user needs for the others. */
export function insightNeeds(kind: InsightKind, model: ChatModel | null): string | null {
  if (kind === 'custom_formatting') return null;
  if (!model) return 'Needs a model: the service lists none. Check the connection in Settings.';
  if (!model.generative) {
    const get = 'download a chat model in Settings → Models (Qwen2.5 1.5B Instruct is a good start), or add a cloud key in Settings.';
    return kind === 'translation' ? `Translation needs a language model that writes: ${get}` : `Needs a language model that writes text: ${get}`;
  }
  return null;
}

function build() {
  const chatModelSchema = z.object({
    id: z.string(),
    name: z.string(),
    description: z.string(),
    /** Tokens the model reads at once (the prompt's budget follows it). */
    contextLength: z.number().int().positive(),
    /** Writes text of its own (false for the offline extractive model, which only quotes). */
    generative: z.boolean(),
  });

  const citationSchema = z.object({
    recordingId: z.string(),
    label: z.string(),
    atMs: z.number().int().nonnegative(),
    index: z.number().int().nonnegative(),
    length: z.number().int().positive(),
  });

  const chatSourceSchema = z.object({
    recordingId: z.string(),
    title: z.string(),
    label: z.string(),
    passages: z.number().int().nonnegative(),
  });

  const messageStatusSchema = z.enum(['streaming', 'done', 'stopped', 'error']);

  const chatMessageSchema = z.object({
    id: z.number().int(),
    role: z.enum(['user', 'assistant']),
    content: z.string(),
    createdAt: z.string(),
    status: messageStatusSchema,
    /** What went wrong, for status error. */
    error: z.string().nullable(),
    model: z.string().nullable(),
    citations: z.array(citationSchema),
    sources: z.array(chatSourceSchema),
  });

  const chatScopeSchema = z.enum(['recordings', 'library']);

  const chatSummarySchema = z.object({
    id: z.string(),
    title: z.string(),
    model: z.string().nullable(),
    /** recordings: the listed ones; library: every completed transcript, by retrieval. */
    scope: chatScopeSchema,
    recordings: z.array(z.object({ id: z.string(), title: z.string() })),
    messageCount: z.number().int().nonnegative(),
    createdAt: z.string(),
    updatedAt: z.string(),
    /** The start of the last message. */
    preview: z.string(),
  });

  const chatDetailSchema = chatSummarySchema.extend({ messages: z.array(chatMessageSchema) });

  const chatStateSchema = z.object({
    chatId: z.string(),
    state: z.enum(['idle', 'thinking', 'streaming', 'waiting']),
    retryAt: z.string().nullable(),
    message: z.string().nullable(),
  });

  const insightKindSchema = z.enum(['summary', 'action_items', 'decisions', 'translation', 'custom_formatting']);

  const customFormattingSchema = z
    .object({
      date: z.string().trim().min(1).max(40).optional(),
      phone_number: z.string().trim().min(1).max(40).optional(),
      email: z.string().trim().min(1).max(60).optional(),
    })
    .strict()
    .refine((f) => f.date !== undefined || f.phone_number !== undefined || f.email !== undefined, 'Choose at least one of date, phone number or email.');

  const insightResultSchema = z.discriminatedUnion('kind', [
    z.object({
      kind: z.literal('summary'),
      bullets: z.array(z.string()),
      /** A summary written to a template: its name, and the bullets under each of its sections (`bullets` holds them all). */
      template: z.string().optional(),
      sections: z.array(z.object({ title: z.string(), bullets: z.array(z.string()) })).optional(),
    }),
    z.object({ kind: z.literal('action_items'), items: z.array(z.object({ owner: z.string().nullable(), task: z.string(), due: z.string().nullable() })) }),
    z.object({ kind: z.literal('decisions'), decisions: z.array(z.string()) }),
    z.object({
      kind: z.literal('translation'),
      language: z.string(),
      paragraphs: z.array(z.object({ startMs: z.number().int().nonnegative(), original: z.string(), translated: z.string() })),
    }),
    z.object({ kind: z.literal('custom_formatting'), formattedText: z.string(), mapping: z.record(z.string(), z.string()) }),
  ]);

  const insightSchema = z.object({
    kind: insightKindSchema,
    /** The target language for translations, '' otherwise. */
    variant: z.string(),
    model: z.string().nullable(),
    createdAt: z.string(),
    result: insightResultSchema,
  });
  return {
    chatModelSchema,
    citationSchema,
    chatSourceSchema,
    messageStatusSchema,
    chatMessageSchema,
    chatScopeSchema,
    chatSummarySchema,
    chatDetailSchema,
    chatStateSchema,
    insightKindSchema,
    customFormattingSchema,
    insightResultSchema,
    insightSchema,
  };
}
