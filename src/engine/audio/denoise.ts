/**
 * Noise suppression for noisy recordings before recognition: RNNoise (the
 * WebAssembly build with its weights in @jitsi/rnnoise-wasm) on 48 kHz
 * frames, from and back to the engine's 16 kHz PCM16 raw files.
 *
 * PocketSphinx's acoustic model was trained on clean speech; at 10 dB SNR
 * its words fall apart. On the held-out half of the accuracy corpus
 * (`npm run bench -- accuracy`), speech in 10 dB room noise went from 71.4% to
 * 33.2% WER (synthetic voices) and from 64.8% to 50.7% (the LibriVox reader),
 * and no other condition changed. Denoising clean speech made it worse
 * (LibriVox tuning clips 27.8% → 36.1%), so only recordings whose estimated
 * SNR is below DENOISE_BELOW_DB are denoised (`estimateSnrDb`). RNNoise's
 * output alone cost words too: on the tuning half's noisy clips it read
 * 25.6% (synthetic) and 50.0% (LibriVox 0870, 0890); with 5–30% of the
 * original mixed back, 15.4–17.9% and 38.9–47.2%. 20% is kept: 5% read best
 * but sits next to that cliff.
 */
import { open, rename, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/** Recordings estimated below this SNR (dB) are denoised; the corpus's noisy clips measure 15–20 dB, clean and coded ones 24 dB and up. */
export const DENOISE_BELOW_DB = 22;
/** The share of the original mixed back into RNNoise's output (its artefacts cost more words than a little noise does). */
const DRY = 0.2;
/** RNNoise works on 10 ms frames at 48 kHz, and its output lags its input by two of them (measured: 959–960 samples). */
const FRAME = 480;
const RNNOISE_DELAY = 2 * FRAME;
const FACTOR = 3;
/**
 * Samples (16 kHz) read and written per chunk: a quarter second, about 18 ms
 * of work (RNNoise in WebAssembly costs about 0.07 of real time), so live
 * sessions sharing the engine's thread never wait longer than that.
 */
const CHUNK = 4000;

/** Settings for the accuracy sweeps (bench/corpus); the engine uses the defaults. */
export interface DenoiseOptions {
  /** The share of the original in the output (default DRY). */
  dry?: number;
  /** Denoise below this estimated SNR, dB (default DENOISE_BELOW_DB). */
  belowDb?: number;
}

interface RnnoiseModule {
  ready: Promise<unknown>;
  HEAPF32: Float32Array;
  _malloc(bytes: number): number;
  _free(ptr: number): void;
  _rnnoise_create(model?: number): number;
  _rnnoise_destroy(state: number): void;
  _rnnoise_process_frame(state: number, out: number, input: number): number;
}

let loading: Promise<RnnoiseModule> | null = null;
let loadError: string | null = null;

/** The RNNoise module, loaded once (its ~2 MB of code and weights only when a noisy file first needs it). */
function loadRnnoise(): Promise<RnnoiseModule> {
  loading ??= (async () => {
    const { default: create } = (await import('@jitsi/rnnoise-wasm/dist/rnnoise-sync.js')) as {
      default: (opts?: object) => Promise<RnnoiseModule>;
    };
    const m = await create();
    await m.ready;
    return m;
  })().catch((err: unknown) => {
    loadError = err instanceof Error ? err.message : String(err);
    loading = null;
    throw err;
  });
  return loading;
}

/** Whether RNNoise can be loaded here (the engine logs why not and recognizes the audio as it is). */
export function denoiseError(): string | null {
  if (loadError) return loadError;
  try {
    require.resolve('@jitsi/rnnoise-wasm/dist/rnnoise-sync.js');
    return null;
  } catch {
    return 'the npm package @jitsi/rnnoise-wasm is not installed';
  }
}

/**
 * Estimated SNR (dB) of a 16 kHz PCM16 raw file: the loud frames (95th
 * percentile of 20 ms frame levels) over the quiet ones (10th percentile),
 * the quiet ones being the pauses between words and the noise under them.
 * Digital silence counts as one unit of level, so clean speech reads 60+ dB;
 * a file that is silent throughout reads as clean (Infinity).
 */
export async function estimateSnrDb(path: string, totalSamples: number, signal?: AbortSignal): Promise<number> {
  const W = 320;
  // Whole frames per read, so none straddles two reads.
  const chunk = W * 50;
  const levels: number[] = [];
  const fh = await open(path, 'r');
  try {
    const buf = Buffer.alloc(chunk * 2);
    for (let at = 0; at < totalSamples; at += chunk) {
      signal?.throwIfAborted();
      const { bytesRead } = await fh.read(buf, 0, buf.length, at * 2);
      const n = Math.floor(bytesRead / 2);
      const pcm = new Int16Array(buf.buffer, buf.byteOffset, n);
      for (let i = 0; i + W <= n; i += W) {
        let s = 0;
        for (let k = i; k < i + W; k++) s += (pcm[k] as number) ** 2;
        levels.push(Math.sqrt(s / W));
      }
      if (bytesRead < buf.length) break;
    }
  } finally {
    await fh.close();
  }
  if (levels.length < 10) return Infinity;
  levels.sort((a, b) => a - b);
  const at = (q: number): number => levels[Math.min(levels.length - 1, Math.floor(q * levels.length))] as number;
  // Near silence (even the loud frames below −60 dBFS) has nothing to denoise: it reads as clean.
  if (at(0.95) < 32) return Infinity;
  return 20 * Math.log10(at(0.95) / Math.max(at(0.1), 1));
}

/**
 * A polyphase low-pass for 3:1 rate changes between 16 and 48 kHz: a windowed
 * sinc cut at 7.2 kHz (0.9 × 16 kHz's Nyquist), 16 taps per phase.
 */
const TAPS = 48;
const KERNEL = (() => {
  const k = new Float64Array(TAPS);
  const fc = (0.9 * 8000) / 48000;
  const mid = (TAPS - 1) / 2;
  let sum = 0;
  for (let i = 0; i < TAPS; i++) {
    const x = i - mid;
    const sinc = x === 0 ? 2 * fc : Math.sin(2 * Math.PI * fc * x) / (Math.PI * x);
    const blackman = 0.42 - 0.5 * Math.cos((2 * Math.PI * i) / (TAPS - 1)) + 0.08 * Math.cos((4 * Math.PI * i) / (TAPS - 1));
    k[i] = sinc * blackman;
    sum += k[i] as number;
  }
  for (let i = 0; i < TAPS; i++) k[i] = (k[i] as number) / sum;
  return k;
})();

/** The kernel split by phase for the 1:3 upsampler, with its gain of 3 (zero-stuffing leaves a third of the level). */
const PHASE_TAPS = TAPS / FACTOR;
const PHASES = Array.from({ length: FACTOR }, (_, p) => Float64Array.from({ length: PHASE_TAPS }, (_, j) => FACTOR * (KERNEL[p + FACTOR * j] as number)));

/** Group delay of the two filters and of RNNoise, in 16 kHz samples. */
const DELAY = Math.round((TAPS - 1 + RNNOISE_DELAY) / FACTOR);

/**
 * Streams 16 kHz samples through RNNoise at 48 kHz: upsampled 1:3, denoised
 * frame by frame, blended with the dry signal, and decimated 3:1. Keeps the
 * filter histories across chunks; the output is delayed by the two filters'
 * group delay, which `flush` gives back so the length and timing match the input.
 */
class Denoiser {
  /** The last PHASE_TAPS input samples, twice over, so each window is one contiguous run (no index wrapping in the loops). */
  private readonly xh = new Float64Array(2 * PHASE_TAPS);
  private xAt = 0;
  /** The last TAPS samples of the 48 kHz output, twice over. */
  private readonly dh = new Float64Array(2 * TAPS);
  private dAt = 0;
  private readonly frame = new Float32Array(FRAME);
  /** The dry signal delayed as RNNoise delays the wet one, so the blend adds no echo. */
  private readonly dryLine = new Float32Array(RNNOISE_DELAY);
  private dryAt = 0;
  private filled = 0;
  private phase = 0;
  private readonly out: number[] = [];
  private readonly ptr: number;
  private readonly state: number;

  constructor(
    private readonly m: RnnoiseModule,
    private readonly dryShare: number,
  ) {
    this.state = m._rnnoise_create();
    this.ptr = m._malloc(FRAME * 4);
  }

  /** Pushes 16 kHz samples; returns the 16 kHz samples ready so far. */
  push(input: Int16Array): Int16Array {
    const xh = this.xh;
    for (let i = 0; i < input.length; i++) {
      const x = input[i] as number;
      xh[this.xAt] = x;
      xh[this.xAt + PHASE_TAPS] = x;
      this.xAt = (this.xAt + 1) % PHASE_TAPS;
      // Upsampling 1:3 as polyphase filtering: output phase p is the input under taps p, p+3, p+6, … (newest first).
      const newest = this.xAt + PHASE_TAPS - 1;
      for (let p = 0; p < FACTOR; p++) {
        const taps = PHASES[p] as Float64Array;
        let acc = 0;
        for (let j = 0; j < PHASE_TAPS; j++) acc += (taps[j] as number) * (xh[newest - j] as number);
        this.frame[this.filled++] = acc;
        if (this.filled === FRAME) this.runFrame();
      }
    }
    return this.take();
  }

  private runFrame(): void {
    const base = this.ptr >> 2;
    this.m.HEAPF32.set(this.frame, base);
    this.m._rnnoise_process_frame(this.state, this.ptr, this.ptr);
    // Read the heap again: the call may have grown (and so replaced) it.
    const wet = this.m.HEAPF32;
    const dh = this.dh;
    for (let i = 0; i < FRAME; i++) {
      const dry = this.dryLine[this.dryAt] as number;
      this.dryLine[this.dryAt] = this.frame[i] as number;
      this.dryAt = this.dryAt + 1 === RNNOISE_DELAY ? 0 : this.dryAt + 1;
      const v = (1 - this.dryShare) * (wet[base + i] as number) + this.dryShare * dry;
      dh[this.dAt] = v;
      dh[this.dAt + TAPS] = v;
      this.dAt = this.dAt + 1 === TAPS ? 0 : this.dAt + 1;
      if (++this.phase === FACTOR) {
        // Decimation 3:1: the low-pass at every third sample only.
        this.phase = 0;
        let acc = 0;
        for (let k = 0; k < TAPS; k++) acc += (KERNEL[k] as number) * (dh[this.dAt + k] as number);
        this.out.push(acc);
      }
    }
    this.filled = 0;
  }

  private take(): Int16Array {
    const r = new Int16Array(this.out.length);
    for (let i = 0; i < r.length; i++) r[i] = Math.max(-32768, Math.min(32767, Math.round(this.out[i] as number)));
    this.out.length = 0;
    return r;
  }

  /** The samples still inside the filters and the last partial frame (silence pushed through). */
  flush(): Int16Array {
    const tail = DELAY + FRAME / FACTOR;
    return this.push(new Int16Array(tail));
  }

  dispose(): void {
    this.m._free(this.ptr);
    this.m._rnnoise_destroy(this.state);
  }
}

/**
 * Denoises a 16 kHz PCM16 raw file in place (through a temporary file beside
 * it, renamed over it when done). The output has the input's length and
 * timing: the filters' delay is taken off the start.
 */
export async function denoiseRaw(path: string, totalSamples: number, signal?: AbortSignal, opts: DenoiseOptions = {}): Promise<void> {
  const m = await loadRnnoise();
  const d = new Denoiser(m, opts.dry ?? DRY);
  const tmp = `${path}.denoised`;
  const src = await open(path, 'r');
  const dst = await open(tmp, 'w');
  try {
    const buf = Buffer.alloc(CHUNK * 2);
    let skip = DELAY;
    let written = 0;
    const write = async (s: Int16Array): Promise<void> => {
      let part = s;
      if (skip > 0) {
        const n = Math.min(skip, part.length);
        part = part.subarray(n);
        skip -= n;
      }
      part = part.subarray(0, Math.max(0, totalSamples - written));
      if (!part.length) return;
      await dst.write(Buffer.from(part.buffer, part.byteOffset, part.length * 2));
      written += part.length;
    };
    for (let at = 0; at < totalSamples; at += CHUNK) {
      signal?.throwIfAborted();
      const { bytesRead } = await src.read(buf, 0, buf.length, at * 2);
      const n = Math.floor(bytesRead / 2);
      if (!n) break;
      await write(d.push(new Int16Array(buf.buffer, buf.byteOffset, n)));
    }
    await write(d.flush());
    // Pad to the input's length if the tail fell short (it does not; this keeps the timing contract explicit).
    if (written < totalSamples) await dst.write(Buffer.alloc((totalSamples - written) * 2));
  } catch (err) {
    await dst.close().catch(() => undefined);
    await src.close().catch(() => undefined);
    d.dispose();
    await rm(tmp, { force: true });
    throw err;
  }
  await dst.close();
  await src.close();
  d.dispose();
  await rename(tmp, path);
}

/**
 * What the batch path does with a decoded file: measures its SNR and, when it
 * is noisy, denoises it in place. Returns whether it did. A failure of the
 * denoiser (the package missing, a broken module) is reported through `warn`
 * and the audio is recognized as it is; an abort is passed on.
 */
export async function suppressNoise(
  raw: string,
  samples: number,
  signal: AbortSignal | undefined,
  warn: (m: string) => void,
  opts: DenoiseOptions = {},
): Promise<boolean> {
  const snr = await estimateSnrDb(raw, samples, signal);
  if (!(snr < (opts.belowDb ?? DENOISE_BELOW_DB))) return false;
  try {
    await denoiseRaw(raw, samples, signal, opts);
    return true;
  } catch (err) {
    if (signal?.aborted) throw err;
    warn(`noise suppression failed (${err instanceof Error ? err.message : String(err)}); the audio is recognized as it is`);
    return false;
  }
}
