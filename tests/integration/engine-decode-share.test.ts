// The engine wires the decode policy: each open /v3/ws session keeping a core ahead
// of a file job's parallel segments (counted while the socket is open, given back when it closes).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { availableParallelism } from 'node:os';
import { currentShare, decodeShare } from '../../src/engine/recognizer/decode-share';
import type { RunningEngine } from '../../src/engine/server';
import { engineSandbox } from '../support/engine';

const KEY = 'decode-share-key';
const sandbox = engineSandbox('verbatim-decode-share-');
let engine: RunningEngine;

beforeAll(async () => {
  engine = await sandbox.start(KEY, { workers: 1 });
});
afterAll(() => sandbox.cleanup());

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((r) => setTimeout(r, 10));
}

describe('decode share in the engine', () => {
  it('gives a live session its core while its socket is open, and back when it closes', async () => {
    const cores = availableParallelism();
    const alone = decodeShare({ cores, fileJobs: 1, workers: 1, liveSessions: 0 }).parallelSegments;
    const beside = decodeShare({ cores, fileJobs: 1, workers: 1, liveSessions: 1 }).parallelSegments;
    expect(currentShare().parallelSegments).toBe(alone);
    const ws = new WebSocket(`${engine.url.replace(/^http/, 'ws')}/v3/ws?sample_rate=16000`, { headers: { authorization: KEY } });
    const begun = new Promise<void>((res, rej) => {
      ws.on('message', (d) => (JSON.parse(d.toString()) as { type: string }).type === 'Begin' && res());
      ws.once('error', rej);
    });
    await begun;
    expect(currentShare().parallelSegments).toBe(beside);
    ws.close();
    await until(() => currentShare().parallelSegments === alone);
  });
});
