/**
 * An OpenAI-compatible chat-completions upstream: Ollama, llama.cpp server,
 * LM Studio, vLLM or OpenAI itself. Requests are forwarded as they are
 * (tools, tool_choice and response_format included); answers are mapped back.
 */
import { GatewayError, type ChatProvider, type ChatRequest, type Completion, type CompletionDelta, type ModelInfo } from './provider';

export interface UpstreamConfig {
  /** e.g. http://127.0.0.1:11434/v1 (Ollama). `/chat/completions` is appended. */
  baseUrl: string;
  apiKey?: string | null;
  /** Model names served by this upstream, as clients will name them. */
  models: (string | (Partial<ModelInfo> & { id: string }))[];
  /** Whether the upstream accepts `tools` (default true). */
  tools?: boolean;
  /** Request timeout in ms (default 120 s). */
  timeoutMs?: number;
}

export class OpenAICompatibleProvider implements ChatProvider {
  readonly kind = 'openai-compatible' as const;
  readonly generative = true;
  readonly supportsTools: boolean;
  private readonly url: string;

  constructor(private readonly cfg: UpstreamConfig) {
    this.supportsTools = cfg.tools ?? true;
    this.url = `${cfg.baseUrl.replace(/\/+$/, '')}/chat/completions`;
  }

  models(): ModelInfo[] {
    return this.cfg.models.map((m) => {
      const id = typeof m === 'string' ? m : m.id;
      const o: Partial<ModelInfo> = typeof m === 'string' ? {} : m;
      return {
        id,
        name: o.name ?? id,
        description: o.description ?? `${id} through the OpenAI-compatible upstream at ${this.cfg.baseUrl}`,
        context_length: o.context_length ?? 8192,
      };
    });
  }

  private body(req: ChatRequest, stream: boolean): string {
    // The limit under the client's name for it: Ollama, llama.cpp and LM Studio read max_tokens, OpenAI's newer models only max_completion_tokens, and OpenAI refuses both at once.
    const b: Record<string, unknown> = { model: req.model, messages: req.messages, [req.max_tokens_field ?? 'max_tokens']: req.max_tokens, stream };
    if (req.stop.length) b.stop = req.stop;
    if (req.temperature !== undefined) b.temperature = req.temperature;
    if (req.tools && this.supportsTools) b.tools = req.tools;
    if (req.tool_choice !== undefined && this.supportsTools) b.tool_choice = req.tool_choice;
    if (req.response_format) b.response_format = req.response_format;
    return JSON.stringify(b);
  }

  private async post(req: ChatRequest, stream: boolean, signal?: AbortSignal): Promise<Response> {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (this.cfg.apiKey) headers.authorization = `Bearer ${this.cfg.apiKey}`;
    const timeout = AbortSignal.timeout(this.cfg.timeoutMs ?? 120_000);
    let res: Response;
    try {
      res = await fetch(this.url, { method: 'POST', headers, body: this.body(req, stream), signal: signal ? AbortSignal.any([signal, timeout]) : timeout });
    } catch (err) {
      throw new GatewayError(
        502,
        `The LLM upstream at ${this.cfg.baseUrl} could not be reached (${err instanceof Error ? err.message : String(err)}); check that it is running and the base URL is right.`,
      );
    }
    if (!res.ok) {
      const text = (await res.text().catch(() => '')).slice(0, 300);
      const status = res.status === 429 ? 429 : res.status >= 500 ? 502 : res.status === 404 ? 400 : res.status;
      throw new GatewayError(status, `The LLM upstream answered ${res.status} for model ${req.model}${text ? `: ${text}` : ''}`);
    }
    return res;
  }

  async complete(req: ChatRequest, signal?: AbortSignal): Promise<Completion> {
    const res = await this.post(req, false, signal);
    let json: {
      choices?: { message?: { content?: string | null; tool_calls?: unknown[] }; finish_reason?: string }[];
      usage?: { prompt_tokens?: number; completion_tokens?: number };
    };
    try {
      json = (await res.json()) as typeof json;
    } catch {
      throw new GatewayError(502, 'The LLM upstream answered with something that is not JSON.');
    }
    const choice = json.choices?.[0];
    if (!choice?.message) throw new GatewayError(502, 'The LLM upstream answered without choices[0].message.');
    const out: Completion = { content: choice.message.content ?? null, finish_reason: choice.finish_reason ?? 'stop' };
    if (choice.message.tool_calls?.length) out.tool_calls = choice.message.tool_calls;
    if (json.usage) out.usage = { prompt_tokens: json.usage.prompt_tokens ?? 0, completion_tokens: json.usage.completion_tokens ?? 0 };
    return out;
  }

  async *stream(req: ChatRequest, signal?: AbortSignal): AsyncGenerator<CompletionDelta> {
    const res = await this.post(req, true, signal);
    if (!res.body) throw new GatewayError(502, 'The LLM upstream sent no body.');
    const decoder = new TextDecoder();
    let buf = '';
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      buf += decoder.decode(chunk, { stream: true });
      let nl: number;
      while ((nl = buf.indexOf('\n')) >= 0) {
        const line = buf.slice(0, nl).trim();
        buf = buf.slice(nl + 1);
        if (!line.startsWith('data:')) continue;
        const data = line.slice(5).trim();
        if (data === '[DONE]') return;
        let parsed: { choices?: { delta?: CompletionDelta; finish_reason?: string | null }[] };
        try {
          parsed = JSON.parse(data) as typeof parsed;
        } catch {
          continue;
        }
        const c = parsed.choices?.[0];
        if (!c) continue;
        const d: CompletionDelta = { ...(c.delta ?? {}) };
        if (c.finish_reason) d.finish_reason = c.finish_reason;
        yield d;
      }
    }
  }
}
