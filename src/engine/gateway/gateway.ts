/**
 * The gateway's logic, independent of HTTP: which provider serves a model,
 * transcript injection, JSON-schema answers with one repair attempt, rate
 * limits, and speech understanding. routes/gateway.ts only adapts it.
 */
import { randomUUID } from 'node:crypto';
import { customFormat, type CustomFormattingRequest } from './custom-formatting';
import { ExtractiveProvider, EXTRACTIVE_MODEL } from './extractive';
import type { GatewayConfig } from './config';
import { checkSchema, parseModelJson, validateSchema } from './json-schema';
import { chunkText, LOCAL_MODEL_HINT, LlamaProvider, speakerSchema } from './llama';
import { OpenAICompatibleProvider } from './openai-compatible';
import { cutAtStop, StopCutter } from './stop';
import { RateLimiter, type RateService } from './rate-limit';
import { ChatCompletionRequestSchema, type ChatCompletion, type ChatCompletionChunk, type UnderstandingResult } from '../../shared/api/gateway';
import { firstIssue, SpeechUnderstandingRequestSchema } from '../../shared/api/transcript';
import {
  contentText,
  GatewayError,
  roughTokens,
  type ProviderMessage,
  type ChatProvider,
  type ChatRequest,
  type Completion,
  type CompletionDelta,
  type ModelInfo,
  type TranscriptSource,
} from './provider';

/** Transcripts one chat request may name (transcript_id plus transcript_ids). */
export const MAX_TRANSCRIPTS_PER_REQUEST = 100;

/** Languages one speech-understanding translation may name: each is one model call. */
export const MAX_TARGET_LANGUAGES = 10;

/** Where completed transcripts come from (the engine's store). */
export interface TranscriptLookup {
  getCompletedTranscript(id: string): { id: string; text: string; sentences: { text: string; start: number; end: number }[] | null } | null;
}

export interface UnderstandingTranscript {
  text: string | null;
  utterances?: { speaker: string | null; text: string }[] | null;
}

export type { UnderstandingResult } from '../../shared/api/gateway';

export class Gateway {
  private readonly byModel = new Map<string, ChatProvider>();
  private readonly ordered: ChatProvider[] = [];
  readonly limiter: RateLimiter;
  /** Installed GGUF models, run in process (llama.ts). */
  readonly local: LlamaProvider;

  constructor(
    readonly config: GatewayConfig,
    private readonly transcripts: TranscriptLookup,
  ) {
    const extractive = new ExtractiveProvider();
    for (const up of config.upstreams) this.add(new OpenAICompatibleProvider({ ...up, apiKey: up.apiKey ?? null }));
    this.local = new LlamaProvider(config.local ?? {});
    this.add(this.local);
    this.add(extractive);
    const test = config.testRateWindow;
    this.limiter = new RateLimiter((model) => config.limits[model] ?? config.defaultLimit, test?.windowMs, Date.now, test?.refusedResetMs);
  }

  private add(p: ChatProvider): void {
    this.ordered.push(p);
    for (const m of p.models()) if (!this.byModel.has(m.id)) this.byModel.set(m.id, p);
  }

  models(): ModelInfo[] {
    return this.ordered.flatMap((p) => p.models()).filter((m, i, all) => all.findIndex((x) => x.id === m.id) === i);
  }

  provider(model: string): ChatProvider {
    // Local models are installed and deleted while the engine runs, so they are looked up each time.
    const p = this.byModel.get(model) ?? (this.local.has(model) ? this.local : undefined);
    if (!p)
      throw new GatewayError(
        400,
        `Unknown model ${JSON.stringify(model)}; GET /v1/models lists the models of this engine (${[...this.byModel.keys()].join(', ')}).`,
      );
    return p;
  }

  /** The model used for translation and speaker identification, or null when only the extractive model exists. */
  understandingModel(): string | null {
    if (this.config.understandingModel) return this.config.understandingModel;
    for (const p of this.ordered) {
      const id = !p.generative ? undefined : p === this.local ? this.local.preferredModel() : p.models()[0]?.id;
      if (id) return id;
    }
    return null;
  }

  /** Reads the installed local models again; call before the synchronous look-ups of a request (models, provider, understandingModel). */
  refresh(): Promise<void> {
    return this.local.refresh();
  }

  /** Frees the loaded local model (the engine is closing). */
  close(): Promise<void> {
    return this.local.close();
  }

  rate(model: string, service: RateService) {
    return this.limiter.take(model, service);
  }

  /** Checks a chat body with the wire schema and resolves transcripts; throws GatewayError(400/404). */
  prepare(body: unknown): { req: ChatRequest; stream: boolean; provider: ChatProvider } {
    if (!body || typeof body !== 'object' || Array.isArray(body)) throw new GatewayError(400, 'The body must be a JSON object with model and messages.');
    const parsed = ChatCompletionRequestSchema.safeParse(body);
    if (!parsed.success) {
      const i = parsed.error.issues[0];
      const at = i && i.path[0] === 'messages' && typeof i.path[1] === 'number' ? `messages[${i.path[1]}].` : '';
      throw new GatewayError(400, `${at}${firstIssue(parsed.error)}`);
    }
    const b = parsed.data;
    // The spec's prompt form is one user message.
    const wireMessages = b.messages ?? [{ role: 'user' as const, content: b.prompt ?? '' }];
    const messages: ProviderMessage[] = wireMessages.map((o) => {
      const out: ProviderMessage = { role: o.role, content: o.content === undefined || o.content === null ? null : contentText(o.content) };
      if (o.tool_calls) out.tool_calls = o.tool_calls;
      if (o.tool_call_id !== undefined) out.tool_call_id = o.tool_call_id;
      if (o.name !== undefined) out.name = o.name;
      return out;
    });
    const maxTokens = b.max_completion_tokens ?? b.max_tokens ?? 1000;
    const stop = b.stop === undefined || b.stop === null ? [] : typeof b.stop === 'string' ? [b.stop] : b.stop;
    const rf = b.response_format;
    const provider = this.provider(b.model);
    const transcripts: TranscriptSource[] = [];
    const ids = [...(b.transcript_id === undefined ? [] : [b.transcript_id]), ...(b.transcript_ids ?? [])];
    // Each named transcript is loaded whole: a repeated id is loaded once, and the count is capped (a 2 MB body fits 50,000 ids).
    const unique = [...new Set(ids)];
    if (unique.length > MAX_TRANSCRIPTS_PER_REQUEST)
      throw new GatewayError(400, `A request can name at most ${MAX_TRANSCRIPTS_PER_REQUEST} transcripts; it named ${unique.length}.`);
    for (const id of unique) {
      const t = this.transcripts.getCompletedTranscript(id);
      if (!t) throw new GatewayError(404, `Transcript ${id} was not found or is not completed.`);
      transcripts.push({ id: t.id, text: t.text, sentences: t.sentences ?? [] });
    }
    const first = transcripts[0];
    if (first) {
      const at = messages.findIndex((m) => m.content?.includes('{{ transcript }}'));
      const target = messages[at];
      if (target?.content) target.content = target.content.replace('{{ transcript }}', () => first.text);
    }
    if (rf?.type === 'json_schema') {
      const bad = checkSchema(rf.json_schema?.schema ?? {});
      if (bad) throw new GatewayError(400, bad);
    }
    if (rf?.type === 'json_schema' && !provider.generative) {
      throw new GatewayError(400, `${b.model} cannot answer in a JSON schema: it only quotes transcripts. ${LOCAL_MODEL_HINT}`);
    }
    const req: ChatRequest = { model: b.model, messages, max_tokens: maxTokens, stop, transcripts };
    if (b.max_completion_tokens !== undefined) req.max_tokens_field = 'max_completion_tokens';
    if (b.temperature !== undefined) req.temperature = b.temperature;
    if (b.tools) req.tools = b.tools;
    if (b.tool_choice !== undefined) req.tool_choice = b.tool_choice;
    if (rf) req.response_format = rf;
    return { req, stream: b.stream === true, provider };
  }

  /** A whole answer in the chat.completion shape, with schema validation and one repair attempt. */
  async complete(req: ChatRequest, provider: ChatProvider, signal?: AbortSignal): Promise<ChatCompletion> {
    let result = await provider.complete(req, signal);
    const schema = req.response_format?.type === 'json_schema' ? req.response_format.json_schema?.schema : undefined;
    if (schema && !result.tool_calls?.length) {
      const problems = schemaProblems(result.content ?? '', schema);
      if (problems) {
        const repair: ChatRequest = {
          ...req,
          messages: [
            ...req.messages,
            { role: 'assistant', content: result.content ?? '' },
            {
              role: 'user',
              content: `Your answer does not match the required JSON schema (${problems}). Answer again with only a JSON value that matches this schema: ${JSON.stringify(schema)}`,
            },
          ],
        };
        result = await provider.complete(repair, signal);
        const still = schemaProblems(result.content ?? '', schema);
        if (still) throw new GatewayError(502, `The model's answer did not match the response_format schema after one repair attempt: ${still}`);
      }
    }
    const cut = cutAtStop(result.content ?? '', req.stop);
    if (cut.stopped) result = { ...result, content: cut.text, finish_reason: 'stop' };
    return this.envelope(req, result);
  }

  envelope(req: ChatRequest, r: Completion): ChatCompletion {
    const prompt = r.usage?.prompt_tokens ?? roughTokens(req.messages.map((m) => m.content ?? '').join('\n'));
    const completion = r.usage?.completion_tokens ?? roughTokens(r.content ?? '');
    const message: ChatCompletion['choices'][number]['message'] = { role: 'assistant', content: r.content };
    if (r.tool_calls?.length) message.tool_calls = r.tool_calls;
    const id = `chatcmpl-${randomUUID()}`;
    return {
      request_id: randomUUID(),
      id,
      object: 'chat.completion',
      created: Math.floor(Date.now() / 1000),
      model: req.model,
      choices: [{ index: 0, message, finish_reason: r.finish_reason }],
      usage: { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion, input_tokens: prompt, output_tokens: completion },
    };
  }

  /** Streamed answer as chat.completion.chunk objects. */
  async *streamChunks(req: ChatRequest, provider: ChatProvider, signal?: AbortSignal): AsyncGenerator<ChatCompletionChunk> {
    const id = `chatcmpl-${randomUUID()}`;
    const created = Math.floor(Date.now() / 1000);
    let finished = false;
    const cutter = new StopCutter(req.stop);
    for await (const d of provider.stream(req, signal) as AsyncGenerator<CompletionDelta>) {
      const { finish_reason, ...delta } = d;
      // Text held back (a possible start of a stop sequence) goes out with the last chunk; a stop sequence ends the answer.
      if (delta.content !== undefined) delta.content = cutter.push(delta.content);
      if (finish_reason || cutter.stopped) delta.content = (delta.content ?? '') + cutter.flush();
      if (!delta.content) delete delta.content;
      if (cutter.stopped) {
        if (Object.keys(delta).length)
          yield { id, object: 'chat.completion.chunk', created, model: req.model, choices: [{ index: 0, delta, finish_reason: null }] };
        yield { id, object: 'chat.completion.chunk', created, model: req.model, choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] };
        return;
      }
      if (!finish_reason && !Object.keys(delta).length) continue;
      if (finish_reason) finished = true;
      yield { id, object: 'chat.completion.chunk', created, model: req.model, choices: [{ index: 0, delta, finish_reason: finish_reason ?? null }] };
    }
    const rest = cutter.flush();
    if (rest) yield { id, object: 'chat.completion.chunk', created, model: req.model, choices: [{ index: 0, delta: { content: rest }, finish_reason: null }] };
    if (!finished) yield { id, object: 'chat.completion.chunk', created, model: req.model, choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] };
  }

  /** Checks a speech_understanding object with the wire schema, then what the engine can do (400 either way). */
  checkUnderstanding(su: unknown): Record<string, unknown> {
    const parsed = SpeechUnderstandingRequestSchema.safeParse(su);
    if (!parsed.success) throw new GatewayError(400, parsed.error.issues[0]?.message ?? 'speech_understanding is not valid.');
    const r: Record<string, unknown> = parsed.data.request;
    const known = ['translation', 'speaker_identification', 'custom_formatting'];
    const unknown = Object.keys(r).filter((k) => !known.includes(k));
    if (unknown.length)
      throw new GatewayError(400, `speech_understanding.request.${unknown[0]} is not supported by the local engine (supported: ${known.join(', ')}).`);
    if (Object.keys(r).length === 0)
      throw new GatewayError(400, 'speech_understanding.request names no feature (translation, speaker_identification or custom_formatting).');
    const llm = this.understandingModel();
    const { translation, speaker_identification: who } = parsed.data.request;
    if (translation && translation.target_languages.length > MAX_TARGET_LANGUAGES)
      throw new GatewayError(
        400,
        `translation.target_languages names ${translation.target_languages.length} languages; the local engine translates into at most ${MAX_TARGET_LANGUAGES} per request.`,
      );
    if (translation && !llm) throw new GatewayError(400, `translation needs a model that writes, and the local engine has none. ${LOCAL_MODEL_HINT}`);
    if (who) {
      if (who.speaker_type === 'role' && !who.known_values?.length)
        throw new GatewayError(400, 'speaker_identification with speaker_type "role" needs known_values.');
      if (!llm) throw new GatewayError(400, `speaker_identification needs a model that writes, and the local engine has none. ${LOCAL_MODEL_HINT}`);
    }
    return r;
  }

  /** Runs speech understanding on a transcript. */
  async understand(t: UnderstandingTranscript, su: unknown, signal?: AbortSignal): Promise<UnderstandingResult> {
    await this.refresh();
    const request = this.checkUnderstanding(su);
    // Every upstream call counts against the rate limit: the route counted the request (the first call), the rest are taken here, before any is made.
    const calls =
      ((request.translation as { target_languages?: string[] } | undefined)?.target_languages?.length ?? 0) + (request.speaker_identification ? 1 : 0);
    if (calls > 1) {
      const model = this.understandingModel() as string;
      const d = this.limiter.take(model, 'speech-understanding', calls - 1);
      if (!d.allowed)
        throw new GatewayError(
          429,
          `Rate limit reached for model ${model}: this request needs ${calls} model calls and ${d.headers['X-RateLimit-Remaining']} of ${d.headers['X-RateLimit-Limit']} per minute are left. Retry in ${d.resetSeconds} s, or name fewer target_languages.`,
          d.headers,
        );
    }
    const response: Record<string, unknown> = {};
    const out: UnderstandingResult = { speech_understanding: { request, response } };
    const text = t.text ?? '';
    if (request.custom_formatting) response.custom_formatting = customFormat(text, request.custom_formatting as CustomFormattingRequest);
    if (request.translation) {
      const tr = request.translation as { target_languages: string[]; formal?: boolean };
      const model = this.understandingModel() as string;
      const provider = this.provider(model);
      const translated: Record<string, string> = {};
      // A local model's context is small: it translates the text in pieces that fit (llama.ts).
      const pieces = provider === this.local ? chunkText(text, this.local.roomChars(model)) : [text];
      for (const lang of tr.target_languages) {
        const parts: string[] = [];
        for (const piece of pieces) {
          const r = await provider.complete(
            {
              model,
              max_tokens: Math.max(1000, roughTokens(piece) * 2),
              stop: [],
              transcripts: [],
              messages: [
                {
                  role: 'system',
                  content: `You translate transcripts. Answer with the translation only, no notes.${tr.formal ? ' Use a formal register.' : ''}`,
                },
                { role: 'user', content: `Translate into the language with code "${lang}":\n\n${piece}` },
              ],
            },
            signal,
          );
          parts.push((r.content ?? '').trim());
        }
        translated[lang] = parts.join(' ');
      }
      out.translated_texts = translated;
      response.translation = { status: 'success' };
    }
    if (request.speaker_identification) {
      const si = request.speaker_identification as { speaker_type: 'name' | 'role'; known_values?: string[] };
      const model = this.understandingModel() as string;
      const speakers = [...new Set((t.utterances ?? []).map((u) => u.speaker).filter((s): s is string => !!s))];
      const labels = speakers.length ? speakers : ['A'];
      const sample = t.utterances?.length ? t.utterances.map((u) => `${u.speaker ?? 'A'}: ${u.text}`).join('\n') : `A: ${text}`;
      // A local model answers through a grammar, so its answer is the JSON object asked for, and reads what fits its context.
      const local = this.provider(model) === this.local;
      const room = local ? this.local.roomChars(model) : 20_000;
      const r = await this.provider(model).complete(
        {
          model,
          ...(local ? { response_format: speakerSchema(labels) } : {}),
          max_tokens: 300,
          stop: [],
          transcripts: [],
          messages: [
            {
              role: 'system',
              content:
                'You identify speakers in transcripts. Answer with only a JSON object mapping each speaker label to a ' +
                (si.speaker_type === 'role' ? 'role' : 'name') +
                '.',
            },
            {
              role: 'user',
              content: `Speaker labels: ${labels.join(', ')}.${si.known_values?.length ? ` Choose from: ${si.known_values.join(', ')}.` : ''}\n\n${sample.slice(0, room)}`,
            },
          ],
        },
        signal,
      );
      const parsed = parseModelJson(r.content ?? '');
      const mapping: Record<string, string> = {};
      if (parsed.ok && parsed.value && typeof parsed.value === 'object') {
        for (const [k, v] of Object.entries(parsed.value as Record<string, unknown>)) if (labels.includes(k) && typeof v === 'string') mapping[k] = v;
      }
      response.speaker_identification = { status: Object.keys(mapping).length ? 'success' : 'error', mapping };
    }
    return out;
  }
}

function schemaProblems(content: string, schema: unknown): string | null {
  const parsed = parseModelJson(content);
  if (!parsed.ok) return parsed.error;
  const errs = validateSchema(schema as Record<string, unknown>, parsed.value);
  return errs.length ? errs.slice(0, 5).join('; ') : null;
}

export { EXTRACTIVE_MODEL, GatewayError };
