/**
 * Voice activity detection: Silero VAD v5 (the ONNX model shipped in
 * @ricky0123/vad-web) run by sherpa-onnx-node's `Vad`. Audio is 16 kHz mono.
 * When the model or the native addon cannot load, `vadStatus()` says why;
 * streaming then falls back to the decoder's own detector and
 * `segmentSpeech` to a short-term energy detector.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { releaseMemory } from '../memory';

const require = createRequire(import.meta.url);
const RATE = 16000;
/** Silero v5 works on 512-sample windows (32 ms) at 16 kHz. */
const WINDOW = 512;

export interface SpeechSpan {
  /** Milliseconds from the start of the audio given. */
  start: number;
  end: number;
}

export interface VadEvent {
  type: 'speech_start' | 'speech_end';
  /** Sample index (16 kHz) from the start of the stream. */
  sample: number;
}

export interface VadOptions {
  /** Speech probability threshold, 0–1 (default 0.5). */
  threshold?: number;
  /** Silence that closes a speech segment, ms (default 150 for streaming, 300 for segmentation). */
  minSilenceMs?: number;
  /** Shortest speech kept, ms (default 100). */
  minSpeechMs?: number;
  /** Speech longer than this is split, s (default 30 for segmentation, 600 for streaming). */
  maxSpeechSeconds?: number;
}

interface SherpaSegment {
  start: number;
  samples: Float32Array;
}
interface SherpaVad {
  acceptWaveform(samples: Float32Array): void;
  isEmpty(): boolean;
  isDetected(): boolean;
  pop(): void;
  front(enableExternalBuffer?: boolean): SherpaSegment;
  flush(): void;
  reset(): void;
}
type SherpaModule = { Vad: new (config: unknown, bufferSeconds: number) => SherpaVad };

let sherpa: SherpaModule | null = null;
let modelPath: string | null = null;
let loadError: string | null = null;
let probed = false;

function findModel(): string {
  const pkg = require.resolve('@ricky0123/vad-web/package.json');
  return join(dirname(pkg), 'dist', 'silero_vad_v5.onnx');
}

function load(): SherpaModule | null {
  if (probed) return sherpa;
  probed = true;
  try {
    const path = findModel();
    if (!existsSync(path)) throw new Error(`the model file ${path} is missing`);
    const mod = require('sherpa-onnx-node') as SherpaModule;
    // Building one detector proves the addon and the model both load.
    new mod.Vad({ sileroVad: { model: path, windowSize: WINDOW }, sampleRate: RATE, numThreads: 1, debug: 0 }, 1);
    sherpa = mod;
    modelPath = path;
  } catch (err) {
    loadError = `Silero VAD could not load (${err instanceof Error ? err.message : String(err)}); reinstall the npm packages sherpa-onnx-node and @ricky0123/vad-web (npm ci).`;
    sherpa = null;
  }
  return sherpa;
}

/** Whether the neural VAD is usable, and why not. */
export function vadStatus(): { available: boolean; backend: 'silero' | 'energy'; reason: string | null } {
  const ok = load() !== null;
  return { available: ok, backend: ok ? 'silero' : 'energy', reason: ok ? null : loadError };
}

function toFloat(pcm: Int16Array | Float32Array): Float32Array {
  if (pcm instanceof Float32Array) return pcm;
  const out = new Float32Array(pcm.length);
  for (let i = 0; i < pcm.length; i++) out[i] = (pcm[i] as number) / 32768;
  return out;
}

function makeVad(opts: VadOptions, defaults: { minSilenceMs: number; maxSpeechSeconds: number }): SherpaVad {
  const mod = load();
  if (!mod || !modelPath) throw new Error(loadError ?? 'Silero VAD is not available');
  const config = {
    sileroVad: {
      model: modelPath,
      threshold: opts.threshold ?? 0.5,
      minSilenceDuration: (opts.minSilenceMs ?? defaults.minSilenceMs) / 1000,
      minSpeechDuration: (opts.minSpeechMs ?? 100) / 1000,
      maxSpeechDuration: opts.maxSpeechSeconds ?? defaults.maxSpeechSeconds,
      windowSize: WINDOW,
    },
    sampleRate: RATE,
    numThreads: 1,
    debug: 0,
  };
  return new mod.Vad(config, 60);
}

/**
 * A live detector: feed 16 kHz audio in any chunk size, read `isSpeech` and
 * the start/end events. Cost is about 4 ms per second of audio on one core.
 */
export class StreamingVad {
  private readonly vad: SherpaVad;
  private pending = new Float32Array(0);
  private fed = 0;
  private speaking = false;
  private lastSpeechSample = -1;
  private readonly minSpeechSamples: number;

  constructor(opts: VadOptions = {}) {
    this.vad = makeVad(opts, { minSilenceMs: 150, maxSpeechSeconds: 600 });
    this.minSpeechSamples = Math.round(((opts.minSpeechMs ?? 100) / 1000) * RATE);
  }

  /** True while the model hears speech (with the minimum-silence hangover). */
  get isSpeech(): boolean {
    return this.speaking;
  }

  /** Samples fed so far. */
  get samples(): number {
    return this.fed;
  }

  /** Sample index where speech was last heard (−1 before any). */
  get lastSpeechAt(): number {
    return this.speaking ? this.fed : this.lastSpeechSample;
  }

  accept(pcm: Int16Array | Float32Array): VadEvent[] {
    const f = toFloat(pcm);
    const joined = new Float32Array(this.pending.length + f.length);
    joined.set(this.pending);
    joined.set(f, this.pending.length);
    const whole = joined.length - (joined.length % WINDOW);
    const events: VadEvent[] = [];
    for (let i = 0; i < whole; i += WINDOW) {
      this.vad.acceptWaveform(joined.subarray(i, i + WINDOW));
      this.fed += WINDOW;
      this.collect(events);
    }
    this.pending = joined.slice(whole);
    return events;
  }

  /** Ends any speech in progress (end of stream). */
  flush(): VadEvent[] {
    const events: VadEvent[] = [];
    this.vad.flush();
    this.collect(events);
    if (this.speaking) {
      this.speaking = false;
      this.lastSpeechSample = this.fed;
      events.push({ type: 'speech_end', sample: this.fed });
    }
    return events;
  }

  private collect(events: VadEvent[]): void {
    const detected = this.vad.isDetected();
    if (detected && !this.speaking) {
      this.speaking = true;
      // Detection lags onset by the minimum speech length plus one window.
      events.push({ type: 'speech_start', sample: Math.max(0, this.fed - this.minSpeechSamples - 2 * WINDOW) });
    }
    while (!this.vad.isEmpty()) {
      const seg = this.vad.front(false);
      this.vad.pop();
      const end = seg.start + seg.samples.length;
      this.lastSpeechSample = Math.max(this.lastSpeechSample, end);
      if (this.speaking && !this.vad.isDetected()) {
        this.speaking = false;
        events.push({ type: 'speech_end', sample: end });
      }
    }
    if (!this.vad.isDetected() && this.speaking) {
      // Detector went quiet without emitting a segment yet (rare): end here.
      this.speaking = false;
      this.lastSpeechSample = this.fed;
      events.push({ type: 'speech_end', sample: this.fed });
    }
  }

  /** Back to a fresh stream (sample indices restart at 0), for reuse: creating a detector loads the model (~150 ms, synchronous). */
  reset(): void {
    this.vad.reset();
    this.pending = new Float32Array(0);
    this.speaking = false;
    this.fed = 0;
    this.lastSpeechSample = -1;
  }
}

/** Returns a live detector, or null (with `vadStatus().reason`) when the model cannot load. */
export function createStreamingVad(opts: VadOptions = {}): StreamingVad | null {
  if (!load()) return null;
  return new StreamingVad(opts);
}

/**
 * Speech spans of a whole clip (16 kHz mono), for cutting long files into
 * pieces at pauses. Uses Silero when available, else an energy detector.
 */
export function segmentSpeech(pcm16k: Int16Array | Float32Array, opts: VadOptions = {}): SpeechSpan[] {
  if (!load()) return energySegments(pcm16k, opts);
  const vad = makeVad(opts, { minSilenceMs: 300, maxSpeechSeconds: 30 });
  const spans: SpeechSpan[] = [];
  const take = () => {
    while (!vad.isEmpty()) {
      const seg = vad.front(false);
      vad.pop();
      spans.push({ start: Math.round((seg.start / RATE) * 1000), end: Math.round(((seg.start + seg.samples.length) / RATE) * 1000) });
    }
  };
  // Convert in 10 s blocks so a long clip never doubles in memory as floats.
  const BLOCK = RATE * 10;
  for (let i = 0; i < pcm16k.length; i += BLOCK) {
    const part = toFloat(pcm16k.subarray(i, Math.min(pcm16k.length, i + BLOCK)));
    for (let j = 0; j + WINDOW <= part.length; j += WINDOW) vad.acceptWaveform(part.subarray(j, j + WINDOW));
    const tail = part.length % WINDOW;
    if (tail && i + BLOCK >= pcm16k.length) {
      const last = new Float32Array(WINDOW);
      last.set(part.subarray(part.length - tail));
      vad.acceptWaveform(last);
    }
    take();
  }
  vad.flush();
  take();
  return spans;
}

/** Fallback: 30 ms frames whose RMS is well above the clip's noise floor. */
export function energySegments(pcm: Int16Array | Float32Array, opts: VadOptions = {}): SpeechSpan[] {
  const frame = Math.round(RATE * 0.03);
  const scale = pcm instanceof Float32Array ? 1 : 1 / 32768;
  const rms: number[] = [];
  for (let i = 0; i + frame <= pcm.length; i += frame) {
    let s = 0;
    for (let j = i; j < i + frame; j++) {
      const v = (pcm[j] as number) * scale;
      s += v * v;
    }
    rms.push(Math.sqrt(s / frame));
  }
  if (rms.length === 0) return [];
  const sorted = [...rms].sort((a, b) => a - b);
  const floor = sorted[Math.floor(sorted.length * 0.1)] ?? 0;
  const threshold = Math.max(0.01, floor * 3);
  const minSilence = Math.ceil((opts.minSilenceMs ?? 300) / 30);
  const minSpeech = Math.ceil((opts.minSpeechMs ?? 100) / 30);
  const spans: SpeechSpan[] = [];
  let start = -1;
  let quiet = 0;
  for (let k = 0; k < rms.length; k++) {
    if ((rms[k] as number) >= threshold) {
      if (start < 0) start = k;
      quiet = 0;
    } else if (start >= 0 && ++quiet >= minSilence) {
      const end = k - quiet + 1;
      if (end - start >= minSpeech) spans.push({ start: start * 30, end: end * 30 });
      start = -1;
      quiet = 0;
    }
  }
  if (start >= 0 && rms.length - quiet - start >= minSpeech) spans.push({ start: start * 30, end: (rms.length - quiet) * 30 });
  return spans;
}

/**
 * Detectors of one configuration, reused: creating one loads the model
 * synchronously (~150 ms on the event loop). A detector unused for `idleMs`
 * is dropped (its native memory goes with the object), so an idle engine
 * gives the memory back; the next user pays one model load.
 */
const pools = new Set<VadPool>();

/** Sets the idle time of every detector pool (the engine's `idleMs` option). */
export function setVadPoolsIdleMs(ms: number): void {
  for (const p of pools) p.idleMs = ms;
}

export class VadPool {
  private idle: { v: StreamingVad; since: number }[] = [];
  private timer: NodeJS.Timeout | null = null;
  private missing = false;
  /** Detectors handed out and not yet back. */
  private out = 0;

  constructor(
    private readonly opts: VadOptions,
    private readonly max: number,
    public idleMs = 60_000,
  ) {
    pools.add(this);
  }

  get size(): number {
    return this.idle.length;
  }

  /** A reset detector, or null when Silero cannot load. */
  acquire(): StreamingVad | null {
    if (this.missing) return null;
    const v = this.idle.pop()?.v ?? createStreamingVad(this.opts);
    if (!v) this.missing = true;
    else this.out++;
    return v;
  }

  /**
   * Builds one idle detector when fewer than `n` exist (idle or in use);
   * answers whether it built one. Building one holds the loop ~50 ms (an
   * ONNX session): callers build them ahead, one per turn of the loop.
   */
  warmOne(n: number): boolean {
    if (this.missing || this.idle.length + this.out >= Math.min(n, this.max)) return false;
    const v = createStreamingVad(this.opts);
    if (!v) {
      this.missing = true;
      return false;
    }
    this.idle.push({ v, since: Date.now() });
    this.schedule();
    return true;
  }

  release(v: StreamingVad): void {
    this.out = Math.max(0, this.out - 1);
    v.reset();
    if (this.idle.length < this.max) this.idle.push({ v, since: Date.now() });
    this.schedule();
  }

  private schedule(): void {
    if (this.timer || !this.idle.length) return;
    const oldest = Math.min(...this.idle.map((e) => e.since));
    this.timer = setTimeout(
      () => {
        this.timer = null;
        const now = Date.now();
        const before = this.idle.length;
        this.idle = this.idle.filter((e) => now - e.since < this.idleMs);
        // A detector's ONNX session is native memory that only its wrapper's finalizer frees.
        if (this.idle.length < before) releaseMemory();
        this.schedule();
      },
      Math.max(10, oldest + this.idleMs - Date.now()),
    );
    this.timer.unref();
  }
}
