import { describe, expect, it } from 'vitest';
import { decodeMulaw, encodeMulaw } from '../../../../src/engine/streaming/mulaw';
import { Resampler } from '../../../../src/engine/streaming/resample';

function sine(rate: number, freq: number, n: number, amp = 10_000): Int16Array {
  return Int16Array.from({ length: n }, (_, i) => Math.round(amp * Math.sin((2 * Math.PI * freq * i) / rate)));
}

/** Amplitude of `freq` in a 16 kHz signal (single-bin DFT). */
function power(x: Int16Array, freq: number): number {
  let re = 0;
  let im = 0;
  for (let i = 0; i < x.length; i++) {
    re += (x[i] as number) * Math.cos((2 * Math.PI * freq * i) / 16000);
    im += (x[i] as number) * Math.sin((2 * Math.PI * freq * i) / 16000);
  }
  return (2 * Math.hypot(re, im)) / x.length;
}

describe('mu-law', () => {
  it('decodes the G.711 reference points', () => {
    expect(Array.from(decodeMulaw(Uint8Array.from([0xff, 0x7f, 0x80, 0x00])))).toEqual([0, 0, 32124, -32124]);
  });
  it('round-trips speech-level samples within 1/16 relative error', () => {
    const x = sine(16000, 300, 1600);
    const y = decodeMulaw(encodeMulaw(x));
    for (let i = 0; i < x.length; i++) expect(Math.abs((y[i] as number) - (x[i] as number))).toBeLessThanOrEqual(Math.abs(x[i] as number) / 16 + 8);
  });
});

describe('resampler to 16 kHz', () => {
  it('keeps a 440 Hz tone from 8, 44.1 and 48 kHz, in any chunking, with the right length', () => {
    for (const rate of [8000, 22050, 44100, 48000]) {
      const x = sine(rate, 440, rate);
      const r = new Resampler(rate);
      const parts: Int16Array[] = [];
      for (let i = 0; i < x.length; i += 317) parts.push(r.process(x.subarray(i, i + 317)));
      parts.push(r.flush());
      const y = new Int16Array(parts.reduce((a, p) => a + p.length, 0));
      let o = 0;
      for (const p of parts) {
        y.set(p, o);
        o += p.length;
      }
      expect(Math.abs(y.length - 16000)).toBeLessThanOrEqual(2);
      const mid = y.subarray(2000, 14000);
      expect(power(mid, 440)).toBeGreaterThan(9_500);
      expect(power(mid, 440)).toBeLessThan(10_500);
    }
  });
  it('removes content above 8 kHz instead of aliasing it (48 kHz input)', () => {
    // 11 kHz would fold to 5 kHz without the low-pass.
    const r = new Resampler(48000);
    const y = r.process(sine(48000, 11_000, 48000));
    expect(power(y.subarray(1000, 15000), 5000)).toBeLessThan(300);
  });
  it('passes 16 kHz through untouched', () => {
    const x = sine(16000, 440, 800);
    expect(new Resampler(16000).process(x)).toBe(x);
  });
});
