/**
 * The gateway's request bounds (issue 12.10), measured in the engine's own
 * process: the longest event-loop stall while the offline extractive model
 * answers a body just under the 2 MB limit and a 50,000-sentence transcript,
 * the RSS growth of six such requests at once, and how fast a 30 MB body is
 * refused. (Before the limit: 1.7 s stall for a 30 MB body, 1.4 GB RSS for six.)
 *   npx tsx bench/engine-chat-limits.ts
 */
import { rmSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { extractiveAnswer, extractiveAnswerYielding, MAX_PASSAGES } from '../src/engine/gateway/extractive';
import type { ChatRequest } from '../src/engine/gateway/provider';
import type { TranscriptParams, TranscriptResult } from '../src/engine/store';
import { GATEWAY_BODY_LIMIT } from '../src/engine/routes/gateway';
import { benchEngine, fmt, KEY } from './_engine-support';
import { figure } from './_figure';

const rss = () => process.memoryUsage().rss / 1024 / 1024;

async function main(): Promise<void> {
  const { engine, dir } = await benchEngine({ workers: 1 });
  const id = 'b0000000-0000-4000-8000-00000000beef';
  const sentences = Array.from({ length: MAX_PASSAGES }, (_, i) => `Sentence ${i} about the quarterly budget and the harbour schedule.`);
  engine.ctx.store.insertTranscript(id, { audio_url: 'http://example.invalid/a.wav' } as unknown as TranscriptParams, null);
  engine.ctx.store.complete(
    id,
    {
      text: sentences.join(' '),
      words: [],
      sentences: sentences.map((text, i) => ({ text, start: i * 2000, end: i * 2000 + 1900, confidence: 0.9, words: [], speaker: null, channel: null })),
      confidence: 0.9,
      audio_duration: 1,
      speech_model_used: 'universal-2',
      warnings: [],
    } as unknown as TranscriptResult,
    null,
  );

  const pasted = JSON.stringify({
    model: 'verbatim-extractive',
    messages: [
      {
        role: 'user',
        content: `${'Nothing happened at the harbour that day. '.repeat(Math.floor((GATEWAY_BODY_LIMIT - 2048) / 42))} When was the harbour busy?`,
      },
    ],
  });
  const named = JSON.stringify({ model: 'verbatim-extractive', transcript_id: id, messages: [{ role: 'user', content: 'What about the harbour schedule?' }] });
  const post = (body: string) =>
    fetch(`${engine.url}/v1/chat/completions`, { method: 'POST', headers: { authorization: KEY, 'content-type': 'application/json' }, body }).then(
      async (r) => ({ status: r.status, text: await r.text() }),
    );

  const stall = async (short: string, label: string, body: string) => {
    await post(body); // warm
    const h = monitorEventLoopDelay({ resolution: 5 });
    h.enable();
    const t0 = performance.now();
    const r = await post(body);
    const ms = performance.now() - t0;
    h.disable();
    figure(`${short}: answer`, ms, 'ms');
    figure(`${short}: longest stall`, h.max / 1e6, 'ms');
    console.log(
      `${label}: HTTP ${r.status} in ${fmt(ms, 0)} ms; longest event-loop stall ${fmt(h.max / 1e6, 0)} ms (p99 ${fmt(h.percentile(99) / 1e6, 0)} ms)`,
    );
  };
  await stall('pasted text', `pasted text, ${fmt(Buffer.byteLength(pasted) / 1024 / 1024, 2)} MB body`, pasted);
  await stall('transcript_id', `transcript_id of ${MAX_PASSAGES.toLocaleString('en-US')} sentences`, named);

  // The same scoring all at once (as before) and in slices, on the same request: the stall each causes.
  const chatReq = {
    model: 'verbatim-extractive',
    messages: (JSON.parse(pasted) as { messages: ChatRequest['messages'] }).messages,
    max_tokens: 100,
    stop: [],
    transcripts: [],
  } as ChatRequest;
  const measure = async (fn: () => unknown) => {
    const h = monitorEventLoopDelay({ resolution: 5 });
    h.enable();
    await new Promise((r) => setTimeout(r, 20));
    await fn();
    await new Promise((r) => setTimeout(r, 20));
    h.disable();
    return h.max / 1e6;
  };
  const whole = await measure(() => extractiveAnswer(chatReq));
  const sliced = await measure(() => extractiveAnswerYielding(chatReq));
  figure('extractive scoring in slices: longest stall', sliced, 'ms');
  console.log(
    `extractive scoring of the pasted text: longest stall ${fmt(whole, 0)} ms all at once, ${fmt(sliced, 0)} ms in slices (${fmt(whole / Math.max(1, sliced), 1)}× shorter)`,
  );

  global.gc?.();
  const before = rss();
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, rss())), 20);
  const six = await Promise.all(Array.from({ length: 6 }, () => post(pasted)));
  clearInterval(sampler);
  await new Promise((r) => setTimeout(r, 2000));
  figure('six near-limit requests: RSS growth at peak', peak - before, 'MiB');
  console.log(
    `six near-limit requests at once: all HTTP ${[...new Set(six.map((r) => r.status))].join('/')}; RSS ${fmt(before, 0)} MiB before, peak ${fmt(peak, 0)} MiB (+${fmt(peak - before, 0)}), ${fmt(rss(), 0)} MiB 2 s after`,
  );

  const huge = 'x'.repeat(30 * 1024 * 1024);
  const t0 = performance.now();
  const r = await post(JSON.stringify({ model: 'verbatim-extractive', messages: [{ role: 'user', content: huge }] }));
  const refused = performance.now() - t0;
  figure('30 MB body refused', refused, 'ms');
  console.log(`30 MB body: HTTP ${r.status} in ${fmt(refused, 0)} ms (limit ${GATEWAY_BODY_LIMIT / 1024 / 1024} MB)`);

  await engine.close();
  rmSync(dir, { recursive: true, force: true });
}

void main();
