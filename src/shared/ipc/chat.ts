/** Chat over recordings, and speech understanding (insights) of one recording. */
import { z } from 'zod';
import {
  chatDetailSchema,
  chatMessageSchema,
  chatModelSchema,
  chatSummarySchema,
  customFormattingSchema,
  insightKindSchema,
  insightSchema,
} from '../chat/schema';
import { idInput, okOutput, type Contracts } from './common';

export const chatChannels = {
  // ── chat over recordings ────────────────────────────────────────────────
  /** The current region's gateway models (`GET /v1/models`) and the one a new chat uses. `fresh` skips the one-minute cache. */
  'chat.models': {
    input: z.lazy(() =>
      z
        .object({ fresh: z.boolean().default(false) })
        .strict()
        .optional(),
    ),
    output: z.lazy(() => z.object({ region: z.string(), models: z.array(chatModelSchema), defaultModel: z.string().nullable() })),
  },
  /** Saved chats, newest first; `query` searches titles and messages with the library's search syntax. */
  'chat.list': {
    input: z.lazy(() =>
      z
        .object({ query: z.string().trim().max(500).optional() })
        .strict()
        .optional(),
    ),
    output: z.lazy(() => z.object({ chats: z.array(chatSummarySchema) })),
  },
  /** One chat with all its messages. */
  'chat.get': { input: idInput, output: chatDetailSchema },
  /** A new chat over recordings (a transcript's "Ask", a library selection) or over the whole library (retrieval picks the passages). */
  'chat.create': {
    input: z.lazy(() =>
      z
        .object({
          scope: z.enum(['recordings', 'library']),
          recordingIds: z.array(z.string().min(1)).max(1000).optional(),
          model: z.string().min(1).max(200).optional(),
          title: z.string().trim().min(1).max(300).optional(),
        })
        .strict(),
    ),
    output: chatDetailSchema,
  },
  'chat.rename': { input: z.lazy(() => z.object({ id: z.string().min(1), title: z.string().trim().min(1).max(300) }).strict()), output: chatSummarySchema },
  /** The model this chat asks (remembered with it). */
  'chat.setModel': { input: z.lazy(() => z.object({ id: z.string().min(1), model: z.string().min(1).max(200) }).strict()), output: chatSummarySchema },
  'chat.delete': { input: idInput, output: okOutput },
  /**
   * Ask a question: answers the saved question and the answer being written
   * (status streaming) at once; the text arrives by `chat.delta`, the finished
   * message by `chat.message`. `conflict` while the chat is still answering.
   */
  'chat.send': {
    input: z.lazy(() => z.object({ id: z.string().min(1), text: z.string().trim().min(1).max(4000) }).strict()),
    output: z.lazy(() => z.object({ question: chatMessageSchema, answer: chatMessageSchema })),
  },
  /** Stop the answer being written (what arrived is kept, marked stopped), or a wait for a rate limit. */
  'chat.stop': { input: idInput, output: z.lazy(() => z.object({ stopped: z.boolean() })) },
  /** The chat as Markdown; the renderer saves it. */
  'chat.export': { input: idInput, output: z.lazy(() => z.object({ filename: z.string(), mime: z.string(), content: z.string() })) },
  /** Saved speech-understanding results of a recording's transcript. */
  'insights.list': { input: idInput, output: z.lazy(() => z.object({ insights: z.array(insightSchema) })) },
  /**
   * Run one action on a recording's transcript and save the result (replacing
   * the previous one of that kind and language). `unavailable` says what the
   * action needs when the model cannot do it.
   */
  'insights.run': {
    input: z.lazy(() =>
      z
        .object({
          id: z.string().min(1),
          kind: insightKindSchema,
          model: z.string().min(1).max(200).optional(),
          language: z.string().trim().min(2).max(40).optional(),
          formatting: customFormattingSchema.optional(),
          /** A summary written to this template's sections. */
          templateId: z.string().min(1).max(80).optional(),
        })
        .strict(),
    ),
    output: insightSchema,
  },
  /** Stop the action running on this recording (it then fails with `canceled`). */
  'insights.stop': { input: idInput, output: z.lazy(() => z.object({ stopped: z.boolean() })) },
} as const satisfies Contracts;
