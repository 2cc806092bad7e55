/**
 * The summary at Stop of a 60-minute live session: final turns (one every
 * 4 s, 900 in all) are handed to the live summary as captions would hand
 * them, played fast; each closed 10-minute window is read in the background
 * as the session goes. Printed: the time from Stop to the finished summary
 * (goal ≤ 5 s with the tiny model), the model calls left for Stop, the
 * background time per window, and for comparison the time the same summary
 * takes read whole at Stop (map-reduce over the hour, no windows before).
 * By default the tiny generated llama of tests/fixtures/models/gguf.ts runs
 * in the engine's gateway; `--model FILE` runs a real GGUF (`--context N`,
 * default 8192, the context it is given).
 *   npm run bench -- summarise [--model FILE.gguf] [--context N]
 */
import { mkdirSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { installTinyGguf } from '../tests/fixtures/models/gguf';
import { GatewayClient } from '../src/main/services/client/gateway';
import { LiveSummary } from '../src/main/services/captions/live-summary';
import type { MissedModel } from '../src/main/services/captions/missed';
import { partBudget, planSummary } from '../src/main/services/chat/summarise';
import type { LiveTurn } from '../src/shared/captions';
import { figure } from './_figure';
import { benchEngine, fmt, KEY } from './_engine-support';

const { values } = parseArgs({ options: { model: { type: 'string' }, context: { type: 'string' } } });
const MINUTES = 60;
const TOPICS = [
  'the budget',
  'the launch date',
  'hiring',
  'the supplier contract',
  'the marketing plan',
  'customer feedback',
  'the office move',
  'the roadmap',
];
const PEOPLE = ['Alice', 'Bob', 'Carol', 'Dan', 'Erin'];

function turns(): LiveTurn[] {
  return Array.from({ length: (MINUTES * 60) / 4 }, (_, i) => {
    const who = PEOPLE[i % PEOPLE.length] as string;
    const topic = TOPICS[Math.floor(i / 40) % TOPICS.length] as string;
    return {
      run: 1,
      source: 'mic' as const,
      key: `t${i}`,
      text: `${who} said that ${topic} needs ${(i % 7) + 2} more days and asked for a decision by item ${i}.`,
      words: [],
      final: true,
      startMs: i * 4000,
      endMs: i * 4000 + 3500,
      receivedAt: 0,
      capturedAt: null,
    };
  });
}

function clock(ms: number): string {
  const sec = Math.floor(ms / 1000);
  return `${String(Math.floor(sec / 60)).padStart(2, '0')}:${String(sec % 60).padStart(2, '0')}`;
}

async function main(): Promise<void> {
  const { engine, dir } = await benchEngine({ workers: 1 });
  const modelsDir = join(dir, 'data', 'models');
  const id = 'bench-summariser';
  const contextLength = values.model ? Number(values.context ?? 8192) : 4096;
  if (values.model) {
    const file = resolve(values.model);
    mkdirSync(join(modelsDir, id), { recursive: true });
    symlinkSync(file, join(modelsDir, id, basename(file)));
    writeFileSync(
      join(modelsDir, id, 'verbatim-model.json'),
      JSON.stringify({
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
        contextLength,
        ramBytes: null,
      }),
    );
  } else {
    // The session's words are whole tokens, so its text takes about as many tokens a character as a real model's.
    const vocabulary = new Set(turns().flatMap((t) => [...t.text.split(' '), `[${clock(t.startMs)}]`]));
    installTinyGguf(modelsDir, id, { words: ['-', 'The', 'budget', 'needs', '3', 'more', 'days', '[00:04]', '.'], vocabulary: [...vocabulary] });
  }
  const gateway = new GatewayClient(engine.url, KEY);
  for (const end = Date.now() + 120_000; !(await gateway.models()).some((m) => m.id === id);) {
    if (Date.now() > end) throw new Error('the engine did not list the model');
    await new Promise((r) => setTimeout(r, 200));
  }
  let calls = 0;
  const model: MissedModel = {
    model: id,
    generative: true,
    contextLength,
    stream: (messages, onDelta, signal) => {
      calls++;
      return gateway.chatStream({ model: id, messages, max_tokens: values.model ? 400 : 60, temperature: 0 }, onDelta, signal);
    },
  };
  // A first answer loads the model, as the first window of a real session would.
  await model.stream([{ role: 'user', content: 'Hello.' }], () => undefined, new AbortController().signal);

  const all = turns();
  const live = new LiveSummary({ model: async () => model, template: () => null, update: () => undefined });
  live.started({ run: 1, recordingId: 'bench', title: 'Bench session', startedAt: new Date().toISOString() });
  const t0 = performance.now();
  for (const t of all) live.turn(t);
  await live.idle();
  const background = performance.now() - t0;
  const windows = live.windowsDone;
  calls = 0;
  const s0 = performance.now();
  const summary = await live.ended(MINUTES * 60_000);
  const stopMs = performance.now() - s0;
  const stopCalls = calls;
  if (summary?.status !== 'done') throw new Error(`no summary: ${summary?.error ?? 'none'}`);

  // For comparison: the hour read whole at Stop (the summariser's map-reduce, no windows before).
  calls = 0;
  const w0 = performance.now();
  const plan = await planSummary(
    { sources: [{ recordingId: 'session', label: '' }], lines: all.map((t) => ({ recordingId: 'session', startMs: t.startMs, text: t.text })), bare: true },
    'Summarise this conversation as short Markdown bullet points.',
    partBudget(contextLength, 800),
    { signal: new AbortController().signal, progress: () => undefined, complete: (m, sig) => model.stream(m, () => undefined, sig) },
  );
  await model.stream(plan.messages, () => undefined, new AbortController().signal);
  const wholeMs = performance.now() - w0;

  console.log(`model: ${values.model ? basename(values.model) : 'tiny generated llama'} (context ${contextLength} tokens)`);
  console.log(`session: ${MINUTES} min, ${all.length} final turns, ${all.reduce((a, t) => a + t.text.length, 0)} characters`);
  console.log(
    `background: ${windows} closed 10-minute windows read in ${fmt(background / 1000)} s (${fmt(background / Math.max(1, windows) / 1000)} s a window)`,
  );
  console.log(`Stop → summary: ${fmt(stopMs / 1000)} s (${stopCalls} model calls: the last window and the merge; goal ≤ 5 s with the tiny model)`);
  console.log(`the same hour read whole at Stop: ${fmt(wholeMs / 1000)} s (${calls} model calls, ${plan.parts} parts)`);
  const tag = values.model ? basename(values.model) : 'tiny';
  figure(`Stop to summary, 60-minute session (${tag})`, stopMs, 'ms');
  figure(`background per 10-minute window (${tag})`, background / Math.max(1, windows), 'ms');
  figure(`the hour read whole at Stop (${tag})`, wholeMs, 'ms');
  console.log(`summary: ${summary.content.split('\n').length} lines, ${summary.citations.length} citations, ${summary.unsupported ?? 0} marked not found`);
  live.dispose();
  await engine.close();
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
