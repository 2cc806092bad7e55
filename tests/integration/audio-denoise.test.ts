/**
 * Noise suppression before recognition (audio/denoise.ts), on real speech
 * (flite) and real noise (sox): the SNR estimate tells noisy recordings from
 * clean ones, denoising keeps the file's length and timing and takes the
 * noise down, clean files are left byte for byte, and a noisy sentence is
 * recognized better for it.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeToRaw, readSamples } from '../../src/engine/audio/decode';
import { DENOISE_BELOW_DB, denoiseError, denoiseRaw, estimateSnrDb, suppressNoise } from '../../src/engine/audio/denoise';
import { findSpeechSegments } from '../../src/engine/audio/segment';
import { SphinxRecognizer } from '../../src/engine/recognizer/index';
import { wordErrorRate } from '../../src/engine/text/wer';
import { hasSpeechTools, makeSpeech, withRoomNoise } from '../fixtures/speech';

const TEXT = 'please call me back when you get this message';
let dir: string;

async function raw(file: string, name: string): Promise<{ path: string; samples: number }> {
  const path = join(dir, `${name}.raw`);
  return { path, samples: await decodeToRaw(file, path) };
}

function levelDb(pcm: Int16Array): number {
  let s = 0;
  for (const v of pcm) s += v * v;
  return 10 * Math.log10(s / pcm.length + 1e-9);
}

const ready = hasSpeechTools() && denoiseError() === null;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'denoise-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe.skipIf(!ready)('noise suppression before recognition', () => {
  it('estimates clean speech far above the threshold and speech in 10 dB room noise below it', async () => {
    const clean = makeSpeech(dir, 'clean', TEXT);
    const a = await raw(clean, 'clean');
    const b = await raw(withRoomNoise(clean, 10, join(dir, 'noisy10.wav'), 1), 'noisy10');
    const cleanSnr = await estimateSnrDb(a.path, a.samples);
    const noisySnr = await estimateSnrDb(b.path, b.samples);
    expect(cleanSnr).toBeGreaterThan(40);
    expect(noisySnr).toBeLessThan(DENOISE_BELOW_DB);
    expect(noisySnr).toBeGreaterThan(5);
  });

  it('keeps the length and the timing of the audio, and takes the noise down', async () => {
    const clean = makeSpeech(dir, 'timing', TEXT);
    const { path, samples } = await raw(withRoomNoise(clean, 10, join(dir, 'timing-noisy.wav'), 1), 'timing');
    const before = new Int16Array(readFileSync(path).buffer.slice(0));
    await denoiseRaw(path, samples);
    const after = new Int16Array(readFileSync(path).buffer.slice(0));
    expect(after.length).toBe(before.length);
    // Noise alone (the first second, before the speech): at least 10 dB quieter.
    expect(levelDb(before.subarray(1600, 14400)) - levelDb(after.subarray(1600, 14400))).toBeGreaterThan(10);
    // The speech keeps its place: the output correlates best with the input at lag 0 (± 1 ms).
    const speech = before.subarray(16000, 16000 + 16000);
    let best = -Infinity;
    let at = 0;
    for (let lag = -64; lag <= 64; lag++) {
      let s = 0;
      for (let i = 0; i < speech.length; i++) s += (speech[i] as number) * ((after[16000 + i + lag] as number) ?? 0);
      if (s > best) {
        best = s;
        at = lag;
      }
    }
    expect(Math.abs(at)).toBeLessThanOrEqual(16);
  });

  it('leaves a clean recording byte for byte as it was', async () => {
    const { path, samples } = await raw(makeSpeech(dir, 'untouched', TEXT), 'untouched');
    const before = readFileSync(path);
    expect(await suppressNoise(path, samples, undefined, () => undefined)).toBe(false);
    expect(readFileSync(path).equals(before)).toBe(true);
  });

  it('a sentence in 10 dB room noise is recognized better once denoised', { timeout: 60_000 }, async () => {
    const rec = new SphinxRecognizer({ poolSize: 1 });
    if (!rec.available) return;
    const file = withRoomNoise(
      makeSpeech(dir, 'words', 'the package should arrive on monday morning before the meeting starts'),
      8,
      join(dir, 'words-noisy.wav'),
      1,
    );
    const recognize = async (name: string, denoise: boolean) => {
      const { path, samples } = await raw(file, name);
      if (denoise) expect(await suppressNoise(path, samples, undefined, (m) => expect.fail(m))).toBe(true);
      const words: string[] = [];
      for (const seg of await findSpeechSegments(path, samples))
        for (const w of await rec.recognize(await readSamples(path, seg.start, seg.end))) words.push(w.text);
      return words.join(' ');
    };
    const ref = 'the package should arrive on monday morning before the meeting starts';
    const plain = wordErrorRate(ref, await recognize('plain', false));
    const denoised = wordErrorRate(ref, await recognize('denoised', true));
    rec.dispose();
    expect(denoised).toBeLessThan(plain);
  });
});
