/**
 * Local GGUF chat models through node-llama-cpp on its prebuilt CPU binary
 * (no GPU probing, no build, no download), run in a child process
 * (llama-child.ts) so that freeing a model returns all of its memory and a
 * crash in llama.cpp is one clear error, never the engine's end. One model
 * is loaded at a time and freed after the idle time (the child exits); one
 * generation runs at a time, the rest wait in a bounded queue (429 +
 * Retry-After beyond it). Each file is checked (gguf-check.ts) and its
 * memory need compared with free memory before native code loads it. A
 * client that goes away aborts its generation at once.
 */
import { availableParallelism } from 'node:os';
import type { ChatHistoryItem } from 'node-llama-cpp';
import { checkGguf, GgufError, type GgufInfo } from './gguf-check';
import { LlamaChild } from './llama-host';
import { ModelFileError, ModelsFolder } from '../models/folder';
import type { ModelManifest } from '../../shared/models/catalog';
import { findChatModel, listChatModels, type InstalledChatModel } from './local-models';
import { availableMemory, formatBytes, ramNeed } from './llama-memory';
import { GatewayError, type ChatProvider, type ChatRequest, type Completion, type CompletionDelta, type ModelInfo } from './provider';

export interface LocalModelOptions {
  /** The models folder's one reader (the engine shares one); else one over `modelsDir`. */
  models?: ModelsFolder;
  /** The models folder (`<models dir>/<id>/verbatim-model.json`). */
  modelsDir?: string;
  /** A loaded model unused this long is freed (default 60 s). */
  idleMs?: number;
  /** Requests that may wait behind the running one (default 4); more answer 429. */
  queueLimit?: number;
  /** llama.cpp threads (default: the cores less one, at least 1, at most 8). */
  threads?: number;
  /** Context size in tokens (default 4096, at most the model's, at least 1024). */
  contextSize?: number;
  /** Bytes of memory available now (default: MemAvailable on Linux, free memory elsewhere); tests inject it. */
  freeMemory?: () => number;
  /** Where warnings go. */
  log?: (msg: string) => void;
}

export const LOCAL_PROVIDER_KIND = 'local-gguf';

/** What a 400 says when a feature needs a model that writes and none is installed. */
export const LOCAL_MODEL_HINT =
  'Download a chat model (Qwen2.5 1.5B Instruct is a good start) in Settings → Models; or start the engine with --llm-base-url and --llm-models to use an OpenAI-compatible server such as Ollama.';

export class LlamaProvider implements ChatProvider {
  readonly kind = LOCAL_PROVIDER_KIND;
  readonly supportsTools = false;
  readonly generative = true;
  /** The model the child has loaded (or is loading), with the context it was given. */
  private loaded: { id: string; path: string; contextSize: number } | null = null;
  private readonly child: LlamaChild;
  private readonly folder: ModelsFolder;
  /** The installed chat models as last read (refresh() reads them again; the gateway calls it before each request). */
  private installed: ModelManifest[] = [];
  private tail: Promise<void> = Promise.resolve();
  private pending = 0;
  private idleTimer: NodeJS.Timeout | null = null;
  /** Generations running now (0 or 1); tests and the bench read it. */
  generating = 0;
  /** Binary, load and unload events, for tests and the bench. */
  readonly events: { type: 'binary' | 'load' | 'unload'; id: string; ms?: number }[] = [];

  constructor(private readonly opts: LocalModelOptions) {
    this.folder = opts.models ?? new ModelsFolder(opts.modelsDir ?? '');
    this.child = new LlamaChild(
      (e) => this.events.push({ type: e.type, id: e.type === 'binary' ? 'llama.cpp' : (this.loaded?.id ?? ''), ms: e.ms }),
      () => {
        if (this.loaded) this.events.push({ type: 'unload', id: this.loaded.id });
        this.loaded = null;
      },
    );
  }

  /** The child process's pid while it runs. */
  get childPid(): number | undefined {
    return this.child.pid;
  }

  get loadedModel(): string | null {
    return this.loaded?.id ?? null;
  }

  private get threads(): number {
    return this.opts.threads ?? Math.max(1, Math.min(8, availableParallelism() - 1));
  }

  /** Reads the installed chat models again (asynchronously, within the folder reader's limits). */
  async refresh(): Promise<void> {
    this.installed = this.opts.models || this.opts.modelsDir ? await listChatModels(this.folder) : [];
  }

  models(): ModelInfo[] {
    return this.installed.map((manifest) => ({
      id: manifest.id,
      name: manifest.name,
      description: `${manifest.name}, a local GGUF model run by the engine on this computer (no network).`,
      // What the engine gives it (the app sizes prompts by this), not what the model could take.
      context_length: Math.max(1024, Math.min(this.opts.contextSize ?? 4096, manifest.contextLength ?? 4096)),
    }));
  }

  /** The model speech understanding uses: the loaded one, else the last one that loaded, else the first installed. */
  preferredModel(): string | null {
    const last = this.loaded?.id ?? [...this.events].reverse().find((e) => e.type === 'load')?.id;
    if (last && this.has(last)) return last;
    return this.models()[0]?.id ?? null;
  }

  /** Characters of transcript a request to `id` may carry and still leave room to answer (about 3 characters a token). */
  roomChars(id: string): number {
    const ctx = this.models().find((m) => m.id === id)?.context_length ?? 4096;
    return Math.max(1000, Math.floor((ctx / 2) * 3));
  }

  has(id: string): boolean {
    return this.installed.some((m) => m.id === id);
  }

  /** Runs `fn` when the generations queued before it are done; 429 when the queue is full. */
  private async exclusive<T>(fn: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    const limit = this.opts.queueLimit ?? 4;
    if (this.pending > limit) {
      const wait = Math.max(1, this.pending * 5);
      throw new GatewayError(
        429,
        `The local model is busy: one answer is being written and ${this.pending - 1} more are waiting, the most this engine queues. Retry in about ${wait} s.`,
        { 'Retry-After': String(wait) },
      );
    }
    this.pending++;
    const before = this.tail;
    let release!: () => void;
    this.tail = new Promise<void>((r) => (release = r));
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
    try {
      await before;
      if (signal?.aborted) throw new GatewayError(499, 'The request was cancelled before the model started.');
      return await fn();
    } finally {
      this.pending--;
      release();
      if (this.pending === 0) this.scheduleIdle();
    }
  }

  private scheduleIdle(): void {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = setTimeout(() => {
      this.idleTimer = null;
      if (this.pending === 0) void this.exclusive(() => this.unload()).catch(() => undefined);
    }, this.opts.idleMs ?? 60_000);
    this.idleTimer.unref();
  }

  /** Checks `id`'s file and the memory it needs before the child loads it (the child loads on the first generation). */
  private async prepareLoad(id: string): Promise<{ path: string; contextSize: number }> {
    if (this.loaded?.id === id && this.child.running) return this.loaded;
    await this.unload();
    let found: InstalledChatModel | null;
    try {
      found = await findChatModel(this.folder, id);
    } catch (err) {
      // A broken manifest or model file is that model's fault, named; nothing native has read it.
      if (err instanceof ModelFileError) throw new GatewayError(422, err.message);
      throw err;
    }
    if (!found) throw new GatewayError(400, `The local model ${id} is not installed; download it on the Models screen.`);
    let info: GgufInfo;
    try {
      info = await checkGguf(found.file);
    } catch (err) {
      if (err instanceof GgufError)
        throw new GatewayError(422, `Failed to load model ${id}: ${err.message}. Delete it on the Models screen and download it again.`);
      throw err;
    }
    const contextSize = Math.max(1024, Math.min(this.opts.contextSize ?? 4096, info.contextLength));
    const need = found.manifest.ramBytes ?? ramNeed(info, contextSize);
    const free = (this.opts.freeMemory ?? availableMemory)();
    if (need > free)
      // A 4xx, not a 503: retrying will not make the memory appear, and clients show a 4xx's message.
      throw new GatewayError(
        422,
        `${found.manifest.name} needs about ${formatBytes(need)} of memory and ${formatBytes(free)} is free now. Close other programs, or choose a smaller model on the Models screen.`,
      );
    this.loaded = { id, path: found.file, contextSize };
    return this.loaded;
  }

  /** Ends the child, and with it the loaded model. */
  private async unload(): Promise<void> {
    await this.child.stop();
    this.loaded = null;
  }

  /** Frees everything now (the engine is closing): an answer being written ends with an error rather than holding the close up. */
  async close(): Promise<void> {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
    await this.unload();
  }

  /** One generation; `onStart` runs once the model is loaded, `onText` for each piece. */
  private generate(req: ChatRequest, signal: AbortSignal | undefined, onStart: () => void, onText: (t: string) => void): Promise<Completion> {
    return this.exclusive(async () => {
      const target = await this.prepareLoad(req.model);
      const { history, prompt } = toHistory(req);
      const schema = req.response_format?.type === 'json_schema' ? req.response_format.json_schema?.schema : undefined;
      this.generating++;
      try {
        return await this.child.run(
          {
            model: req.model,
            path: target.path,
            contextSize: target.contextSize,
            threads: this.threads,
            history,
            prompt,
            allText: req.messages.map((m) => m.content ?? '').join('\n'),
            maxTokens: req.max_tokens,
            temperature: req.temperature ?? 0.7,
            stops: stopList(req),
            ...(schema ? { schema } : {}),
            ...(req.response_format?.type === 'json_object' ? { jsonObject: true } : {}),
          },
          signal,
          onStart,
          onText,
        );
      } catch (err) {
        // A model that failed to load is not loaded.
        if (err instanceof GatewayError && err.status === 422) await this.unload();
        throw err;
      } finally {
        this.generating--;
      }
    }, signal);
  }

  async complete(req: ChatRequest, signal?: AbortSignal): Promise<Completion> {
    return this.generate(
      req,
      signal,
      () => undefined,
      () => undefined,
    );
  }

  async *stream(req: ChatRequest, signal?: AbortSignal): AsyncGenerator<CompletionDelta> {
    const pieces: string[] = [];
    let started = false;
    let wake: (() => void) | null = null;
    const poke = (): void => {
      wake?.();
      wake = null;
    };
    let result: { ok: true; c: Completion } | { ok: false; err: unknown } | null = null;
    void this.generate(
      req,
      signal,
      () => {
        started = true;
        poke();
      },
      (t) => {
        pieces.push(t);
        poke();
      },
    ).then(
      (c) => {
        result = { ok: true, c };
        poke();
      },
      (err: unknown) => {
        result = { ok: false, err };
        poke();
      },
    );
    for (;;) {
      if (!started && !result) await new Promise<void>((r) => (wake = r));
      else break;
    }
    const r0 = result as { ok: boolean; err?: unknown } | null;
    if (r0 && !r0.ok) throw r0.err;
    yield { role: 'assistant', content: '' };
    for (;;) {
      if (pieces.length) {
        yield { content: pieces.splice(0).join('') };
        continue;
      }
      const r = result as { ok: true; c: Completion } | { ok: false; err: unknown } | null;
      if (r) {
        if (!r.ok) throw r.err;
        yield { finish_reason: r.c.finish_reason };
        return;
      }
      await new Promise<void>((res) => (wake = res));
    }
  }
}

/** The request's stop sequences (a string or up to four), whatever field shape the gateway passes them in. */
function stopList(req: ChatRequest): string[] {
  const s = (req as { stop?: unknown }).stop;
  const list = typeof s === 'string' ? [s] : Array.isArray(s) ? s : [];
  return list.filter((x): x is string => typeof x === 'string' && x.length > 0).slice(0, 16);
}

/** The chat history before the last user message, and that message (the prompt). */
export function toHistory(req: ChatRequest): { history: ChatHistoryItem[]; prompt: string } {
  const msgs = req.messages;
  let last = -1;
  for (let i = msgs.length - 1; i >= 0; i--)
    if (msgs[i]?.role === 'user') {
      last = i;
      break;
    }
  const history: ChatHistoryItem[] = [];
  for (const m of last >= 0 ? msgs.slice(0, last) : msgs) {
    const text = m.content ?? '';
    if (m.role === 'system' || m.role === 'developer') history.push({ type: 'system', text });
    else if (m.role === 'assistant') history.push({ type: 'model', response: [text] });
    else history.push({ type: 'user', text });
  }
  return { history, prompt: last >= 0 ? (msgs[last]?.content ?? '') : '' };
}

/** Text cut at sentence ends into pieces of at most `max` characters (a longer sentence is cut at a space, or where it must). */
export function chunkText(text: string, max: number): string[] {
  const sentences = text.match(/[^.!?]+[.!?]*\s*/g) ?? [text];
  const out: string[] = [];
  let cur = '';
  const flush = (): void => {
    if (cur.trim()) out.push(cur.trim());
    cur = '';
  };
  for (let s of sentences) {
    while (s.length > max) {
      flush();
      let cut = s.lastIndexOf(' ', max);
      if (cut <= 0) cut = max;
      out.push(s.slice(0, cut).trim());
      s = s.slice(cut).trimStart();
    }
    if (cur.length + s.length > max) flush();
    cur += s;
  }
  flush();
  return out.length ? out : [''];
}

/** The JSON schema a speaker-identification answer follows: each label to a name or role. */
export function speakerSchema(labels: string[]): NonNullable<ChatRequest['response_format']> {
  const properties = Object.fromEntries(labels.map((l) => [l, { type: 'string' }]));
  return { type: 'json_schema', json_schema: { name: 'speakers', schema: { type: 'object', properties, required: labels, additionalProperties: false } } };
}
