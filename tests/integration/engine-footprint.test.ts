/**
 * The engine's idle memory (issue 12.17): nothing is preloaded, decoders and
 * speech detectors are made by the work that needs them, and once they have
 * been unused for the idle time the process gives their memory back (a full
 * GC for natively backed objects, then malloc_trim). The figures over a
 * minute of idle time are in `npm run bench -- footprint`; here the idle time
 * is 2 s.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SphinxRecognizer } from '../../src/engine/recognizer/index';
import { CLIPS, concatSpeech, hasFlite, makeSpeech } from '../fixtures/speech';
import { launchEngine, rssAtMostMiB, rssMiB, settledRssMiB, type Child } from './support/processes';

const KEY = 'footprint-test-key';
const probe = new SphinxRecognizer({ poolSize: 0 });
const ready = hasFlite() && probe.available;
probe.dispose();

let dir: string;
let engine: Child;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'engine-footprint-'));
  if (ready) engine = await launchEngine(join(dir, 'data'), KEY, ['--idle-seconds', '2']);
});

afterAll(async () => {
  await engine?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(!ready)('engine memory over a short working day', () => {
  it('starts small, grows while it transcribes, and gives the memory back after the idle time', async () => {
    const pid = engine.proc.pid as number;
    const idle = await settledRssMiB(pid);
    expect(idle).toBeLessThan(150);

    const base = `http://127.0.0.1:${engine.port}`;
    const call = async (path: string, init: RequestInit = {}) => {
      const res = await fetch(base + path, { ...init, headers: { authorization: KEY, ...(init.headers as Record<string, string>) } });
      return (await res.json()) as Record<string, unknown>;
    };
    const speech = concatSpeech(
      dir,
      'talk',
      Object.entries(CLIPS).map(([k, t]) => makeSpeech(dir, k, t)),
      0.6,
    );
    const up = await call('/v2/upload', { method: 'POST', body: readFileSync(speech) });
    const ids: string[] = [];
    for (let i = 0; i < 2; i++) {
      const t = await call('/v2/transcript', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ audio_url: up.upload_url }),
      });
      ids.push(t.id as string);
    }
    let peak = idle;
    for (;;) {
      peak = Math.max(peak, rssMiB(pid));
      const all = await Promise.all(ids.map((id) => call(`/v2/transcript/${id}`)));
      if (all.every((t) => t.status === 'completed' || t.status === 'error')) {
        expect(all.map((t) => t.status)).toEqual(['completed', 'completed']);
        break;
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    // Loading a decoder costs well over 100 MiB: the peak shows the work really held them.
    expect(peak - idle).toBeGreaterThan(100);

    // After the idle time the engine collects and trims: sampled until it has (at most 60 s).
    const after = await rssAtMostMiB(pid, idle + 39, 60_000);
    // What stays is the C libraries' touched pages and allocator arenas of the decoding threads
    // (20–25 MiB here); the decoders themselves (over 100 MiB each) are gone.
    expect(after - idle).toBeLessThan(40);
  }, 400_000);
});
