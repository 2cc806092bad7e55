// The captions header's delay: a whole number of milliseconds from the first measurement on (the capture clock is fractional).
import { describe, expect, it } from 'vitest';
import { createStore } from 'zustand/vanilla';
import { formatDelay } from '../../../../src/renderer/src/features/captions/delay';
import { captionsState, connectCaptions, type CaptionsState } from '../../../../src/renderer/src/stores/captions';
import type { CaptionsRun, LiveTurn } from '../../../../src/shared/captions';
import { FakeApi } from '../support/fake-api';

describe('formatDelay', () => {
  it('shows whole milliseconds under a second and tenths of a second above', () => {
    expect(formatDelay(26.804931640625)).toBe('27 ms');
    expect(formatDelay(0.4)).toBe('0 ms');
    expect(formatDelay(999.6)).toBe('1.0 s');
    expect(formatDelay(1549)).toBe('1.5 s');
  });
});

describe('captions store latency', () => {
  it('holds whole milliseconds from the first growing turn measured, though the capture time is fractional', async () => {
    // The store hands each figure to the e2e probe on window; this runs in Node.
    const g = globalThis as { window?: unknown };
    const hadWindow = 'window' in g;
    g.window ??= {};
    const run: CaptionsRun = { run: 1, recordingId: 'rec-1', title: 'Live session', startedAt: '2026-01-01T00:00:00.000Z' };
    const api = new FakeApi().handle('captions.current', () => ({ run, turns: [], status: [] }));
    const store = createStore<CaptionsState>()(captionsState(api));
    const disconnect = connectCaptions(api, store);
    await store.getState().loadCurrent();
    const measured = new Promise<number>((resolve) => {
      const off = store.subscribe((s) => {
        if (s.latencyMs !== null) {
          off();
          resolve(s.latencyMs);
        }
      });
    });
    const turn: LiveTurn = {
      run: run.run,
      source: 'mic',
      key: 'm1',
      text: 'hello',
      words: [],
      final: false,
      startMs: 0,
      endMs: 500,
      receivedAt: Date.now(),
      capturedAt: Date.now() - 26.804931640625,
    };
    api.emit('captions.turn', turn);
    const ms = await measured;
    expect(Number.isInteger(ms)).toBe(true);
    disconnect();
    if (!hadWindow) delete g.window;
  });
});
