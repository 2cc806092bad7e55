/**
 * What a chat provider (an OpenAI-compatible upstream, the extractive model)
 * implements, and the request it is handed: the wire request of
 * src/shared/api/gateway.ts after checks, with message contents as text and
 * the transcripts it names resolved.
 */
import type { ChatCompletionRequest, ChatDelta, ChatMessage, ModelInfo as WireModelInfo } from '../../shared/api/gateway';

export type ProviderMessage = Omit<ChatMessage, 'content'> & { content: string | null };

export type ChatRequest = Pick<ChatCompletionRequest, 'temperature' | 'tools' | 'tool_choice' | 'response_format'> & {
  model: string;
  messages: ProviderMessage[];
  /** The most tokens to write: the request's max_completion_tokens, else max_tokens, else 1000. The gateway also cuts a longer answer. */
  max_tokens: number;
  /** The name the client gave that limit; an OpenAI-compatible upstream is sent the same one (OpenAI refuses both at once; local servers read max_tokens). */
  max_tokens_field?: 'max_tokens' | 'max_completion_tokens';
  /** Stop sequences (up to 4, possibly none): a provider stops before the first it would write; the gateway also cuts at them, so one that cannot still ends there. */
  stop: string[];
  /** Completed transcripts named by the request (for retrieval providers). */
  transcripts: TranscriptSource[];
};

export interface TranscriptSource {
  id: string;
  text: string;
  sentences: { text: string; start: number; end: number }[];
}

export interface Completion {
  content: string | null;
  tool_calls?: unknown[];
  finish_reason: string;
  usage?: { prompt_tokens: number; completion_tokens: number };
}

/** One streamed piece, in the wire chunk's delta shape. */
export type CompletionDelta = ChatDelta & { finish_reason?: string | null };

/** A model as a provider describes it (the list route adds object and owned_by). */
export type ModelInfo = Omit<WireModelInfo, 'object' | 'owned_by'>;

export interface ChatProvider {
  readonly kind: 'openai-compatible' | 'verbatim-extractive' | 'local-gguf';
  readonly supportsTools: boolean;
  /** Whether it can write free text (translation, speaker naming need that). */
  readonly generative: boolean;
  models(): ModelInfo[];
  complete(req: ChatRequest, signal?: AbortSignal): Promise<Completion>;
  stream(req: ChatRequest, signal?: AbortSignal): AsyncGenerator<CompletionDelta>;
}

/** A failure with an HTTP status for the client. */
export class GatewayError extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** Headers the answer carries (the rate limit's on a 429). */
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

/** Text of a message content that may be a string or an array of parts. */
export function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    return content.map((p) => (p && typeof p === 'object' && typeof (p as { text?: unknown }).text === 'string' ? (p as { text: string }).text : '')).join('');
  }
  return '';
}

/** A rough token count (about four characters a token) for usage figures. */
export function roughTokens(s: string): number {
  return Math.max(1, Math.ceil(s.length / 4));
}
