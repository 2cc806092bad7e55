// "Still recording?" in the live-captions store against a fake VerbatimApi: the question shown for this run only, withdrawn by main, and Keep recording sent.
import { describe, expect, it } from 'vitest';
import { createStore } from 'zustand/vanilla';
import { captionsState, connectCaptions, type CaptionsState } from '../../../../src/renderer/src/stores/captions';
import type { CaptionsRun } from '../../../../src/shared/captions';
import { FakeApi } from '../support/fake-api';

const run: CaptionsRun = { run: 4, recordingId: 'rec-1', title: 'Live session', startedAt: '2026-01-01T00:00:00.000Z' };

describe('still recording?', () => {
  it('shows the question of this run, drops it when main withdraws it, and sends Keep recording', async () => {
    const api = new FakeApi().handle('captions.current', () => ({ run, turns: [], status: [] })).handle('captions.keepRecording', () => ({ kept: true }));
    const store = createStore<CaptionsState>()(captionsState(api));
    const disconnect = connectCaptions(api, store);
    await store.getState().loadCurrent();
    const stopAt = '2026-01-01T00:16:00.000Z';
    api.emit('captions.stillRecording', { run: 99, stopAt, silentMinutes: 15 });
    expect(store.getState().stillRecording).toBeNull();
    api.emit('captions.stillRecording', { run: 4, stopAt, silentMinutes: 15 });
    expect(store.getState().stillRecording).toEqual({ run: 4, stopAt, silentMinutes: 15 });
    api.emit('captions.stillRecording', { run: 4, stopAt: null, silentMinutes: 0 });
    expect(store.getState().stillRecording).toBeNull();
    api.emit('captions.stillRecording', { run: 4, stopAt, silentMinutes: 15 });
    await store.getState().keepRecording();
    expect(store.getState().stillRecording).toBeNull();
    expect(api.callsTo('captions.keepRecording')).toEqual([{ run: 4 }]);
    disconnect();
  });
});
