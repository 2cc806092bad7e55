/**
 * Long-file segmentation: finds speech regions in a raw 16 kHz PCM16 file so
 * the recognizer decodes segment by segment (flat memory; silence is free).
 * Silero VAD (./vad.ts) when its model loads, fed in 128 ms steps with a yield
 * between them; otherwise energy-based: 10 ms frame energies against an adaptive noise floor, gaps
 * shorter than `minSilenceMs` bridged, segments padded and capped in length
 * (a long one is split at its quietest frame).
 */
import { open } from 'node:fs/promises';
import { VadPool, type StreamingVad } from './vad';

export interface SpeechSegment {
  /** Sample offsets [start, end). */
  start: number;
  end: number;
}

export interface SegmentOptions {
  minSilenceMs?: number;
  padMs?: number;
  maxSegmentMs?: number;
}

export interface FindOptions extends SegmentOptions {
  signal?: AbortSignal;
  /** Called with each segment, in order, as soon as it is final (the same objects the result holds). */
  onSegment?: (seg: SpeechSegment) => void;
}

const FRAME = 160; // 10 ms at 16 kHz

/** Frame energies in dB, read from the file in 1 MiB blocks. */
export async function frameEnergies(path: string, totalSamples: number, signal?: AbortSignal): Promise<Float32Array> {
  const frames = Math.ceil(totalSamples / FRAME);
  const out = new Float32Array(frames);
  const fh = await open(path, 'r');
  try {
    const block = Buffer.alloc(FRAME * 2 * 3200);
    let frame = 0;
    let pos = 0;
    for (;;) {
      signal?.throwIfAborted();
      const { bytesRead } = await fh.read(block, 0, block.length, pos);
      if (bytesRead === 0) break;
      pos += bytesRead;
      const n = Math.floor(bytesRead / 2);
      const pcm = new Int16Array(block.buffer, block.byteOffset, n);
      for (let f = 0; f * FRAME < n; f++) {
        let sum = 0;
        const end = Math.min(n, (f + 1) * FRAME);
        for (let i = f * FRAME; i < end; i++) {
          const s = pcm[i] ?? 0;
          sum += s * s;
        }
        if (frame < frames) out[frame++] = 10 * Math.log10(sum / Math.max(1, end - f * FRAME) + 1);
      }
      // Let other work run between blocks.
      await new Promise<void>((r) => setImmediate(r));
    }
  } finally {
    await fh.close();
  }
  return out;
}

export function segmentsFromEnergies(energy: Float32Array, opts: SegmentOptions = {}): SpeechSegment[] {
  const minSilence = Math.round((opts.minSilenceMs ?? 400) / 10);
  const pad = Math.round((opts.padMs ?? 200) / 10);
  const maxLen = Math.round((opts.maxSegmentMs ?? 30_000) / 10);
  const n = energy.length;
  if (n === 0) return [];
  const sorted = Float32Array.from(energy).sort();
  const floor = sorted[Math.floor(n * 0.1)] ?? 0;
  const peak = sorted[Math.floor(n * 0.98)] ?? 0;
  // Speech sits well above the floor; with a clean recording the floor is ~0 dB.
  // Without dynamic range (continuous sound, no pauses) everything audible counts.
  const threshold = peak - floor < 10 ? 25 : Math.max(floor + Math.min(15, Math.max(6, (peak - floor) * 0.25)), 25);
  const regions: [number, number][] = [];
  let start = -1;
  let lastSpeech = -1;
  for (let i = 0; i < n; i++) {
    if ((energy[i] ?? 0) >= threshold) {
      if (start < 0) start = i;
      else if (i - lastSpeech > minSilence) {
        regions.push([start, lastSpeech + 1]);
        start = i;
      }
      lastSpeech = i;
    }
  }
  if (start >= 0) regions.push([start, lastSpeech + 1]);
  const padded: [number, number][] = [];
  for (const [s, e] of regions) {
    const ps = Math.max(0, s - pad);
    const pe = Math.min(n, e + pad);
    const prev = padded[padded.length - 1];
    if (prev && ps <= prev[1]) prev[1] = pe;
    else padded.push([ps, pe]);
  }
  const out: SpeechSegment[] = [];
  for (const [s0, e] of padded) {
    let s = s0;
    while (e - s > maxLen) {
      // Split at the quietest frame in the last third of the allowed length.
      let cut = s + maxLen;
      let best = Infinity;
      for (let i = s + Math.floor((maxLen * 2) / 3); i < s + maxLen; i++) {
        const v = energy[i] ?? 0;
        if (v < best) {
          best = v;
          cut = i;
        }
      }
      out.push({ start: s * FRAME, end: cut * FRAME });
      s = cut;
    }
    if (e > s) out.push({ start: s * FRAME, end: e * FRAME });
  }
  return out;
}

// Detectors are pooled (see VadPool): reset between files, freed after a minute unused.
const vadPool = new VadPool({ minSilenceMs: 300, maxSpeechSeconds: 30 }, 8);

/** How long an unused detector is kept (default 60 s). */
export function setVadIdleMs(ms: number): void {
  vadPool.idleMs = ms;
}

/** Detectors kept in the pool now (for tests and the footprint benchmark). */
export function pooledVadCount(): number {
  return vadPool.size;
}

const acquireVad = (): StreamingVad | null => vadPool.acquire();
const releaseVad = (v: StreamingVad): void => vadPool.release(v);

/** Speech segments by Silero VAD; null when the VAD cannot load. */
export async function vadSegments(path: string, totalSamples: number, opts: FindOptions = {}): Promise<SpeechSegment[] | null> {
  const vad = acquireVad();
  if (!vad) return null;
  try {
    return await runVad(vad, path, totalSamples, opts);
  } finally {
    releaseVad(vad);
  }
}

async function runVad(vad: StreamingVad, path: string, totalSamples: number, opts: FindOptions): Promise<SpeechSegment[]> {
  const base = vad.samples;
  const pad = Math.round(((opts.padMs ?? 200) / 1000) * 16000);
  const cap = ((opts.maxSegmentMs ?? 30_000) / 1000) * 16000;
  const out: SpeechSegment[] = [];
  // Each span is padded and merged into the last segment when they overlap (never beyond the length cap). A
  // segment is final once a later one begins: it is handed on then, so decoding starts while detection goes on.
  const addSpan = (sp: SpeechSegment): void => {
    const s = Math.max(0, sp.start - pad);
    const e = Math.min(totalSamples, sp.end + pad);
    const prev = out[out.length - 1];
    if (prev && s <= prev.end && e - prev.start <= cap) prev.end = e;
    else {
      if (prev && prev.end > prev.start) opts.onSegment?.(prev);
      out.push({ start: prev && s < prev.end ? prev.end : s, end: e });
    }
  };
  let open_: number | null = null;
  const onEvents = (events: { type: 'speech_start' | 'speech_end'; sample: number }[]): void => {
    for (const e of events) {
      // Start samples count from the detector's creation (hence `base`); end
      // samples restart after a reset, so the end is taken as the position
      // fed so far instead (at most one step plus the minimum silence late).
      if (e.type === 'speech_start') open_ ??= Math.max(0, e.sample - base);
      else if (open_ !== null) {
        addSpan({ start: open_, end: Math.max(open_, vad.samples - base) });
        open_ = null;
      }
    }
  };
  const fh = await open(path, 'r');
  try {
    // Read 5 s at a time; feed 128 ms per step so each synchronous VAD call stays at a few milliseconds.
    const block = Buffer.alloc(16000 * 2 * 5);
    const STEP = 2048;
    let pos = 0;
    for (;;) {
      opts.signal?.throwIfAborted();
      const { bytesRead } = await fh.read(block, 0, block.length, pos);
      if (bytesRead === 0) break;
      pos += bytesRead;
      const pcm = new Int16Array(block.buffer, block.byteOffset, Math.floor(bytesRead / 2));
      for (let i = 0; i < pcm.length; i += STEP) {
        onEvents(vad.accept(pcm.slice(i, Math.min(pcm.length, i + STEP))));
        await new Promise<void>((r) => setImmediate(r));
      }
    }
  } finally {
    await fh.close();
  }
  onEvents(vad.flush());
  if (open_ !== null) addSpan({ start: open_, end: totalSamples });
  const last = out[out.length - 1];
  if (last && last.end > last.start) opts.onSegment?.(last);
  return out.filter((x) => x.end > x.start);
}

/** Speech segments of a raw file: Silero VAD when available, else energy-based. */
export async function findSpeechSegments(path: string, totalSamples: number, opts: FindOptions & { useVad?: boolean } = {}): Promise<SpeechSegment[]> {
  if (opts.useVad !== false) {
    const viaVad = await vadSegments(path, totalSamples, opts);
    if (viaVad) return viaVad;
  }
  const energy = await frameEnergies(path, totalSamples, opts.signal);
  const out = segmentsFromEnergies(energy, opts).map((s) => ({ start: s.start, end: Math.min(s.end, totalSamples) }));
  for (const seg of out) opts.onSegment?.(seg);
  return out;
}
