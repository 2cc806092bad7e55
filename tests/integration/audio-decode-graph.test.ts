/**
 * The decode step's choice of filter graph by the source's sample rate:
 * narrowband sources (telephone, 8 kHz memos) get their empty top band filled
 * so the acoustic model's top filters see what they saw in training.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeToRaw, filtersFor, NARROWBAND_FILTERS, probeSampleRate, SPEECH_FILTERS } from '../../src/engine/audio/decode';
import { stopSpawner } from '../../src/engine/audio/spawner';

let dir: string;
const hasSox = spawnSync('sox', ['--version']).status === 0;

/** RMS amplitude (0–1) of a raw 16 kHz PCM16 file within a frequency band, measured by sox. */
function bandRms(raw: string, band: string): number {
  const out = spawnSync('sox', ['-t', 'raw', '-r', '16000', '-e', 'signed', '-b', '16', '-c', '1', raw, '-n', 'sinc', band, 'stat'], {
    encoding: 'utf8',
  }).stderr;
  return Number(/RMS\s+amplitude:\s+([\d.]+)/.exec(out)?.[1]);
}

/** A second of a 1 kHz tone at `rate`. */
function tone(name: string, rate: number): string {
  const f = join(dir, name);
  execFileSync('sox', ['-n', '-r', String(rate), '-c', '1', '-b', '16', f, 'synth', '1', 'sine', '1000', 'vol', '0.3']);
  return f;
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'decode-graph-'));
});

afterAll(() => {
  stopSpawner();
  rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(!hasSox)('decode graph by source rate', () => {
  it('reads the sample rate of the first audio stream', async () => {
    expect(await probeSampleRate(tone('a8.wav', 8000), join(dir, 'a8.raw'))).toBe(8000);
    expect(await probeSampleRate(tone('a44.wav', 44100), join(dir, 'a44.raw'))).toBe(44100);
  });

  it('returns null for a file that is not media, and leaves no report file behind', async () => {
    const junk = join(dir, 'junk.wav');
    writeFileSync(junk, 'this is not audio');
    expect(await probeSampleRate(junk, join(dir, 'junk.raw'))).toBeNull();
    expect(readdirSync(dir).filter((f) => f.endsWith('.rate'))).toEqual([]);
  });

  it('picks the narrowband graph below 11.025 kHz and the speech graph otherwise', async () => {
    expect(await filtersFor(tone('b8.wav', 8000), join(dir, 'b8.raw'))).toBe(NARROWBAND_FILTERS);
    expect(await filtersFor(tone('b11.wav', 11025), join(dir, 'b11.raw'))).toBe(SPEECH_FILTERS);
    expect(await filtersFor(tone('b16.wav', 16000), join(dir, 'b16.raw'))).toBe(SPEECH_FILTERS);
  });

  it('fills the empty band above 4 kHz of an 8 kHz source at about -40 dBFS, and leaves a 16 kHz source quiet there', async () => {
    const narrow = join(dir, 'c8.raw');
    const wide = join(dir, 'c16.raw');
    expect(await decodeToRaw(tone('c8.wav', 8000), narrow)).toBe(16000);
    expect(await decodeToRaw(tone('c16.wav', 16000), wide)).toBe(16000);
    const filled = bandRms(narrow, '4500-7000');
    expect(filled).toBeGreaterThan(0.002);
    expect(filled).toBeLessThan(0.02);
    expect(bandRms(wide, '4500-7000')).toBeLessThan(0.0005);
    // The speech band itself is untouched by the fill.
    expect(bandRms(narrow, '800-1200')).toBeGreaterThan(0.15);
  });

  it('keeps an explicit graph over the automatic choice', async () => {
    const out = join(dir, 'd8.raw');
    await decodeToRaw(tone('d8.wav', 8000), out, { filters: SPEECH_FILTERS });
    expect(bandRms(out, '4500-7000')).toBeLessThan(0.0005);
    expect(existsSync(`${out}.rate`)).toBe(false);
  });
});
