/** The messages between the engine (llama-host.ts) and the local-model child process (llama-child.ts). */

export interface GenerateJob {
  id: number;
  /** The model's id (named in errors) and its .gguf file. */
  model: string;
  path: string;
  contextSize: number;
  threads: number;
  /** Chat history before the prompt, in node-llama-cpp's ChatHistoryItem shape. */
  history: unknown[];
  prompt: string;
  /** Every message's text, to count the prompt's tokens before generating. */
  allText: string;
  maxTokens: number;
  temperature: number;
  stops: string[];
  schema?: unknown;
  jsonObject?: boolean;
}

export type HostToChild = { t: 'generate'; job: GenerateJob } | { t: 'abort'; id: number };

export type ChildToHost =
  | { t: 'ready' }
  | { t: 'binary'; ms: number }
  | { t: 'loaded'; ms: number }
  | { t: 'start'; id: number }
  | { t: 'text'; id: number; s: string }
  | { t: 'done'; id: number; content: string; finish: string; promptTokens: number; completionTokens: number }
  | { t: 'error'; id: number; status: number; message: string };
