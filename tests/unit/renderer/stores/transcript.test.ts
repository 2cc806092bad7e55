// The transcript store's active word, against a fake VerbatimApi: the time a media element reads back after a seek.
import { describe, expect, it } from 'vitest';
import { createStore } from 'zustand/vanilla';
import { transcriptState, type TranscriptState } from '../../../../src/renderer/src/stores/transcript';
import type { Transcript } from '../../../../src/shared/library';
import { FakeApi } from '../support/fake-api';

const words = [0, 1160, 2320, 3480].map((start, i) => ({ text: `w${i}`, start, end: start + 1000, confidence: 0.9, speaker: null }));

describe('the transcript store', () => {
  it('makes the word a seek went to active, though the media element reads 2.32 s back as 2.3199999', () => {
    const store = createStore<TranscriptState>()(transcriptState(new FakeApi() as never));
    store.setState({ transcript: { words } as unknown as Transcript });
    store.getState().setTime(2.32 * 1000 - 1e-6);
    expect(store.getState().active).toBe(2);
    store.getState().setTime(2319.4);
    expect(store.getState().active).toBe(1);
  });
});
