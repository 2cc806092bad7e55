/**
 * The streaming client against the real local engine's /v3/ws: real speech
 * (flite → 16 kHz PCM by ffmpeg) sent in real time as 50 ms frames through the
 * region clients of the core, Turns back, a clean Terminate.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { hasSpeechTools } from '../fixtures/speech';
import { afterAll, describe, expect, it } from 'vitest';
import { createCore } from '../../src/main/core';
import { createHostPlatform } from '../../src/main/platform/host';
import type { Turn } from '../../src/main/services/client/streaming';

const tools = hasSpeechTools();
if (!tools) console.log('app-streaming test skipped: flite and ffmpeg are needed to make speech');

const dir = mkdtempSync(join(tmpdir(), 'verbatim-app-stream-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe.skipIf(!tools)('streaming client against the local engine', () => {
  it('streams speech in 50 ms frames, receives Turns and terminates cleanly', async () => {
    execFileSync('flite', ['-t', 'Good morning everyone. Today we talk about the weather and the river.', '-o', join(dir, 's.wav')]);
    execFileSync('ffmpeg', [
      '-loglevel',
      'error',
      '-i',
      join(dir, 's.wav'),
      '-af',
      'apad=pad_dur=1.5',
      '-ar',
      '16000',
      '-ac',
      '1',
      '-f',
      's16le',
      join(dir, 's.raw'),
    ]);
    const pcm = readFileSync(join(dir, 's.raw'));
    delete process.env.ASSEMBLYAI_API_KEY;
    const core = createCore(createHostPlatform({ dataDir: join(dir, 'data'), version: 't', keyFile: join(dir, 'k') }), () => true, { log: () => undefined });
    try {
      const turns: Turn[] = [];
      let begin = 0;
      let closedSeconds = -1;
      const errors: string[] = [];
      const client = await core.clients.streaming(
        { formatTurns: true },
        { begin: () => begin++, turn: (t) => turns.push(t), closed: (c) => (closedSeconds = c.audioSeconds), error: (e) => errors.push(e.message) },
      );
      await client.start();
      // Real time: one 50 ms frame every 50 ms (the engine refuses faster than real time).
      for (let off = 0; off < pcm.length; off += 1600) {
        client.sendAudio(pcm.subarray(off, Math.min(pcm.length, off + 1600)));
        await new Promise((r) => setTimeout(r, 50));
      }
      await client.terminate();
      expect(errors).toEqual([]);
      expect(begin).toBe(1);
      expect(turns.length).toBeGreaterThan(0);
      expect(turns.some((t) => t.end_of_turn)).toBe(true);
      expect(closedSeconds).toBeGreaterThan(3);
      expect(turns.filter((t) => t.end_of_turn).some((t) => t.transcript.trim().length > 0)).toBe(true);
      const words = turns.flatMap((t) => t.words);
      expect(words.length).toBeGreaterThan(0);
      expect(Math.max(...words.map((w) => w.end))).toBeLessThanOrEqual(pcm.length / 32 + 500);
    } finally {
      await core.dispose();
    }
  });
});
