/**
 * Speaker diarization inside the native worker child (sherpa-onnx's
 * OfflineSpeakerDiarization): loads a segmentation and an embedding model on
 * demand, reads a job's 16 kHz s16le audio once and runs one clustering per
 * request. Only the synchronous `process()` is used: the addon's async one
 * may never settle on an ONNX error, and the parent's deadline covers a hang.
 */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Clustering, DiarizedSegment } from './diarize-plan';

interface SherpaDiarizer {
  sampleRate: number;
  process(samples: Float32Array): { start: number; end: number; speaker: number }[];
  setConfig(config: { clustering: { numClusters?: number; threshold?: number } }): void;
}
type SherpaModule = { OfflineSpeakerDiarization: new (config: unknown) => SherpaDiarizer };

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
let audio: { path: string; padTo: number | null; samples: Float32Array } | null = null;

function load(m: DiarizeModels): SherpaDiarizer {
  const key = JSON.stringify(m);
  if (diarizer?.key === key) return diarizer.d;
  diarizer = null;
  const sherpa = createRequire(import.meta.url)('sherpa-onnx-node') as SherpaModule;
  // Non-zero values throughout: zero means "default" to sherpa-onnx.
  const d = new sherpa.OfflineSpeakerDiarization({
    segmentation: { pyannote: { model: m.segmentation, windowShiftRatio: 0.1 }, numThreads: m.numThreads, debug: 0 },
    embedding: { model: m.embedding, numThreads: m.numThreads, debug: 0 },
    clustering: { numClusters: 0, threshold: 0.5 },
    minDurationOn: 0.3,
    minDurationOff: 0.5,
  });
  diarizer = { key, d };
  return d;
}

/** The file's samples as floats in [-1, 1), read in pieces so the int16 copy never exists whole. */
function readSamples(path: string, padTo: number | null): Float32Array {
  if (audio?.path === path && audio.padTo === padTo) return audio.samples;
  audio = null;
  const fd = openSync(path, 'r');
  try {
    const total = fstatSync(fd).size >> 1;
    const samples = new Float32Array(Math.max(total, padTo ?? 0));
    const chunk = Buffer.alloc(1 << 20);
    let at = 0;
    while (at < total) {
      const n = readSync(fd, chunk, 0, Math.min(chunk.length, (total - at) * 2), at * 2);
      if (n <= 1) break;
      const count = n >> 1;
      for (let i = 0; i < count; i++) samples[at + i] = chunk.readInt16LE(i * 2) / 32768;
      at += count;
    }
    audio = { path, padTo, samples };
    return samples;
  } finally {
    closeSync(fd);
  }
}

export const handlers = {
  run(p: DiarizeRun): DiarizedSegment[] {
    const d = load(p.models);
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
