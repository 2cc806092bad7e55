/**
 * Live streams that take their PocketSphinx decoder on first use (issue 26,
 * item 15): a stream that never hears speech holds none; while streams wait,
 * at most `spares` idle decoders are made ready for them, and those never
 * used are freed when no stream waits any more. Real decoders, real speech.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeToRaw, readSamples } from '../../src/engine/audio/decode';
import { LIVE_DECODER_ARGS, SphinxRecognizer } from '../../src/engine/recognizer/index';
import { hasFlite, makeSpeech } from '../fixtures/speech';

let dir: string;
let pcm: Int16Array;
const probe = new SphinxRecognizer({ poolSize: 0 });
const ready = hasFlite() && probe.available;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'recognizer-spares-'));
  if (!ready) return;
  const wav = makeSpeech(dir, 'ticket', 'the ticket came in this morning');
  const raw = join(dir, 'ticket.raw');
  pcm = await readSamples(raw, 0, await decodeToRaw(wav, raw));
});

afterAll(() => {
  probe.dispose();
  rmSync(dir, { recursive: true, force: true });
});

const live = () => new SphinxRecognizer({ poolSize: 2, spares: 2, maxDecoders: 4, preset: LIVE_DECODER_ARGS });

describe.skipIf(!ready)('live streams opened on first use', () => {
  it('hold no decoder while silent: two spares at most are made for four waiting streams, freed when they close unused', async () => {
    const rec = live();
    try {
      const streams = await Promise.all(Array.from({ length: 4 }, () => rec.openStream({ onFirstUse: true })));
      await expect.poll(() => rec.pooledDecoders, { timeout: 60_000, interval: 20 }).toBe(2);
      expect(rec.makingSpare).toBe(false);

      // One stream speaks: it takes a spare at once, and another is made for the three still waiting.
      const [speaker, ...silent] = streams as [Awaited<ReturnType<SphinxRecognizer['openStream']>>, ...Awaited<ReturnType<SphinxRecognizer['openStream']>>[]];
      await speaker.accept(pcm);
      const words = await speaker.finish();
      expect(words.map((w) => w.text).join(' ')).toMatch(/ticket/);
      await expect.poll(() => rec.pooledDecoders, { timeout: 60_000, interval: 20 }).toBe(2);

      // The silent ones close: the spares made for them go; the used decoder comes back to the pool, warm.
      for (const s of silent) s.close();
      expect(rec.pooledDecoders).toBe(0);
      speaker.close();
      await expect.poll(() => rec.pooledDecoders, { timeout: 30_000, interval: 20 }).toBe(1);
      await expect(speaker.accept(pcm)).rejects.toThrow(/closed/);
    } finally {
      rec.dispose();
    }
  });

  it('a spare still being made when its only stream closes is freed as it lands', async () => {
    const rec = live();
    try {
      const s = await rec.openStream({ onFirstUse: true });
      expect(rec.makingSpare).toBe(true);
      s.close();
      await expect.poll(() => rec.makingSpare, { timeout: 60_000, interval: 20 }).toBe(false);
      expect(rec.pooledDecoders).toBe(0);
      await expect(s.partial()).rejects.toThrow(/closed/);
    } finally {
      rec.dispose();
    }
  });
});
