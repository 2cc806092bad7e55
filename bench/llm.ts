/**
 * Local GGUF chat models in the engine's gateway: load time, first token,
 * tokens per second, the longest event-loop stall while generating, and the
 * engine's RSS idle, loaded (with the model's child process) and after the model is freed (target: back
 * within 40 MiB of idle). By default it runs the tiny generated llama of
 * tests/fixtures/models/gguf.ts; `--model FILE` runs a real GGUF instead
 * (targets for a 1.5 B Q4 model on a 4-core laptop: first token ≤ 1 s,
 * ≥ 10 tokens/s).
 *   npx tsx bench/llm.ts [--model FILE.gguf] [--threads N]
 */
import { mkdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { installTinyGguf } from '../tests/fixtures/models/gguf';
import { releaseMemory } from '../src/engine/memory';
import { benchEngine, fmt, KEY } from './_engine-support';
import { figure } from './_figure';

const MiB = 1024 * 1024;
const rss = () => process.memoryUsage().rss / MiB;
/** A process's resident memory from /proc (the local-model child's), 0 when it is not running. */
function childRss(pid: number | undefined): number {
  if (!pid) return 0;
  try {
    const m = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : 0;
  } catch {
    return 0;
  }
}

const { values } = parseArgs({ options: { model: { type: 'string' }, threads: { type: 'string' } } });

const TEXT =
  'Alice opened the meeting at nine. The team reviewed the quarterly report, which is due on Friday. Bob said the budget ' +
  'for the new warehouse is four million dollars and construction starts in spring once the permits arrive. Carol will ' +
  'email the suppliers about delivery dates, and Dan will book the venue for the launch. They agreed to meet again next Tuesday.';

async function main(): Promise<void> {
  const idleMs = 800;
  const threads = values.threads ? Number(values.threads) : undefined;
  const { engine, dir } = await benchEngine({ workers: 1, gateway: { local: { idleMs, threads } } });
  const modelsDir = join(dir, 'models');
  const id = 'bench-model';
  if (values.model) {
    const file = resolve(values.model);
    mkdirSync(join(modelsDir, id), { recursive: true });
    symlinkSync(file, join(modelsDir, id, basename(file)));
    const manifest = {
      id,
      name: basename(file),
      task: 'chat',
      family: 'gguf',
      languages: ['en'],
      files: { model: basename(file) },
      wordTimings: 'none',
      sha256: null,
      bytes: statSync(file).size,
      installedAt: new Date().toISOString(),
      contextLength: 4096,
      ramBytes: null,
    };
    writeFileSync(join(modelsDir, id, 'verbatim-model.json'), JSON.stringify(manifest));
  } else installTinyGguf(modelsDir, id, { loop: true });
  // The engine's models folder is <data>/models unless told otherwise.
  const dataModels = join(dir, 'data', 'models');
  if (dataModels !== modelsDir) {
    rmSync(dataModels, { recursive: true, force: true });
    symlinkSync(modelsDir, dataModels);
  }

  releaseMemory();
  await new Promise((r) => setTimeout(r, 200));
  const idle = rss();
  const local = engine.ctx.gateway.local;
  const maxTokens = values.model ? 128 : 512;
  const body = (stream: boolean) =>
    JSON.stringify({
      model: id,
      stream,
      max_tokens: maxTokens,
      temperature: 0,
      messages: [
        { role: 'system', content: 'You summarise meeting transcripts in a few sentences.' },
        { role: 'user', content: `Summarise this meeting:\n\n${TEXT}` },
      ],
    });
  const post = (stream: boolean) =>
    fetch(`${engine.url}/v1/chat/completions`, { method: 'POST', headers: { authorization: KEY, 'content-type': 'application/json' }, body: body(stream) });

  /** A streamed answer: ms to the first piece of text, and the whole time. */
  const streamed = async (): Promise<{ first: number; total: number }> => {
    const t0 = performance.now();
    const res = await post(true);
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    const dec = new TextDecoder();
    let first = 0;
    let buf = '';
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buf += dec.decode(value, { stream: true });
      if (!first && /"content":"[^"]/.test(buf)) first = performance.now() - t0;
    }
    return { first, total: performance.now() - t0 };
  };

  // 1. Cold: the llama.cpp binary, the model's load, the first token.
  const cold = await streamed();
  const binaryMs = local.events.find((e) => e.type === 'binary')?.ms ?? 0;
  const loadMs = local.events.find((e) => e.type === 'load')?.ms ?? 0;
  const loaded = rss();
  const loadedChild = childRss(local.childPid);

  // 2. Warm: first token again, then a whole answer for tokens per second, watching the event loop.
  const warm = await streamed();
  const loop = monitorEventLoopDelay({ resolution: 5 });
  loop.enable();
  const t1 = performance.now();
  const whole = (await (await post(false)).json()) as { usage: { completion_tokens: number } };
  const wall = performance.now() - t1;
  loop.disable();
  const tokens = whole.usage.completion_tokens;
  const genMs = Math.max(1, wall - warm.first);

  // 3. Freed after the idle time.
  const end = Date.now() + idleMs + 30_000;
  while (!local.events.some((e) => e.type === 'unload') && Date.now() < end) await new Promise((r) => setTimeout(r, 50));
  releaseMemory();
  await new Promise((r) => setTimeout(r, 300));
  const freed = rss() + childRss(local.childPid);

  // 4. A second load, answer and unload: what stays after the first is paid once, not per use.
  await streamed();
  const end2 = Date.now() + idleMs + 30_000;
  while (local.events.filter((e) => e.type === 'unload').length < 2 && Date.now() < end2) await new Promise((r) => setTimeout(r, 50));
  releaseMemory();
  await new Promise((r) => setTimeout(r, 300));
  const freed2 = rss() + childRss(local.childPid);

  const real = Boolean(values.model);
  const what = real ? basename(values.model as string) : 'tiny generated llama (1 layer, 64 wide, F32)';
  figure('cold first token', cold.first, 'ms');
  figure('warm first token', warm.first, 'ms');
  figure('tokens/s, warm', tokens / (genMs / 1000), 'tokens/s', 'higher');
  figure('longest event-loop stall while generating', loop.max / 1e6, 'ms');
  figure('RSS loaded (engine + model process)', loaded + loadedChild, 'MiB');
  // Whole RSS, not the growth: a growth near 0 makes a ratio of noise.
  figure('RSS after the idle unload', freed, 'MiB');
  figure('RSS after a second load and unload', freed2, 'MiB');
  console.log(`model: ${what}; threads: ${threads ?? 'default (cores - 1)'}`);
  console.log(
    `cold first token: ${fmt(cold.first, 0)} ms (the model process starts and loads the llama.cpp binary: ${fmt(binaryMs, 0)} ms for the binary, again after each idle unload; model load ${fmt(loadMs, 0)} ms)`,
  );
  console.log(`warm first token: ${fmt(warm.first, 0)} ms${real ? '   target ≤ 1000 ms for a 1.5 B Q4 on a 4-core laptop' : ''}`);
  console.log(
    `tokens/s, warm: ${fmt(tokens / (genMs / 1000), 1)} (${tokens} tokens in ${fmt(genMs, 0)} ms after the first)${real ? '   target ≥ 10 for a 1.5 B Q4 on a 4-core laptop' : ''}`,
  );
  console.log(`longest event-loop stall while generating: ${fmt(loop.max / 1e6, 1)} ms`);
  console.log(
    `RSS idle ${fmt(idle, 0)} MiB; loaded: engine ${fmt(loaded, 0)} MiB + model process ${fmt(loadedChild, 0)} MiB; after the idle unload ${fmt(freed, 0)} MiB, ${fmt(freed - idle, 0)} MiB over idle (target ≤ 40)`,
  );
  console.log(`RSS after a second load and unload: ${fmt(freed2, 0)} MiB (${fmt(freed2 - freed, 0)} MiB more than after the first)`);
  await engine.close();
  rmSync(dir, { recursive: true, force: true });
}

await main();
