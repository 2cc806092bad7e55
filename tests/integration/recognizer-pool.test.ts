/**
 * The recognizer's decoders and the segmenter's VAD detectors: created on
 * demand, shared through pools, and freed after the idle time (issue 12.17);
 * the factory's batch and live recognizers; keyterms added to the vocabulary.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeToRaw, readSamples } from '../../src/engine/audio/decode';
import { findSpeechSegments, pooledVadCount, setVadIdleMs } from '../../src/engine/audio/segment';
import { vadStatus } from '../../src/engine/audio/vad';
import { createRecognizers, keytermWarning, keytermWords, SphinxRecognizer } from '../../src/engine/recognizer/index';
import { hasFlite, makeSpeech, withRoomNoise } from '../fixtures/speech';

let dir: string;
let pcm: Int16Array;
const probe = new SphinxRecognizer({ poolSize: 0 });
const ready = hasFlite() && probe.available;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'recognizer-pool-'));
  if (!ready) return;
  const wav = makeSpeech(dir, 'ticket', 'the ticket came in through zendesk this morning');
  const raw = join(dir, 'ticket.raw');
  const n = await decodeToRaw(wav, raw);
  pcm = await readSamples(raw, 0, n);
});

afterAll(() => {
  probe.dispose();
  rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(!ready)('recognizer pools', () => {
  it('frees a pooled decoder once it has been idle for idleMs', async () => {
    // Idle time 2 s: long enough to see the decoder pooled first, then polled until it is freed.
    const rec = new SphinxRecognizer({ poolSize: 2, idleMs: 2000 });
    try {
      const words = await rec.recognize(pcm);
      expect(words.map((w) => w.text).join(' ')).toMatch(/ticket/);
      await expect.poll(() => rec.pooledDecoders, { interval: 10 }).toBe(1);
      await expect.poll(() => rec.pooledDecoders, { timeout: 30_000, interval: 50 }).toBe(0);
      // And a new request simply creates one again.
      expect((await rec.recognize(pcm)).length).toBeGreaterThan(3);
    } finally {
      rec.dispose();
    }
  });

  it.skipIf(!vadStatus().available)('frees pooled VAD detectors after the idle time', async () => {
    setVadIdleMs(2000);
    try {
      const raw = join(dir, 'ticket.raw');
      const segs = await findSpeechSegments(raw, pcm.length);
      expect(segs.length).toBeGreaterThan(0);
      expect(pooledVadCount()).toBeGreaterThan(0);
      await expect.poll(() => pooledVadCount(), { timeout: 30_000, interval: 50 }).toBe(0);
    } finally {
      setVadIdleMs(60_000);
    }
  });

  it('reads the same audio the same way whatever a pooled decoder heard before', async () => {
    // An 8 kHz voice (nothing above 4 kHz) and a loud noisy clip: the front end's noise estimate moves a lot between them.
    const kal = join(dir, 'kal.wav');
    execFileSync('flite', ['-voice', 'kal', '-t', 'the store closes at nine in the evening and opens at eight', '-o', kal]);
    const loud = withRoomNoise(makeSpeech(dir, 'loud', 'thank you for your help with the project'), 0, join(dir, 'loud-noisy.wav'));
    const samples = async (wav: string): Promise<Int16Array> => {
      const raw = `${wav}.raw`;
      return readSamples(raw, 0, await decodeToRaw(wav, raw));
    };
    const [a, b] = [await samples(kal), await samples(loud)];
    const rec = new SphinxRecognizer({ poolSize: 1 });
    try {
      const text = async (pcm: Int16Array) => (await rec.recognize(pcm)).map((w) => w.text).join(' ');
      const first = await text(a);
      const heard = [first];
      for (let i = 0; i < 3; i++) {
        await text(b);
        heard.push(await text(a));
      }
      expect(new Set(heard)).toEqual(new Set([first]));
    } finally {
      rec.dispose();
    }
  });

  it('gives a batch and a live recognizer with settings of their own', async () => {
    const set = createRecognizers({ workers: 1, maxSessions: 1, liveVad: true, idleMs: 1000 });
    try {
      expect(set.batch.available && set.live.available).toBe(true);
      expect(set.batch).not.toBe(set.live);
      const s = await set.live.openStream();
      await s.accept(pcm);
      const words = await s.finish();
      s.close();
      expect(words.map((w) => w.text).join(' ')).toMatch(/ticket/);
    } finally {
      set.dispose();
    }
  });
});

describe.skipIf(!ready)('keyterms', () => {
  it('splits keyterms into dictionary-style words', () => {
    expect(keytermWords(['Zendesk', 'Acme Corp.', "O'Brien's", '42'])).toEqual(['acme', 'corp', "o'brien's", 'zendesk']);
  });

  it('adds words missing from the dictionary, leaves known ones, and says which it could not add', async () => {
    const rec = new SphinxRecognizer({ poolSize: 1, idleMs: 1000 });
    try {
      const report = await rec.prepareKeyterms(['Zendesk', 'Siobhan', 'Qxzvkj']);
      expect(report).toEqual({ added: ['zendesk'], known: ['siobhan'], skipped: ['qxzvkj'] });
      const warning = keytermWarning(report) ?? '';
      expect(warning).toMatch(/added "zendesk"/);
      expect(warning).toMatch(/already knew "siobhan"/);
      expect(warning).toMatch(/could not add "qxzvkj"/);
      // The added word can now be recognised; a plain decoder (no keyterms) cannot produce it.
      const boosted = (await rec.recognize(pcm, { keyterms: ['Zendesk', 'Siobhan', 'Qxzvkj'] })).map((w) => w.text);
      const plain = (await rec.recognize(pcm)).map((w) => w.text);
      expect(plain).not.toContain('zendesk');
      expect(boosted).toContain('zendesk');
    } finally {
      rec.dispose();
    }
  });

  it('says the terms were ignored when a recognizer cannot use them', () => {
    expect(keytermWarning(null)).toMatch(/ignored/);
    expect(keytermWarning({ added: [], known: [], skipped: [] })).toBeNull();
  });
});
