/**
 * Noise suppression before recognition (audio/denoise.ts), on real speech
 * (flite) and real noise (sox): the SNR estimate tells noisy recordings from
 * clean ones, denoising keeps the file's length and timing and takes the
 * noise down, clean files are left byte for byte, and a noisy sentence is
 * recognized better for it.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeToRaw } from '../../src/engine/audio/decode';
import { DENOISE_BELOW_DB, denoiseError, denoiseRaw, estimateSnrDb, suppressNoise } from '../../src/engine/audio/denoise';
import { SphinxRecognizer } from '../../src/engine/recognizer/index';
import { wordErrorRate } from '../../src/engine/text/wer';
import { hasSpeechTools, makeSpeech, withRoomNoise } from '../fixtures/speech';
import { recognizeFile } from './support/transcribe';

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
    // Silence throughout is not noise: nothing is denoised.
    const silence = join(dir, 'silence.wav');
    execFileSync('sox', ['-n', '-r', '16000', '-c', '1', '-b', '16', silence, 'trim', '0', '2']);
    const c = await raw(silence, 'silence');
    expect(await estimateSnrDb(c.path, c.samples)).toBe(Infinity);
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

  it('sentences in 10 dB room noise are recognized with fewer errors once denoised', async () => {
    const rec = new SphinxRecognizer({ poolSize: 1 });
    if (!rec.available) return;
    const said = [
      { voice: 'slt', text: 'the package should arrive on monday morning before the meeting starts' },
      { voice: 'rms', text: 'we will look at the market and the budget before the launch' },
      { voice: 'awb', text: 'please send the report to the whole team by friday afternoon' },
    ];
    let plain = 0;
    let denoised = 0;
    for (const [i, s] of said.entries()) {
      const clean = join(dir, `said-${i}.wav`);
      execFileSync('flite', ['-voice', s.voice, '-t', s.text, '-o', clean]);
      const file = withRoomNoise(clean, 10, join(dir, `said-${i}-noisy.wav`), 1);
      const recognize = async (denoise: boolean) => {
        const r = await recognizeFile(rec, file, join(dir, `said-${i}-${denoise}.raw`), { denoise });
        expect(r.denoised).toBe(denoise);
        return r.words.map((w) => w.text).join(' ');
      };
      plain += wordErrorRate(s.text, await recognize(false));
      denoised += wordErrorRate(s.text, await recognize(true));
    }
    rec.dispose();
    expect(denoised, `summed WER: ${plain.toFixed(2)} as recorded, ${denoised.toFixed(2)} denoised`).toBeLessThan(plain);
  });
});
