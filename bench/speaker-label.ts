/**
 * Live speaker labels' cost: the time to label a finished live turn (its voiceprint in the voiceprints child,
 * then the online clustering; goal ≤ 50 ms on 2 cores with the generated models), printed beside the
 * turn's end-of-turn time over /v3/ws with and without speaker_labels, and the time to match one voiceprint
 * against 1,000 known voices (goal ≤ 5 ms). The tiny generated embedding model of
 * tests/fixtures/models/speakers.ts by default; `--model DIR` takes a models folder with a real one.
 *   npm run bench -- speaker-label [--model DIR] [--runs N]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import WebSocket from 'ws';
import { ModelsFolder } from '../src/engine/models/folder';
import { liveVoiceprints } from '../src/engine/recognizer/speakers';
import { startEngine } from '../src/engine/server';
import { TurnVoices } from '../src/engine/streaming/turn-voices';
import { bestMatch, unit } from '../src/shared/voices/cluster';
import { installModel, MARKS, markedConversation, tinyEmbedding, type Turn } from '../tests/fixtures/models/speakers';
import { figure } from './_figure';

const RATE = 16000;
const { values } = parseArgs({ options: { model: { type: 'string' }, runs: { type: 'string', default: '40' } } });
const runs = Number(values.runs);

const pct = (xs: number[], p: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? NaN;
};
const ms = (n: number): string => `${n.toFixed(1)} ms`;

/** Streams `pcm` at real time over /v3/ws and answers, per finished turn, the time from the end of its speech in the audio to its end_of_turn message. */
async function endOfTurnTimes(url: string, key: string, pcm: Int16Array, turns: Turn[], labels: boolean): Promise<{ ms: number[]; labels: string[] }> {
  const ws = new WebSocket(`${url.replace(/^http/, 'ws')}/v3/ws?sample_rate=16000${labels ? '&speaker_labels=true' : ''}`, { headers: { Authorization: key } });
  const got: { at: number; words: { end: number }[]; label?: string }[] = [];
  ws.on('message', (d) => {
    const m = JSON.parse(d.toString()) as { type: string; end_of_turn?: boolean; words?: { end: number }[]; speaker_label?: string };
    if (m.type === 'Turn' && m.end_of_turn && m.words?.length) got.push({ at: performance.now(), words: m.words, label: m.speaker_label });
  });
  const closed = new Promise<void>((r) => ws.on('close', () => r()));
  await new Promise((r) => ws.once('open', r));
  const all = new Int16Array(Math.ceil(pcm.length / 800) * 800);
  all.set(pcm);
  const start = performance.now();
  for (let i = 0, n = 0; i < all.length; i += 800, n++) {
    ws.send(Buffer.from(all.buffer, i * 2, 1600));
    const due = start + (n + 1) * 50 - performance.now();
    if (due > 0) await new Promise((r) => setTimeout(r, due));
  }
  ws.send(JSON.stringify({ type: 'Terminate' }));
  await closed;
  // The audio time each turn's speech ended (the fixture's own turn times), when that audio had been sent.
  const times = got.map((g) => {
    const last = g.words[g.words.length - 1]?.end ?? 0;
    const turn = turns.find((t) => last >= t.start - 300 && last <= t.end + 300);
    return g.at - (start + (turn ? turn.end : last));
  });
  return { ms: times, labels: got.map((g) => g.label ?? '-') };
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'speaker-label-bench-'));
  const modelsDir = values.model ? resolve(values.model) : join(dir, 'models');
  if (!values.model) installModel(modelsDir, 'tiny-embedding', 'embedding', tinyEmbedding({ hz: MARKS }));
  const talk = markedConversation(
    join(dir, 'talk'),
    [
      { voice: 'A', text: 'Good morning and welcome to the weekly planning meeting.' },
      { voice: 'B', text: 'Thank you it is good to be back after the long holiday.' },
      { voice: 'A', text: 'Let us start with the budget for the next quarter.' },
      { voice: 'B', text: 'The numbers look better than we expected last month.' },
    ],
    { gapMs: 2000, markAmplitude: values.model ? 0 : 1000 },
  );
  const prints = liveVoiceprints(new ModelsFolder(modelsDir));
  try {
    console.log(`models: ${values.model ? modelsDir : 'tiny generated (tests/fixtures/models/speakers.ts)'}`);
    const model = await prints.model();
    if ('missing' in model) throw new Error(model.missing);
    // 1. Labelling one finished turn, warm: its voiceprint in the child, then the clustering.
    const turn = talk.turns[0] as Turn;
    const from = Math.round((turn.start * RATE) / 1000);
    const to = Math.round((turn.end * RATE) / 1000);
    const voices = new TurnVoices((parts) => prints.embed(model, parts), null);
    const first = performance.now();
    voices.hear(talk.pcm.subarray(from, to), from);
    await voices.label(from, to);
    const firstMs = performance.now() - first;
    figure('first label (worker start, model load)', firstMs, 'ms');
    console.log(`first label (worker start and model load): ${ms(firstMs)}`);
    const label: number[] = [];
    for (let i = 0; i < runs; i++) {
      const t0 = performance.now();
      voices.hear(talk.pcm.subarray(from, to), from);
      await voices.label(from, to);
      label.push(performance.now() - t0);
    }
    const seconds = ((to - from) / RATE).toFixed(1);
    figure('label a finished turn, p50', pct(label, 50), 'ms');
    figure('label a finished turn, p95', pct(label, 95), 'ms');
    console.log(`label a finished turn (${seconds} s of speech), ${runs} runs: p50 ${ms(pct(label, 50))}, p95 ${ms(pct(label, 95))} (goal ≤ 50 ms)`);

    // 2. Beside the end-of-turn time over /v3/ws: the same audio with and without speaker_labels.
    const key = 'bench-key';
    const engine = await startEngine({ host: '127.0.0.1', port: 0, apiKey: key, dataDir: join(dir, 'data'), quiet: true, modelsDir });
    try {
      // One labelled turn first: warms the decoder, the speech detector and the engine's voiceprints child.
      await endOfTurnTimes(engine.url, key, talk.pcm.subarray(0, 5 * RATE), talk.turns, true);
      const plain = await endOfTurnTimes(engine.url, key, talk.pcm, talk.turns, false);
      const labelled = await endOfTurnTimes(engine.url, key, talk.pcm, talk.turns, true);
      figure('end of turn without labels, p50', pct(plain.ms, 50), 'ms');
      figure('end of turn without labels, max', Math.max(...plain.ms), 'ms');
      figure('end of turn with labels, p50', pct(labelled.ms, 50), 'ms');
      figure('end of turn with labels, max', Math.max(...labelled.ms), 'ms');
      console.log(
        `end of turn (speech end → end_of_turn message), ${plain.ms.length} turns: without labels p50 ${ms(pct(plain.ms, 50))}, max ${ms(Math.max(...plain.ms))}`,
      );
      console.log(
        `end of turn with speaker_labels, ${labelled.ms.length} turns: p50 ${ms(pct(labelled.ms, 50))}, max ${ms(Math.max(...labelled.ms))}; labels ${labelled.labels.join(' ')}`,
      );
      console.log(`per turn: without ${plain.ms.map((x) => x.toFixed(0)).join(', ')} ms; with ${labelled.ms.map((x) => x.toFixed(0)).join(', ')} ms`);
      console.log(
        `added by labels at p50: ${ms(pct(labelled.ms, 50) - pct(plain.ms, 50))} (${((pct(labelled.ms, 50) / pct(plain.ms, 50) - 1) * 100).toFixed(1)}% of the end-of-turn time)`,
      );
    } finally {
      await engine.close();
    }

    // 3. Matching one voiceprint against 1,000 remembered voices (unit vectors, as stored).
    for (const dim of [192, 512]) {
      let seed = 7;
      const rnd = (): number => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31) * 2 - 1;
      const known = Array.from({ length: 1000 }, (_, i) => ({ id: `v${i}`, vector: unit(Float32Array.from({ length: dim }, rnd)) }));
      const probe = Float32Array.from({ length: dim }, rnd);
      for (let i = 0; i < 20; i++) bestMatch(probe, known);
      const times: number[] = [];
      for (let i = 0; i < 200; i++) {
        const t0 = performance.now();
        bestMatch(probe, known);
        times.push(performance.now() - t0);
      }
      figure(`match against 1,000 voices (${dim}-dim), p50`, pct(times, 50), 'ms');
      figure(`match against 1,000 voices (${dim}-dim), p95`, pct(times, 95), 'ms');
      console.log(`match against 1,000 known voices (${dim}-dim): p50 ${ms(pct(times, 50))}, p95 ${ms(pct(times, 95))} (goal ≤ 5 ms)`);
    }
  } finally {
    prints.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
