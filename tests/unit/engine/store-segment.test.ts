import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { findSpeechSegments, segmentsFromEnergies } from '../../../src/engine/audio/segment';
import { transcriptParams } from '../../support/transcript-params';
import { Store } from '../../../src/engine/store';

const dir = mkdtempSync(join(tmpdir(), 'engine-unit-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const params = transcriptParams({ audio_url: 'http://x/a.wav' });

describe('store', () => {
  it('queues durably: claims in order, re-queues interrupted jobs on reopen', () => {
    const path = join(dir, 'db1');
    const s = new Store(path);
    s.insertTranscript('a', params, null);
    s.insertTranscript('b', params, null);
    expect(s.claimNextJob()?.id).toBe('a');
    s.close();
    const s2 = new Store(path);
    expect(s2.requeueInterrupted()).toBe(1);
    expect(s2.claimNextJob()?.id).toBe('a');
    expect(s2.claimNextJob()?.id).toBe('b');
    expect(s2.claimNextJob()).toBeNull();
    s2.complete('a', { text: 'hi', words: [], sentences: [], confidence: 0.9, audio_duration: 1, speech_model_used: 'universal-2', warnings: [] }, null);
    expect(s2.getCompletedTranscript('a')?.text).toBe('hi');
    expect(s2.getCompletedTranscript('b')).toBeNull();
    s2.close();
  });

  it('pages newest first with before/after', () => {
    const s = new Store(join(dir, 'db2'));
    for (const id of ['t1', 't2', 't3', 't4', 't5']) s.insertTranscript(id, params, null);
    const page = s.list({ limit: 2 });
    expect(page.map((t) => t.id)).toEqual(['t5', 't4']);
    const older = s.list({ limit: 2, beforeSeq: page[1]!.seq });
    expect(older.map((t) => t.id)).toEqual(['t3', 't2']);
    expect(s.list({ limit: 2, afterSeq: older[0]!.seq }).map((t) => t.id)).toEqual(['t5', 't4']);
    expect(s.hasBeyond(older[1]!.seq, 'older', {})).toBe(true);
    s.close();
  });
});

describe('segmentation', () => {
  it('splits energies at silences, pads and caps segment length', () => {
    const e = new Float32Array(1000).fill(0);
    e.fill(60, 100, 200);
    e.fill(60, 300, 400);
    e.fill(60, 405, 410);
    const segs = segmentsFromEnergies(e, { minSilenceMs: 400, padMs: 100, maxSegmentMs: 30_000 });
    expect(segs).toEqual([
      { start: 90 * 160, end: 210 * 160 },
      { start: 290 * 160, end: 420 * 160 },
    ]);
    const long = new Float32Array(5000).fill(60);
    const capped = segmentsFromEnergies(long, { maxSegmentMs: 10_000 });
    expect(capped.every((s) => s.end - s.start <= 1000 * 160)).toBe(true);
    expect(capped[capped.length - 1]!.end).toBe(5000 * 160);
  });

  it('finds the tone in a raw file with silence around it (energy fallback)', async () => {
    const pcm = new Int16Array(16000 * 3);
    for (let i = 16000; i < 32000; i++) pcm[i] = Math.round(8000 * Math.sin((2 * Math.PI * 440 * i) / 16000));
    const path = join(dir, 'tone.raw');
    writeFileSync(path, Buffer.from(pcm.buffer));
    const segs = await findSpeechSegments(path, pcm.length, { useVad: false, padMs: 0 });
    expect(segs).toHaveLength(1);
    expect(Math.abs(segs[0]!.start - 16000)).toBeLessThan(320);
    expect(Math.abs(segs[0]!.end - 32000)).toBeLessThan(320);
  });
});

describe('store crash loop guard', () => {
  it('fails a job interrupted three times instead of queueing it forever', () => {
    const path = join(dir, 'db3');
    for (let i = 0; i < 3; i++) {
      const s = new Store(path);
      if (i === 0) s.insertTranscript('p', params, null);
      else expect(s.requeueInterrupted()).toBe(1);
      expect(s.claimNextJob()?.id).toBe('p');
      s.close();
    }
    const s = new Store(path);
    expect(s.requeueInterrupted()).toBe(0);
    const t = s.getTranscript('p');
    expect(t?.status).toBe('error');
    expect(t?.error).toMatch(/may be submitted again/);
    s.close();
  });
});
