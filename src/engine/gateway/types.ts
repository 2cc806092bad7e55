/** The LLM gateway's provider interface and request/answer shapes (API.md §9). */

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant' | 'tool';
  content: string | null;
  tool_calls?: unknown[];
  tool_call_id?: string;
  name?: string;
}

export interface ChatRequest {
  model: string;
  messages: ChatMessage[];
  max_tokens: number;
  temperature?: number;
  tools?: unknown[];
  tool_choice?: unknown;
  response_format?: { type: string; json_schema?: { name?: string; schema?: unknown; strict?: boolean } };
  /** Completed transcripts named by the request (for retrieval providers). */
  transcripts: TranscriptSource[];
}

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

/** One streamed piece, in OpenAI's chunk delta shape. */
export interface CompletionDelta {
  content?: string;
  tool_calls?: unknown[];
  role?: 'assistant';
  finish_reason?: string | null;
}

export interface ModelInfo {
  id: string;
  name: string;
  description: string;
  context_length: number;
}

export interface ChatProvider {
  readonly kind: 'openai-compatible' | 'verbatim-extractive';
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
  ) {
    super(message);
  }
}

/** Text of a message content that may be a string or an array of parts. */
export function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    return content
      .map((p) => (p && typeof p === 'object' && typeof (p as { text?: unknown }).text === 'string' ? (p as { text: string }).text : ''))
      .join('');
  }
  return '';
}

/** A rough token count (about four characters a token) for usage figures. */
export function roughTokens(s: string): number {
  return Math.max(1, Math.ceil(s.length / 4));
}
