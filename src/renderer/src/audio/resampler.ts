/**
 * The capture worklet's arithmetic, kept free of audio APIs so it is tested on
 * its own: downmix to mono, resample any input rate to 16 kHz with a
 * windowed-sinc low-pass (no aliasing from 44.1/48 kHz), and cut PCM16 frames
 * of exactly 800 samples (50 ms). Positions are exact rationals of sample
 * counts, so ten minutes of input give exactly ten minutes of output.
 */

export const OUT_RATE = 16000;
export const FRAME_SAMPLES = 800;
/** Taps on each side of the kernel's centre. */
const HALF_TAPS = 16;

/** Mean of the channels (a stereo system stream, or a mono microphone). */
export function downmix(channels: readonly Float32Array[]): Float32Array {
  const first = channels[0];
  if (!first) return new Float32Array(0);
  if (channels.length === 1) return first;
  const out = new Float32Array(first.length);
  for (const ch of channels) for (let i = 0; i < out.length; i++) out[i]! += (ch[i] ?? 0) / channels.length;
  return out;
}

export class Resampler {
  /** Input samples not yet consumed, starting at absolute input index `base`. */
  private buf = new Float32Array(0);
  private base = 0;
  /** Output samples produced so far (absolute). */
  private produced = 0;
  private readonly cutoff: number;
  /** Normalised kernels by phase (numerator mod outRate): few distinct phases for 44.1/48 kHz, computed once. */
  private readonly kernels = new Map<number, Float32Array>();

  constructor(
    readonly inRate: number,
    readonly outRate = OUT_RATE,
  ) {
    if (!(inRate >= 8000 && inRate <= 384000)) throw new RangeError(`Unsupported input rate ${inRate}`);
    // Below the output's Nyquist frequency with some room for the window's roll-off.
    this.cutoff = Math.min(1, outRate / inRate) * 0.92;
  }

  /** Feed input; answers the output samples that are fully determined now. */
  push(input: Float32Array): Float32Array {
    const joined = new Float32Array(this.buf.length + input.length);
    joined.set(this.buf);
    joined.set(input, this.buf.length);
    this.buf = joined;
    const end = this.base + this.buf.length; // absolute index one past the last input sample
    const room = Math.max(0, Math.ceil(((end - HALF_TAPS) * this.outRate) / this.inRate) - this.produced + 1);
    const out = new Float32Array(room);
    let n = 0;
    for (;;) {
      // Exact position of output sample `produced` in input samples: produced * inRate / outRate.
      const num = this.produced * this.inRate;
      const centre = Math.floor(num / this.outRate);
      if (centre + HALF_TAPS >= end || n >= room) break;
      out[n++] = this.sample(centre, num - centre * this.outRate);
      this.produced++;
    }
    // Keep what the next outputs still need (HALF_TAPS before the next centre).
    const nextCentre = Math.floor((this.produced * this.inRate) / this.outRate);
    const keepFrom = Math.max(this.base, nextCentre - HALF_TAPS);
    this.buf = this.buf.slice(keepFrom - this.base);
    this.base = keepFrom;
    return out.subarray(0, n);
  }

  private kernelFor(phase: number): Float32Array {
    let k = this.kernels.get(phase);
    if (!k) {
      const frac = phase / this.outRate;
      k = new Float32Array(2 * HALF_TAPS);
      let norm = 0;
      for (let j = 0; j < k.length; j++) norm += k[j] = kernel(j - HALF_TAPS + 1 - frac, this.cutoff);
      for (let j = 0; j < k.length; j++) k[j]! /= norm || 1;
      this.kernels.set(phase, k);
    }
    return k;
  }

  private sample(centre: number, phase: number): number {
    if (this.inRate === this.outRate) return this.at(centre);
    const k = this.kernelFor(phase);
    const from = centre - HALF_TAPS + 1 - this.base;
    let acc = 0;
    if (from >= 0 && from + k.length <= this.buf.length) {
      for (let j = 0; j < k.length; j++) acc += (this.buf[from + j] as number) * (k[j] as number);
    } else {
      for (let j = 0; j < k.length; j++) acc += this.at(centre - HALF_TAPS + 1 + j) * (k[j] as number);
    }
    return acc;
  }

  private at(i: number): number {
    const j = i - this.base;
    return j >= 0 && j < this.buf.length ? (this.buf[j] as number) : 0;
  }

  /** Output samples so far. */
  get outputCount(): number {
    return this.produced;
  }
}

/** Blackman-windowed sinc low-pass at `fc` (fraction of the input's Nyquist). */
function kernel(x: number, fc: number): number {
  const sinc = x === 0 ? 1 : Math.sin(Math.PI * fc * x) / (Math.PI * fc * x);
  const n = (x + HALF_TAPS) / (2 * HALF_TAPS);
  if (n < 0 || n > 1) return 0;
  const win = 0.42 - 0.5 * Math.cos(2 * Math.PI * n) + 0.08 * Math.cos(4 * Math.PI * n);
  return fc * sinc * win;
}

/** Cuts a stream of 16 kHz float samples into PCM16 frames of exactly FRAME_SAMPLES. */
export class Framer {
  private pending = new Int16Array(FRAME_SAMPLES);
  private fill = 0;
  /** Frames emitted so far. */
  count = 0;

  constructor(private readonly frameSamples = FRAME_SAMPLES) {
    this.pending = new Int16Array(frameSamples);
  }

  push(samples: Float32Array): Int16Array[] {
    const frames: Int16Array[] = [];
    for (let i = 0; i < samples.length; i++) {
      const s = Math.max(-1, Math.min(1, samples[i] as number));
      this.pending[this.fill++] = Math.round(s < 0 ? s * 0x8000 : s * 0x7fff);
      if (this.fill === this.frameSamples) {
        frames.push(this.pending);
        this.pending = new Int16Array(this.frameSamples);
        this.fill = 0;
        this.count++;
      }
    }
    return frames;
  }
}

/** Root-mean-square level of a block, 0–1. */
export function rms(samples: Float32Array): number {
  let sum = 0;
  for (let i = 0; i < samples.length; i++) sum += (samples[i] as number) ** 2;
  return samples.length ? Math.sqrt(sum / samples.length) : 0;
}
