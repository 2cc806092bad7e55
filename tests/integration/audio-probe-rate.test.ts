/**
 * The decode step's sample-rate probe (ffprobe), which tells a job whether its
 * source is narrowband: only those are adapted to their speaker.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probeSampleRate } from '../../src/engine/audio/decode';
import { stopSpawner } from '../../src/engine/audio/spawner';

let dir: string;
const hasSox = spawnSync('sox', ['--version']).status === 0;

/** A second of a 1 kHz tone at `rate`. */
function tone(name: string, rate: number): string {
  const f = join(dir, name);
  execFileSync('sox', ['-n', '-r', String(rate), '-c', '1', '-b', '16', f, 'synth', '1', 'sine', '1000', 'vol', '0.3']);
  return f;
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'probe-rate-'));
});

afterAll(() => {
  stopSpawner();
  rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(!hasSox)('sample-rate probe', () => {
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

  it('refuses playlists like the decoder does', async () => {
    const list = join(dir, 'list.m3u8');
    writeFileSync(list, `#EXTM3U\n#EXTINF:1,\n${tone('b8.wav', 8000)}\n`);
    expect(await probeSampleRate(list, join(dir, 'list.raw'))).toBeNull();
  });
});
