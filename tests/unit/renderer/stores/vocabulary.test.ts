// The vocabulary store against a fake VerbatimApi: what a correction offers, learning the word, and Fix everywhere's find and apply.
import { describe, expect, it } from 'vitest';
import { createStore } from 'zustand/vanilla';
import { vocabularyState } from '../../../../src/renderer/src/stores/vocabulary';
import { liveKeyterms } from '../../../../src/main/services/vocabulary/service';
import { FakeApi } from '../support/fake-api';

function make(api: FakeApi) {
  return createStore<ReturnType<ReturnType<typeof vocabularyState>>>()(vocabularyState(api as never));
}

describe('the vocabulary store', () => {
  it('offers to learn a spelling correction, and nothing for punctuation or a change of capitals', () => {
    const store = make(new FakeApi());
    store.getState().corrected('r1', 'Phebe,', 'Phoebe,');
    expect(store.getState().offer).toMatchObject({ recordingId: 'r1', from: 'Phebe', to: 'Phoebe', term: 'Phoebe', known: false });
    store.getState().corrected('r1', 'hello', 'hello.');
    expect(store.getState().offer).toBeNull();
    store.getState().corrected('r1', 'phoebe', 'Phoebe');
    expect(store.getState().offer).toBeNull();
  });

  it('offers nothing for a correction too long to be one term, rather than a cut one', () => {
    const store = make(new FakeApi());
    store.getState().corrected('r1', 'x', 'one two three four five six seven');
    expect(store.getState().offer).toBeNull();
    store.getState().corrected('r1', 'x', 'y'.repeat(51));
    expect(store.getState().offer).toBeNull();
  });

  it('learns the word through vocabulary.add and finds the wrong form for Fix everywhere', async () => {
    const api = new FakeApi()
      .handle('vocabulary.add', ({ term }) => ({ vocabulary: [term] }))
      .handle('vocabulary.fixFind', () => ({
        matches: [{ recordingId: 'r2', title: 'Call', count: 2, snippet: [{ text: 'Phebe', match: true }] }],
        total: 1,
        complete: true,
      }))
      .handle('vocabulary.fixApply', ({ recordingIds }) => ({ batchId: 'b1', recordings: recordingIds.length, words: 2 }));
    const store = make(api);
    store.getState().corrected('r1', 'Phebe', 'Phoebe');
    await store.getState().learn();
    expect(api.callsTo('vocabulary.add')).toEqual([{ term: 'Phoebe' }]);
    expect(store.getState().offer?.known).toBe(true);
    await store.getState().openFix();
    expect(store.getState().fix).toMatchObject({ from: 'Phebe', to: 'Phoebe', loading: false, total: 1 });
    await store.getState().applyFix(['r2']);
    expect(api.callsTo('vocabulary.fixApply')).toEqual([{ from: 'Phebe', to: 'Phoebe', recordingIds: ['r2'] }]);
    expect(store.getState().fix).toBeNull();
  });

  it('shows how far Fix everywhere is while it changes the transcripts (vocabulary.fixProgress), and stops listening when done', async () => {
    let finish!: (v: { batchId: string; recordings: number; words: number }) => void;
    const api = new FakeApi()
      .handle('vocabulary.fixFind', () => ({ matches: [{ recordingId: 'r2', title: 'Call', count: 2, snippet: [] }], total: 1, complete: true }))
      .handle('vocabulary.fixApply', () => new Promise((resolve) => (finish = resolve)));
    const store = make(api);
    store.getState().corrected('r1', 'Phebe', 'Phoebe');
    await store.getState().openFix();
    const applying = store.getState().applyFix(['r2']);
    await Promise.resolve();
    api.emit('vocabulary.fixProgress', { done: 120, total: 400 });
    expect(store.getState().fix).toMatchObject({ applying: true, progress: { done: 120, total: 400 } });
    finish({ batchId: 'b1', recordings: 400, words: 800 });
    await applying;
    expect(store.getState().fix).toBeNull();
    expect(api.listenerCount('vocabulary.fixProgress')).toBe(0);
  });

  it('gives live captions the session’s own terms first, then the vocabulary, within the streaming limit', () => {
    expect(liveKeyterms(['Acme'], ['Phoebe', 'acme'])).toEqual(['Acme', 'Phoebe']);
    expect(liveKeyterms(undefined, [])).toBeUndefined();
    expect(
      liveKeyterms(
        Array.from({ length: 90 }, (_, i) => `a${i}`),
        Array.from({ length: 30 }, (_, i) => `b${i}`),
      ),
    ).toHaveLength(100);
  });
});
