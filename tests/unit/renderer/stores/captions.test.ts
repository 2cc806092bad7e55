// The live-captions store against a fake VerbatimApi: the current run on connect, turns kept in time order, a run started elsewhere followed.
import { describe, expect, it } from 'vitest';
import { createStore } from 'zustand/vanilla';
import { captionsState, connectCaptions, silentSource, type CaptionsState } from '../../../../src/renderer/src/stores/captions';
import type { CaptionsRun, LiveTurn } from '../../../../src/shared/captions';
import { FakeApi } from '../support/fake-api';

const run: CaptionsRun = { run: 3, recordingId: 'rec-9', title: 'Live session', startedAt: '2026-01-01T00:00:00.000Z' };
const turn = (key: string, source: 'mic' | 'system', startMs: number, text: string, final = false): LiveTurn => ({
  run: run.run,
  source,
  key,
  text,
  words: [],
  final,
  startMs,
  endMs: startMs + 500,
  receivedAt: 0,
  capturedAt: null,
});

function setup() {
  const api = new FakeApi().handle('captions.current', () => ({
    run,
    turns: [turn('m2', 'mic', 2000, 'second'), turn('m1', 'mic', 1000, 'first', true)],
    status: [{ run: run.run, source: 'mic' as const, state: 'live' as const, message: null }],
  }));
  const store = createStore<CaptionsState>()(captionsState(api));
  return { api, store };
}

describe('captions store', () => {
  it('takes up a run already going: its turns in time order and each source’s status', async () => {
    const { store } = setup();
    await store.getState().loadCurrent();
    const s = store.getState();
    expect(s.run).toEqual(run);
    expect(s.phase).toBe('running');
    expect(s.order).toEqual(['m1', 'm2']);
    expect(s.status.mic?.state).toBe('live');
  });

  it('grows turns in place and slots an earlier turn of the other source before the later one', async () => {
    const { api, store } = setup();
    const disconnect = connectCaptions(api, store);
    await store.getState().loadCurrent();
    api.emit('captions.turn', turn('m2', 'mic', 2000, 'second turn', true));
    api.emit('captions.turn', turn('s1', 'system', 1500, 'from the call'));
    api.emit('captions.turn', { ...turn('x', 'mic', 0, 'another run'), run: 99 });
    const s = store.getState();
    expect(s.order).toEqual(['m1', 's1', 'm2']);
    expect(s.turns.m2?.text).toBe('second turn');
    expect(s.turns.x).toBeUndefined();
    api.emit('captions.status', { run: run.run, source: 'system', state: 'reconnecting', message: 'Reconnecting…' });
    expect(store.getState().status.system?.message).toBe('Reconnecting…');
    disconnect();
    expect(api.listenerCount()).toBe(0);
  });

  it('follows a run started and stopped in another window', () => {
    const { api, store } = setup();
    const disconnect = connectCaptions(api, store);
    api.emit('captions.run', { run, stopped: null });
    expect(store.getState()).toMatchObject({ run, phase: 'running', order: [] });
    const stopped = { run: run.run, recordingId: run.recordingId, turns: 2, durationMs: 4000, hasAudio: true, lostMs: 0 };
    api.emit('captions.run', { run: null, stopped });
    expect(store.getState()).toMatchObject({ run: null, phase: 'idle', lastStopped: stopped });
    disconnect();
  });

  it('warns about the source that went silent while the other spoke', () => {
    const now = 100_000;
    expect(silentSource({ phase: 'running', run, lastLoud: { mic: now - 11_000, system: now - 1000 } }, now)).toBe('mic');
    expect(silentSource({ phase: 'running', run, lastLoud: { mic: now - 1000, system: now - 1000 } }, now)).toBeNull();
    expect(silentSource({ phase: 'idle', run: null, lastLoud: { mic: 0, system: now } }, now)).toBeNull();
  });
});
