/**
 * The child process that runs local GGUF models with node-llama-cpp (forked
 * by llama-host.ts): it loads one model at a time on the prebuilt CPU binary
 * and writes one answer at a time, streaming its text back over the IPC
 * channel. Killing it returns all of the model's memory to the system, and
 * a crash in llama.cpp costs the engine one clear error, never the process.
 */
import type * as NodeLlamaModule from 'node-llama-cpp';
import type { ChatHistoryItem, Llama, LlamaContext, LlamaContextSequence, LlamaGrammar, LlamaModel } from 'node-llama-cpp';
import type { ChildToHost, GenerateJob, HostToChild } from './llama-protocol';

type Lib = typeof NodeLlamaModule;

let lib: Lib | null = null;
let llama: Llama | null = null;
let loaded: { path: string; model: LlamaModel; context: LlamaContext; sequence: LlamaContextSequence; contextSize: number } | null = null;
const logs: string[] = [];
const aborts = new Map<number, AbortController>();
let chain: Promise<void> = Promise.resolve();

function send(m: ChildToHost): void {
  process.send?.(m);
}

class JobError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

async function getLlama(threads: number): Promise<Llama> {
  if (llama) return llama;
  const started = performance.now();
  lib ??= await import('node-llama-cpp');
  const l = lib;
  llama = await l.getLlama({
    gpu: false,
    build: 'never',
    skipDownload: true,
    usePrebuiltBinaries: true,
    progressLogs: false,
    maxThreads: threads,
    logLevel: l.LlamaLogLevel.warn,
    logger: (_level, message) => {
      const line = message.trim();
      if (!line) return;
      logs.push(line);
      if (logs.length > 40) logs.shift();
    },
  });
  send({ t: 'binary', ms: performance.now() - started });
  return llama;
}

async function load(job: GenerateJob): Promise<NonNullable<typeof loaded>> {
  if (loaded?.path === job.path) return loaded;
  if (loaded) {
    await loaded.context.dispose();
    await loaded.model.dispose();
    loaded = null;
  }
  const l = await getLlama(job.threads);
  logs.length = 0;
  const started = performance.now();
  let model: LlamaModel;
  try {
    model = await l.loadModel({ modelPath: job.path, gpuLayers: 0 });
  } catch (err) {
    throw new JobError(422, `Failed to load model ${job.model}: ${logs.slice(-3).join(' ') || (err instanceof Error ? err.message : String(err))}`);
  }
  try {
    const context = await model.createContext({ contextSize: job.contextSize, threads: job.threads, sequences: 1 });
    loaded = { path: job.path, model, context, sequence: context.getSequence(), contextSize: job.contextSize };
  } catch (err) {
    await model.dispose();
    throw new JobError(422, `The model ${job.model} loaded but its context could not be made: ${logs.slice(-2).join(' ') || String(err)}`);
  }
  send({ t: 'loaded', ms: performance.now() - started });
  return loaded;
}

async function generate(job: GenerateJob, signal: AbortSignal): Promise<void> {
  const l = await load(job);
  const promptTokens = l.model.tokenize(job.allText).length;
  // llama.cpp cannot shorten a system message or prompt that alone overflows the context: say so with the sizes.
  if (promptTokens + 64 > l.contextSize)
    throw new JobError(
      400,
      `The messages are about ${promptTokens} tokens, more than ${job.model}'s context of ${l.contextSize} tokens holds with room to answer. Send less text (fewer or shorter passages, a shorter conversation).`,
    );
  let grammar: LlamaGrammar | undefined;
  try {
    if (job.schema) grammar = await (llama as Llama).createGrammarForJsonSchema(job.schema as never);
    else if (job.jsonObject) grammar = await (llama as Llama).getGrammarFor('json');
  } catch (err) {
    throw new JobError(
      400,
      `response_format.json_schema cannot be turned into a grammar for the local model: ${err instanceof Error ? err.message : String(err)}`,
    );
  }
  const session = new (lib as Lib).LlamaChatSession({ contextSequence: l.sequence, autoDisposeSequence: false });
  send({ t: 'start', id: job.id });
  try {
    session.setChatHistory(job.history as ChatHistoryItem[]);
    const before = l.sequence.tokenMeter.usedInputTokens;
    let completion = 0;
    const out = await session
      .promptWithMeta(job.prompt, {
        maxTokens: job.maxTokens,
        temperature: job.temperature,
        customStopTriggers: job.stops.length ? job.stops : undefined,
        grammar,
        signal,
        stopOnAbortSignal: true,
        onTextChunk: (s) => send({ t: 'text', id: job.id, s }),
        onToken: (tokens) => void (completion += tokens.length),
      })
      .catch((err: unknown) => {
        const msg = err instanceof Error ? err.message : String(err);
        if (/context/i.test(msg)) throw new JobError(400, `${job.model} cannot fit these messages in its context of ${l.contextSize} tokens: ${msg}`);
        throw err;
      });
    send({
      t: 'done',
      id: job.id,
      content: out.responseText,
      finish: out.stopReason === 'maxTokens' ? 'length' : 'stop',
      promptTokens: Math.max(1, l.sequence.tokenMeter.usedInputTokens - before),
      completionTokens: completion,
    });
  } finally {
    session.dispose({ disposeSequence: false });
  }
}

process.on('message', (raw: unknown) => {
  const m = raw as HostToChild;
  if (m.t === 'abort') {
    aborts.get(m.id)?.abort();
    return;
  }
  if (m.t !== 'generate') return;
  const ac = new AbortController();
  aborts.set(m.job.id, ac);
  // One generation at a time (the host queues too; this keeps a late abort's successor waiting its turn).
  chain = chain.then(async () => {
    try {
      await generate(m.job, ac.signal);
    } catch (err) {
      send({ t: 'error', id: m.job.id, status: err instanceof JobError ? err.status : 500, message: err instanceof Error ? err.message : String(err) });
    } finally {
      aborts.delete(m.job.id);
    }
  });
});

// The engine went away: nothing left to answer.
process.on('disconnect', () => process.exit(0));
send({ t: 'ready' });
