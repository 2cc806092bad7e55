/**
 * Streaming sample-rate conversion to 16 kHz: windowed-sinc interpolation
 * with a low-pass at the lower of the two Nyquist rates, so 44.1/48 kHz
 * microphones do not alias into the recognizer's band. State carries across
 * chunks, so frame boundaries leave no clicks.
 */

const HALF_TAPS = 12;
const PHASES = 256;

export class Resampler {
  private readonly step: number;
  private readonly cutoff: number;
  private readonly half: number;
  /** Input samples kept from earlier chunks (the kernel reaches back). */
  private history = new Float32Array(0);
  /** Absolute input index of history[0]. */
  private historyStart = 0;
  /** Absolute input position of the next output sample. */
  private pos = 0;
  private received = 0;

  constructor(
    readonly inRate: number,
    readonly outRate = 16000,
  ) {
    this.step = inRate / outRate;
    this.cutoff = Math.min(1, outRate / inRate);
    this.half = Math.ceil(HALF_TAPS / this.cutoff);
  }

  process(input: Int16Array): Int16Array {
    if (this.inRate === this.outRate) return input;
    const buf = new Float32Array(this.history.length + input.length);
    buf.set(this.history);
    for (let i = 0; i < input.length; i++) buf[this.history.length + i] = input[i] as number;
    this.received += input.length;
    const out: number[] = [];
    // An output sample needs input up to pos + half.
    while (this.pos + this.half < this.received) {
      out.push(this.sample(buf, this.pos));
      this.pos += this.step;
    }
    const keepFrom = Math.max(this.historyStart, Math.floor(this.pos) - this.half - 1);
    this.history = buf.slice(keepFrom - this.historyStart);
    this.historyStart = keepFrom;
    return Int16Array.from(out, (v) => Math.max(-32768, Math.min(32767, Math.round(v))));
  }

  /** Output for the input still held back by the kernel's look-ahead (end of stream). */
  flush(): Int16Array {
    if (this.inRate === this.outRate) return new Int16Array(0);
    const pad = new Int16Array(this.half + 1);
    const saved = this.received;
    const out = this.process(pad);
    // Drop outputs that only cover the padding.
    const real = Math.max(0, Math.ceil((saved - (this.pos - out.length * this.step)) / this.step));
    return out.subarray(0, Math.min(out.length, real));
  }

  /** Normalized kernels for 256 sub-sample phases, built once per converter. */
  private kernels: Float32Array[] = [];

  private kernel(phase: number): Float32Array {
    let k = this.kernels[phase];
    if (!k) {
      const f = phase / PHASES;
      k = new Float32Array(2 * this.half);
      let norm = 0;
      for (let j = 0; j < k.length; j++) {
        // Tap j is input sample center - half + 1 + j, at distance d from the output point.
        const d = f + this.half - 1 - j;
        const x = d * this.cutoff;
        const sinc = x === 0 ? 1 : Math.sin(Math.PI * x) / (Math.PI * x);
        const w = 0.5 + 0.5 * Math.cos((Math.PI * d) / (this.half + 1));
        k[j] = sinc * w;
        norm += sinc * w;
      }
      for (let j = 0; j < k.length; j++) (k as Float32Array)[j] = (k[j] as number) / norm;
      this.kernels[phase] = k;
    }
    return k;
  }

  private sample(buf: Float32Array, p: number): number {
    let center = Math.floor(p);
    let phase = Math.round((p - center) * PHASES);
    if (phase === PHASES) {
      center++;
      phase = 0;
    }
    const k = this.kernel(phase);
    const base = center - this.half + 1 - this.historyStart;
    let acc = 0;
    for (let j = 0; j < k.length; j++) {
      const idx = base + j;
      if (idx >= 0 && idx < buf.length) acc += (buf[idx] as number) * (k[j] as number);
    }
    return acc;
  }
}
