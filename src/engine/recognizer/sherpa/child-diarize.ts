/**
 * Speaker diarization inside the native worker child (sherpa-onnx's
 * OfflineSpeakerDiarization): loads a segmentation and an embedding model on
 * demand and runs one clustering per request. sherpa-onnx copies every
 * segmentation window of the audio (ten times the audio at its 10% shift:
 * 2.3 GB for an hour), so a long file is diarized in pieces of PIECE_SECONDS,
 * read from disk one at a time, and the pieces' speakers are joined by their
 * voiceprints (diarize-plan.clusterVoiceprints). Only the synchronous
 * `process()` is used: the addon's async one may never settle on an ONNX
 * error, and the parent's deadline covers a hang.
 */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { createRequire } from 'node:module';
import { clusterVoiceprints, DEFAULT_THRESHOLD, type Clustering, type DiarizedSegment } from './diarize-plan';
import type { SherpaExtractor } from './child-voice';

/** A file longer than 1.5 pieces is diarized piece by piece. */
export const PIECE_SECONDS = 180;
const RATE = 16000;
/** At most this much of one speaker's talk in a piece makes its voiceprint. */
const PRINT_SECONDS = 30;

interface SherpaDiarizer {
  sampleRate: number;
  process(samples: Float32Array): { start: number; end: number; speaker: number }[];
  setConfig(config: { clustering: { numClusters?: number; threshold?: number } }): void;
}
type SherpaModule = {
  OfflineSpeakerDiarization: new (config: unknown) => SherpaDiarizer;
  SpeakerEmbeddingExtractor: new (config: unknown) => SherpaExtractor;
};

const sherpa = (): SherpaModule => createRequire(import.meta.url)('sherpa-onnx-node') as SherpaModule;

export interface DiarizeModels {
  segmentation: string;
  embedding: string;
  numThreads: number;
}

export interface DiarizeRun {
  models: DiarizeModels;
  /** The job's audio: raw 16 kHz mono s16le. */
  rawPath: string;
  /** Zero-pad to this many samples (short audio; see diarize-plan.paddedLength), or null. */
  padTo: number | null;
  clustering: Clustering;
}

let diarizer: { key: string; d: SherpaDiarizer } | null = null;
let extractor: { key: string; e: SherpaExtractor } | null = null;
let audio: { path: string; padTo: number | null; samples: Float32Array } | null = null;

function load(m: DiarizeModels): SherpaDiarizer {
  const key = JSON.stringify(m);
  if (diarizer?.key === key) return diarizer.d;
  diarizer = null;
  // Non-zero values throughout: zero means "default" to sherpa-onnx.
  const d = new (sherpa().OfflineSpeakerDiarization)({
    segmentation: { pyannote: { model: m.segmentation, windowShiftRatio: 0.1 }, numThreads: m.numThreads, debug: 0 },
    embedding: { model: m.embedding, numThreads: m.numThreads, debug: 0 },
    clustering: { numClusters: 0, threshold: 0.5 },
    minDurationOn: 0.3,
    minDurationOff: 0.5,
  });
  diarizer = { key, d };
  return d;
}

/** `count` samples from `from` of a raw s16le file as floats in [-1, 1), zero-padded to `padTo`. */
function readRange(fd: number, from: number, count: number, padTo = 0): Float32Array {
  const samples = new Float32Array(Math.max(count, padTo));
  const chunk = Buffer.alloc(1 << 20);
  let at = 0;
  while (at < count) {
    const n = readSync(fd, chunk, 0, Math.min(chunk.length, (count - at) * 2), (from + at) * 2);
    if (n <= 1) break;
    const k = n >> 1;
    for (let i = 0; i < k; i++) samples[at + i] = chunk.readInt16LE(i * 2) / 32768;
    at += k;
  }
  return samples;
}

/** The whole (short) file, kept while the parent tries several clusterings of it. */
function readSamples(path: string, padTo: number | null): Float32Array {
  if (audio?.path === path && audio.padTo === padTo) return audio.samples;
  audio = null;
  const fd = openSync(path, 'r');
  try {
    const samples = readRange(fd, 0, fstatSync(fd).size >> 1, padTo ?? 0);
    audio = { path, padTo, samples };
    return samples;
  } finally {
    closeSync(fd);
  }
}

function voiceprinter(m: DiarizeModels): SherpaExtractor {
  if (extractor?.key === m.embedding) return extractor.e;
  const e = new (sherpa().SpeakerEmbeddingExtractor)({ model: m.embedding, numThreads: m.numThreads, debug: 0 });
  extractor = { key: m.embedding, e };
  return e;
}

/** A long file piece by piece: each piece clustered by the threshold, then its speakers joined across pieces as `clustering` asks. */
function runInPieces(p: DiarizeRun, d: SherpaDiarizer): DiarizedSegment[] {
  const threshold = 'threshold' in p.clustering ? p.clustering.threshold : DEFAULT_THRESHOLD;
  d.setConfig({ clustering: { numClusters: 0, threshold } });
  const e = voiceprinter(p.models);
  const fd = openSync(p.rawPath, 'r');
  const segments: (DiarizedSegment & { print: number })[] = [];
  const prints: Float32Array[] = [];
  try {
    const total = fstatSync(fd).size >> 1;
    const piece = PIECE_SECONDS * RATE;
    for (let from = 0; from < total; from += piece) {
      // The last piece takes the rest when that is short, so no piece is shorter than half of one.
      const count = total - from < piece * 1.5 ? total - from : piece;
      const samples = readRange(fd, from, count);
      const found = d.process(samples);
      for (const local of [...new Set(found.map((s) => s.speaker))]) {
        const mine = found.filter((s) => s.speaker === local);
        const parts: Float32Array[] = [];
        let have = 0;
        for (const s of mine) {
          if (have >= PRINT_SECONDS * RATE) break;
          const part = samples.subarray(Math.round(s.start * RATE), Math.min(samples.length, Math.round(s.end * RATE)));
          parts.push(part);
          have += part.length;
        }
        const stream = e.createStream();
        for (const part of parts) stream.acceptWaveform({ sampleRate: RATE, samples: part });
        stream.inputFinished();
        prints.push(Float32Array.from(e.compute(stream, false)));
        for (const s of mine) segments.push({ start: s.start + from / RATE, end: s.end + from / RATE, speaker: 0, print: prints.length - 1 });
      }
      if (count !== piece) break;
    }
  } finally {
    closeSync(fd);
  }
  const group = clusterVoiceprints(prints, p.clustering);
  return segments.map((s) => ({ start: s.start, end: s.end, speaker: group[s.print] as number }));
}

export const handlers = {
  run(p: DiarizeRun): DiarizedSegment[] {
    const d = load(p.models);
    const fd = openSync(p.rawPath, 'r');
    const total = fstatSync(fd).size >> 1;
    closeSync(fd);
    if (total > PIECE_SECONDS * RATE * 1.5) return runInPieces(p, d);
    const samples = readSamples(p.rawPath, p.padTo);
    // numClusters 0 means "cluster by the threshold" (checked on 1.13.8); the threshold is never 0, which would mean 0.5.
    const c = 'numClusters' in p.clustering ? { numClusters: p.clustering.numClusters, threshold: 0.5 } : { numClusters: 0, threshold: p.clustering.threshold };
    d.setConfig({ clustering: c });
    return d.process(samples).map((s) => ({ start: s.start, end: s.end, speaker: s.speaker }));
  },
  /** Lets the job's audio go (the models stay loaded until the child idles out). */
  forget(): null {
    audio = null;
    return null;
  },
};
