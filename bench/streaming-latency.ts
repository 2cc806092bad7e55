/**
 * Streaming v3 latency, replaying flite speech at real time through /v3/ws of
 * an engine in its own process: first partial after speech onset (goal p50
 * ≤ 300 ms) and end of speech → final turn (goal p50 ≤ 500 ms, p95 ≤ 700 ms
 * with min_turn_silence 400), for 1 session and for 4 concurrent sessions (no
 * session may starve). Beside the latency, the cut-off rate: sentences spoken
 * with a pause inside them shorter than min_turn_silence (200–350 ms), where a
 * turn that ends in the pause is a split that should not be, and the words of
 * the sentence missing from the final turns are words lost.
 * `npx tsx bench/streaming-latency.ts [sentences=6]`; with `MODELS=DIR SPEECH_MODEL=ID` the sessions use that installed local model
 * (a streaming transducer, or an offline model decoding each turn) instead of PocketSphinx.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import WebSocket from 'ws';
import { normalizeForWer } from '../src/engine/text/wer';
import { figure } from './_figure';

const KEY = 'bench-stream-key';
const MIN_TURN_SILENCE = 400;
/** A local model for the sessions (speech_model=), from the models folder MODELS. */
const MODEL_QUERY = process.env.SPEECH_MODEL ? `&speech_model=${encodeURIComponent(process.env.SPEECH_MODEL)}` : '';
const N = Number(process.argv[2] ?? 6);
const LINES = [
  'The meeting starts at nine in the morning.',
  'Please bring the quarterly numbers with you.',
  'We will review the budget for the new office.',
  'After lunch the team presents the product plan.',
  'Questions can be sent to the project manager.',
  'Thank you all for coming today.',
  'The weather tomorrow looks sunny and warm.',
  'Our customers asked for a faster checkout.',
];

const dir = mkdtempSync(join(tmpdir(), 'verbatim-bench-stream-'));

function clip(text: string, i: number): Int16Array {
  const wav = join(dir, `s${i}.wav`);
  const raw = join(dir, `s${i}.raw`);
  execFileSync('flite', ['-voice', 'slt', '-t', text, '-o', wav]);
  execFileSync('sox', [wav, '-r', '16000', '-c', '1', '-b', '16', '-e', 'signed-integer', '-t', 'raw', raw]);
  const b = readFileSync(raw);
  return new Int16Array(b.buffer.slice(b.byteOffset, b.byteOffset + b.length));
}

/** `pcm` without the silence before and after the speech in it. */
function trimmed(pcm: Int16Array): Int16Array {
  let first = 0;
  let last = pcm.length - 1;
  while (first < pcm.length && Math.abs(pcm[first] as number) < 600) first++;
  while (last > first && Math.abs(pcm[last] as number) < 600) last--;
  return pcm.subarray(Math.max(0, first - 160), Math.min(pcm.length, last + 160));
}

/** Sentences said in two halves with a pause between them shorter than min_turn_silence. */
const PAUSED: [string, string, number][] = [
  ['The meeting starts at nine', 'in the morning.', 200],
  ['Please bring the quarterly numbers', 'with you.', 250],
  ['We will review the budget', 'for the new office.', 300],
  ['After lunch', 'the team presents the product plan.', 350],
  ['Questions can be sent', 'to the project manager.', 300],
  ['Thank you all', 'for coming today.', 250],
];

function buildPaused(): { pcm: Buffer; sentences: { from: number; to: number; text: string }[] } {
  const parts: Int16Array[] = [new Int16Array(8000)];
  const sentences: { from: number; to: number; text: string }[] = [];
  let at = 8000;
  PAUSED.forEach(([a, b, pauseMs], i) => {
    const one = trimmed(clip(a, 100 + i));
    const two = trimmed(clip(b, 200 + i));
    const pause = new Int16Array((pauseMs - 20) * 16); // the halves keep 10 ms each of their own quiet edges
    const len = one.length + pause.length + two.length;
    sentences.push({ from: (at / 16) | 0, to: ((at + len) / 16) | 0, text: `${a} ${b}` });
    parts.push(one, pause, two, new Int16Array(16000 * 1.8));
    at += len + 16000 * 1.8;
  });
  const total = parts.reduce((n, p) => n + p.length, 0);
  const out = new Int16Array(Math.ceil(total / 800) * 800);
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return { pcm: Buffer.from(out.buffer), sentences };
}

/**
 * Sends `pcm` in 50 ms frames at real time once the session has begun, then
 * Terminate, and waits for the close; resolves with the time the first frame went.
 */
async function replay(ws: WebSocket, pcm: Buffer): Promise<number> {
  const closed = new Promise<void>((r) => ws.on('close', () => r()));
  await new Promise<void>((r) => ws.once('message', () => r()));
  const t0 = performance.now();
  for (let i = 0, n = 0; i < pcm.length; i += 1600, n++) {
    ws.send(pcm.subarray(i, i + 1600));
    const due = t0 + (n + 1) * 50 - performance.now();
    if (due > 0) await new Promise((r) => setTimeout(r, due));
  }
  ws.send(JSON.stringify({ type: 'Terminate' }));
  await closed;
  return t0;
}

/** Final turns of a session over paused sentences: splits inside a sentence and the sentence's words missing from its finals. */
async function cutOffs(url: string): Promise<{ splits: number; lost: number; words: number; sentences: number }> {
  const { pcm, sentences } = buildPaused();
  const ws = new WebSocket(`${url}/v3/ws?sample_rate=16000&min_turn_silence=${MIN_TURN_SILENCE}${MODEL_QUERY}`, { headers: { Authorization: KEY } });
  const finals: { start: number; end: number; text: string }[] = [];
  ws.on('message', (d) => {
    const m = JSON.parse(d.toString()) as {
      type: string;
      end_of_turn?: boolean;
      turn_is_formatted?: boolean;
      words?: { start: number; end: number; text: string }[];
    };
    if (m.type === 'Turn' && m.end_of_turn && !m.turn_is_formatted && m.words?.length) {
      finals.push({ start: m.words[0]!.start, end: m.words.at(-1)!.end, text: m.words.map((w) => w.text).join(' ') });
    }
  });
  await replay(ws, pcm);
  let splits = 0;
  let lost = 0;
  let words = 0;
  for (const s of sentences) {
    const mine = finals.filter((f) => f.end > s.from && f.start < s.to);
    splits += Math.max(0, mine.length - 1);
    const heard = new Map<string, number>();
    for (const w of normalizeForWer(mine.map((f) => f.text).join(' '))) heard.set(w, (heard.get(w) ?? 0) + 1);
    for (const w of normalizeForWer(s.text)) {
      words++;
      const n = heard.get(w) ?? 0;
      if (n > 0) heard.set(w, n - 1);
      else lost++;
    }
  }
  return { splits, lost, words, sentences: sentences.length };
}

/** The audio and, per sentence, where speech really starts and ends (ms). */
function buildAudio(): { pcm: Buffer; truth: { onset: number; end: number }[] } {
  const parts: Int16Array[] = [new Int16Array(8000)];
  const truth: { onset: number; end: number }[] = [];
  let at = 8000;
  for (let i = 0; i < N; i++) {
    const c = clip(LINES[i % LINES.length] as string, i);
    let first = 0;
    let last = c.length - 1;
    while (first < c.length && Math.abs(c[first] as number) < 600) first++;
    while (last > 0 && Math.abs(c[last] as number) < 600) last--;
    truth.push({ onset: ((at + first) / 16) | 0, end: ((at + last) / 16) | 0 });
    parts.push(c, new Int16Array(16000 * 1.8));
    at += c.length + 16000 * 1.8;
  }
  const total = parts.reduce((a, p) => a + p.length, 0);
  const padded = Math.ceil(total / 800) * 800;
  const out = new Int16Array(padded);
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return { pcm: Buffer.from(out.buffer), truth };
}

interface Result {
  firstPartial: number[];
  endOfTurn: number[];
  turns: number;
  expected: number;
}

async function session(url: string, pcm: Buffer, truth: { onset: number; end: number }[], delayMs: number): Promise<Result> {
  await new Promise((r) => setTimeout(r, delayMs));
  const ws = new WebSocket(`${url}/v3/ws?sample_rate=16000&min_turn_silence=${MIN_TURN_SILENCE}${MODEL_QUERY}`, { headers: { Authorization: KEY } });
  const got: { at: number; msg: { type: string; turn_order?: number; end_of_turn?: boolean; words?: { start: number; end: number }[] } }[] = [];
  ws.on('message', (d) => got.push({ at: performance.now(), msg: JSON.parse(d.toString()) as (typeof got)[number]['msg'] }));
  const t0 = await replay(ws, pcm);
  // Wall time at which the frame holding audio time `ms` had been sent.
  const sentAt = (ms: number) => t0 + (Math.floor(ms / 50) + 1) * 50;
  const firstPartial: number[] = [];
  const endOfTurn: number[] = [];
  const turnsSeen = new Set<number>();
  const overlaps = (words: { start: number; end: number }[] | undefined, u: { onset: number; end: number }) =>
    (words ?? []).some((w) => w.end > u.onset - 300 && w.start < u.end + 300);
  for (const u of truth) {
    const partial = got.find((g) => g.msg.type === 'Turn' && overlaps(g.msg.words, u));
    const eot = got.find((g) => g.msg.type === 'Turn' && g.msg.end_of_turn && overlaps(g.msg.words, u) && (g.msg.words?.at(-1)?.end ?? 0) >= u.end - 400);
    if (partial) firstPartial.push(partial.at - sentAt(u.onset));
    if (eot) {
      endOfTurn.push(eot.at - sentAt(u.end));
      turnsSeen.add(eot.msg.turn_order ?? -1);
    }
  }
  return { firstPartial, endOfTurn, turns: turnsSeen.size, expected: truth.length };
}

function pct(xs: number[], p: number): number {
  if (!xs.length) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] as number;
}

function line(label: string, xs: number[], goal: number, goal95?: number): string {
  const p50 = pct(xs, 50);
  const p95 = pct(xs, 95);
  const goals = `goal p50 ≤ ${goal} ms: ${p50 <= goal ? 'met' : 'MISSED'}, ratio ${(p50 / goal).toFixed(2)}${
    goal95 === undefined ? '' : `; p95 ≤ ${goal95} ms: ${p95 <= goal95 ? 'met' : 'MISSED'}, ratio ${(p95 / goal95).toFixed(2)}`
  }`;
  return `${label.padEnd(34)} p50 ${p50.toFixed(0).padStart(5)} ms  p95 ${p95.toFixed(0).padStart(5)} ms  max ${Math.max(...xs)
    .toFixed(0)
    .padStart(5)} ms  (${goals})`;
}

/** `line`, with its p50, p95 and max reported as figures named after the group (1 session, 4 sessions). */
function reported(group: string, label: string, xs: number[], goal: number, goal95?: number): string {
  figure(`${group}: ${label}, p50`, pct(xs, 50), 'ms');
  figure(`${group}: ${label}, p95`, pct(xs, 95), 'ms');
  figure(`${group}: ${label}, max`, Math.max(...xs), 'ms');
  return line(label, xs, goal, goal95);
}

const { pcm, truth } = buildAudio();
const engine = spawn(
  process.execPath,
  [
    ...['--import', 'tsx', resolve('src/engine/index.ts'), '--port', '0', '--api-key', KEY, '--data', join(dir, 'data'), '--quiet', '--workers', '1'],
    ...(process.env.MODELS ? ['--models', resolve(process.env.MODELS)] : []),
  ],
  { stdio: ['ignore', 'pipe', 'inherit'] },
);
const url = await new Promise<string>((res, rej) => {
  let out = '';
  engine.stdout.on('data', (d: Buffer) => {
    out += d.toString();
    const m = /listening on (http\S+)/.exec(out);
    if (m) res((m[1] as string).replace(/^http/, 'ws'));
  });
  engine.on('exit', (c) => rej(new Error(`engine exited with ${c}`)));
});

/** CPU seconds used so far by the engine process (all threads), from /proc. */
function engineCpu(): number {
  try {
    const f = readFileSync(`/proc/${engine.pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    return (Number(f[11]) + Number(f[12])) / 100;
  } catch {
    return NaN;
  }
}

const audioSeconds = pcm.length / 32000;
try {
  console.log(
    `machine: ${cpus().length} cores, load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')} (other processes compete for the same cores)`,
  );
  console.log(
    `streaming latency: ${N} flite sentences, ${(pcm.length / 32000).toFixed(1)} s of audio replayed at real time in 50 ms frames, min_turn_silence ${MIN_TURN_SILENCE} ms`,
  );
  // Warm-up: four sessions load four decoders (kept pooled), not counted.
  await Promise.all([0, 1, 2, 3].map(() => session(url, pcm.subarray(0, 32000 * 2), [], 0)));
  let cpu0 = engineCpu();
  const one = await session(url, pcm, truth, 0);
  const oneCpu = engineCpu() - cpu0;
  console.log('\n1 session');
  console.log(reported('1 session', 'first partial after speech onset', one.firstPartial, 300));
  console.log(reported('1 session', 'end of turn after speech end', one.endOfTurn, 500, 700));
  figure('1 session: turns ended', one.turns, 'turns', 'higher');
  figure('1 session: engine CPU per audio second', oneCpu / audioSeconds, 'core-s');
  console.log(`turns ended: ${one.turns}/${one.expected}; engine CPU ${(oneCpu / audioSeconds).toFixed(2)} core-seconds per audio second`);
  const cut = await cutOffs(url);
  figure('cut-off: splits', cut.splits, 'sentences');
  figure('cut-off: words lost', (cut.lost / cut.words) * 100, '%');
  console.log(
    `cut-off: ${cut.sentences} sentences with a 200–350 ms pause inside: ${cut.splits} split into two turns, ${cut.lost}/${cut.words} words lost (${((cut.lost / cut.words) * 100).toFixed(1)}%)`,
  );

  cpu0 = engineCpu();
  const four = await Promise.all([0, 1, 2, 3].map((i) => session(url, pcm, truth, i * 170)));
  const fourCpu = engineCpu() - cpu0;
  console.log('\n4 concurrent sessions (2 cores)');
  console.log(
    reported(
      '4 sessions',
      'first partial after speech onset',
      four.flatMap((r) => r.firstPartial),
      300,
    ),
  );
  console.log(
    reported(
      '4 sessions',
      'end of turn after speech end',
      four.flatMap((r) => r.endOfTurn),
      500,
      700,
    ),
  );
  four.forEach((r, i) =>
    console.log(
      `  session ${i + 1}: turns ended ${r.turns}/${r.expected}, first partial p50 ${pct(r.firstPartial, 50).toFixed(0)} ms, end of turn p50 ${pct(r.endOfTurn, 50).toFixed(0)} ms, max ${Math.max(...r.endOfTurn).toFixed(0)} ms`,
    ),
  );
  const starved = four.filter((r) => r.turns < r.expected || r.firstPartial.length < r.expected);
  figure('4 sessions: starved sessions', starved.length, 'sessions');
  figure('4 sessions: engine CPU per audio second', fourCpu / audioSeconds, 'core-s');
  console.log(
    `starved sessions: ${starved.length}; engine CPU ${(fourCpu / audioSeconds).toFixed(2)} cores while 4 sessions stream (real time needs < ${cpus().length} free cores); load average now ${loadavg()[0]?.toFixed(1)}`,
  );
} finally {
  engine.kill('SIGTERM');
  rmSync(dir, { recursive: true, force: true });
}
