/**
 * Speaker diarization's cost: the time per audio hour and the memory peak of
 * the diarization worker on a 1-hour file (goal ≤ 300 MiB over the worker's
 * idle size with its models loaded), with the tiny generated models of
 * tests/fixtures/models/speakers.ts (two tone voices in turns) by default.
 * `--model DIR` takes a models folder with a real segmentation and embedding
 * model installed (verbatim-model.json each): the hour is then a two-voice
 * flite conversation repeated, and the diarization error rate (DER: missed,
 * false alarm and confused speech over the reference speech, 10 ms frames,
 * the best speaker mapping) of one such conversation is printed too.
 *   npm run bench -- speakers [--model DIR] [--minutes N]
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { NativeChild } from '../src/engine/native/child-host';
import { SHERPA_CHILD } from '../src/engine/recognizer/sherpa/child-kinds';
import { createSpeakerLabels, type SpeakerLabels } from '../src/engine/recognizer/sherpa/diarize';
import type { SpeakerTurn } from '../src/engine/text/speakers';
import { conversation, installTinySpeakerModels, markedConversation, TWO_VOICES, type Turn } from '../tests/fixtures/models/speakers';
import { figure } from './_figure';

const RATE = 16000;
const MIB = 1024 * 1024;
const { values } = parseArgs({ options: { model: { type: 'string' }, minutes: { type: 'string', default: '60' } } });
const minutes = Number(values.minutes);

function status(pid: number, key: 'VmRSS' | 'VmHWM'): number {
  const m = new RegExp(`${key}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : 0;
}

/** `block` repeated to `seconds` of audio, written as raw s16le; returns the path and the sample count. */
function repeatTo(dir: string, block: Int16Array, seconds: number): { path: string; samples: number } {
  const total = Math.round(seconds * RATE);
  const out = new Int16Array(total);
  for (let at = 0; at < total; at += block.length) out.set(block.subarray(0, Math.min(block.length, total - at)), at);
  const path = join(dir, 'hour.raw');
  writeFileSync(path, Buffer.from(out.buffer));
  return { path, samples: total };
}

async function diarize(s: SpeakerLabels, path: string, samples: number): Promise<SpeakerTurn[]> {
  const models = await s.models();
  if ('missing' in models) throw new Error(models.missing);
  return (await s.diarize({ rawPath: path, samples, counts: { expected: null, min: null, max: null }, models })).turns;
}

/** DER over 10 ms frames, with the mapping of hypothesis speakers to reference voices that confuses least. */
function der(reference: Turn[], hypothesis: SpeakerTurn[], endMs: number): number {
  const frames = Math.ceil(endMs / 10);
  const ref = new Array<string | null>(frames).fill(null);
  const hyp = new Array<number | null>(frames).fill(null);
  for (const t of reference) for (let f = Math.floor(t.start / 10); f < Math.min(frames, Math.ceil(t.end / 10)); f++) ref[f] = t.voice;
  for (const t of hypothesis) for (let f = Math.floor(t.start / 10); f < Math.min(frames, Math.ceil(t.end / 10)); f++) hyp[f] = t.speaker;
  // Greedy by overlap: enough for two or three voices.
  const overlap = new Map<string, number>();
  for (let f = 0; f < frames; f++) if (ref[f] !== null && hyp[f] !== null) overlap.set(`${hyp[f]}|${ref[f]}`, (overlap.get(`${hyp[f]}|${ref[f]}`) ?? 0) + 1);
  const map = new Map<number, string>();
  for (const [key] of [...overlap].sort((a, b) => b[1] - a[1])) {
    const [h, r] = key.split('|') as [string, string];
    if (map.has(Number(h)) || [...map.values()].includes(r)) continue;
    map.set(Number(h), r);
  }
  let speech = 0;
  let errors = 0;
  for (let f = 0; f < frames; f++) {
    const r = ref[f] ?? null;
    const h = hyp[f] ?? null;
    if (r !== null) speech++;
    if ((r === null) !== (h === null)) errors++;
    else if (r !== null && h !== null && map.get(h) !== r) errors++;
  }
  return speech ? errors / speech : 0;
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'speakers-bench-'));
  const modelsDir = values.model ? resolve(values.model) : join(dir, 'models');
  if (!values.model) installTinySpeakerModels(modelsDir);
  const child = new NativeChild({ ...SHERPA_CHILD, name: 'speaker diarization' });
  const speakers = createSpeakerLabels(modelsDir, child, { perAudioSecondMs: 2000 });
  try {
    // A two-voice conversation: tones for the tiny models, unmarked flite voices for real ones.
    const talk = values.model ? markedConversation(join(dir, 'talk'), TWO_VOICES, { markAmplitude: 0 }) : null;
    const block = talk ? talk.pcm : conversation(['A', 'B', 'A', 'B', 'A', 'B']).pcm;
    const short = join(dir, 'short.raw');
    writeFileSync(short, Buffer.from(block.buffer, block.byteOffset, block.byteLength));
    const warm = await diarize(speakers, short, block.length);
    const pid = child.pid;
    if (!pid) throw new Error('the diarization worker is not running');
    const idle = status(pid, 'VmRSS');
    console.log(`models: ${values.model ? modelsDir : 'tiny generated (tests/fixtures/models/speakers.ts)'}`);
    console.log(`worker idle with models loaded, after a ${(block.length / RATE).toFixed(1)} s file: ${idle.toFixed(0)} MiB RSS`);
    figure('worker idle RSS', idle, 'MiB');
    if (talk) {
      const endMs = (block.length / RATE) * 1000;
      figure('DER', der(talk.turns, warm, endMs) * 100, '%');
      console.log(`DER on a two-voice flite conversation (slt/rms, ${(endMs / 1000).toFixed(1)} s): ${(der(talk.turns, warm, endMs) * 100).toFixed(1)}%`);
    }
    const hour = repeatTo(dir, block, minutes * 60);
    const parentBefore = process.memoryUsage().rss / MIB;
    const started = performance.now();
    const turns = await diarize(speakers, hour.path, hour.samples);
    const seconds = (performance.now() - started) / 1000;
    const peak = status(pid, 'VmHWM');
    const audioHours = hour.samples / RATE / 3600;
    figure('time per audio hour', seconds / audioHours, 's');
    figure('worker peak RSS over idle', peak - idle, 'MiB');
    console.log(`${minutes} min of audio: ${turns.length} turns, ${new Set(turns.map((t) => t.speaker)).size} speakers, ${seconds.toFixed(1)} s`);
    console.log(`time per audio hour: ${(seconds / audioHours).toFixed(1)} s (RTF ${(seconds / (hour.samples / RATE)).toFixed(4)})`);
    console.log(`worker peak RSS: ${peak.toFixed(0)} MiB, ${(peak - idle).toFixed(0)} MiB over idle (goal ≤ 300 MiB)`);
    console.log(`engine side (this process) RSS change: ${(process.memoryUsage().rss / MIB - parentBefore).toFixed(0)} MiB`);
  } finally {
    speakers.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
