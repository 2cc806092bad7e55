/** The capture worklet's resampler and framer on synthetic sine and speech-like signals. */
import { describe, expect, it } from 'vitest';
import { downmix, FRAME_SAMPLES, Framer, OUT_RATE, Resampler, rms } from '../../../../src/renderer/src/audio/resampler';

/** Feeds `seconds` of `fn(t)` at `rate` in 128-sample render quanta, as an AudioWorklet does. */
function run(rate: number, seconds: number, fn: (t: number) => number): { frames: Int16Array[]; resampler: Resampler } {
  const resampler = new Resampler(rate);
  const framer = new Framer();
  const frames: Int16Array[] = [];
  const total = Math.round(rate * seconds);
  for (let i = 0; i < total; i += 128) {
    const n = Math.min(128, total - i);
    const block = new Float32Array(n);
    for (let k = 0; k < n; k++) block[k] = fn((i + k) / rate);
    for (const f of framer.push(resampler.push(block))) frames.push(f);
  }
  return { frames, resampler };
}

/** Amplitude of `freq` in 16 kHz samples (single-bin DFT). */
function tone(samples: Int16Array, freq: number): number {
  let re = 0;
  let im = 0;
  for (let i = 0; i < samples.length; i++) {
    const a = (2 * Math.PI * freq * i) / OUT_RATE;
    re += (samples[i]! / 0x8000) * Math.cos(a);
    im += (samples[i]! / 0x8000) * Math.sin(a);
  }
  return (2 * Math.hypot(re, im)) / samples.length;
}

function concat(frames: Int16Array[]): Int16Array {
  const out = new Int16Array(frames.length * FRAME_SAMPLES);
  frames.forEach((f, i) => out.set(f, i * FRAME_SAMPLES));
  return out;
}

describe('capture resampler and framer', () => {
  for (const rate of [48000, 44100, 16000]) {
    it(`emits frames of exactly 800 samples (50 ms) from ${rate} Hz input`, () => {
      const { frames } = run(rate, 3, (t) => 0.5 * Math.sin(2 * Math.PI * 440 * t));
      expect(frames.length).toBeGreaterThanOrEqual(59);
      expect(frames.length).toBeLessThanOrEqual(60);
      for (const f of frames) expect(f.length).toBe(FRAME_SAMPLES);
    });

    it(`keeps a 1 kHz sine at 1 kHz and its amplitude from ${rate} Hz input`, () => {
      const { frames } = run(rate, 1, (t) => 0.5 * Math.sin(2 * Math.PI * 1000 * t));
      const pcm = concat(frames).subarray(800); // past the filter's start-up
      expect(tone(pcm, 1000)).toBeGreaterThan(0.45);
      expect(tone(pcm, 1000)).toBeLessThan(0.55);
      expect(tone(pcm, 1100)).toBeLessThan(0.02);
    });
  }

  it('does not drift over 10 minutes of 44.1 kHz input: output count is exact to within the filter delay', () => {
    const seconds = 600;
    const { frames, resampler } = run(44100, seconds, (t) => 0.3 * Math.sin(2 * Math.PI * 220 * t));
    const expected = seconds * OUT_RATE;
    expect(expected - resampler.outputCount).toBeGreaterThanOrEqual(0);
    expect(expected - resampler.outputCount).toBeLessThanOrEqual(16);
    expect(frames.length).toBe(Math.floor(resampler.outputCount / FRAME_SAMPLES));
    // The phase of the last frame still matches a 220 Hz sine started at 0: no sample was dropped or doubled.
    const last = frames.at(-1)!;
    const startSample = (frames.length - 1) * FRAME_SAMPLES;
    let err = 0;
    for (let i = 0; i < last.length; i++) err = Math.max(err, Math.abs(last[i]! / 0x8000 - 0.3 * Math.sin((2 * Math.PI * 220 * (startSample + i)) / OUT_RATE)));
    expect(err).toBeLessThan(0.01);
  });

  it('removes a 20 kHz tone above the 8 kHz output band instead of folding it down (anti-aliasing)', () => {
    const { frames } = run(48000, 1, (t) => 0.5 * Math.sin(2 * Math.PI * 20000 * t));
    const pcm = concat(frames).subarray(800);
    // 20 kHz would alias to 4 kHz at 16 kHz without the low-pass.
    expect(tone(pcm, 4000)).toBeLessThan(0.01);
    expect(rms(Float32Array.from(pcm, (s) => s / 0x8000))).toBeLessThan(0.01);
  });

  it('keeps speech-like bursts (modulated harmonics with pauses) in place in time', () => {
    // 300 ms of a 150 Hz voice with harmonics, then 200 ms of silence, repeated.
    const voice = (t: number) =>
      t % 0.5 < 0.3 ? 0.2 * (Math.sin(2 * Math.PI * 150 * t) + 0.5 * Math.sin(2 * Math.PI * 450 * t) + 0.25 * Math.sin(2 * Math.PI * 1200 * t)) : 0;
    const { frames } = run(48000, 2, voice);
    const levels = frames.map((f) => rms(Float32Array.from(f, (s) => s / 0x8000)));
    // Frames 0–5 (0–300 ms) speak, 6–9 (300–500 ms) are silent; the pattern repeats every 10 frames.
    for (let cycle = 0; cycle < 3; cycle++) {
      expect(levels[cycle * 10 + 2]!).toBeGreaterThan(0.05);
      expect(levels[cycle * 10 + 8]!).toBeLessThan(0.005);
    }
  });

  it('clamps to PCM16 without wrapping and downmixes stereo to the mean', () => {
    const framer = new Framer(4);
    const [f] = framer.push(Float32Array.from([1.5, -1.5, 1, -1]));
    expect([...f!]).toEqual([32767, -32768, 32767, -32768]);
    const mono = downmix([Float32Array.from([1, 0]), Float32Array.from([0, 1])]);
    expect([...mono]).toEqual([0.5, 0.5]);
  });
});
