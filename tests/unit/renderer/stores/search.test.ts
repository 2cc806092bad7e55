// The library search store narrowed to one person: the voice goes with the query, picking or removing a person
// runs the search again at once, renaming the picked voice does not, and Clear forgets the person too.
import { describe, expect, it } from 'vitest';
import { createStore } from 'zustand/vanilla';
import { searchState } from '../../../../src/renderer/src/stores/search';
import { FakeApi } from '../support/fake-api';

const hit = { recordingId: 'rec-1', title: 'Monday', startMs: 0, rank: -1, snippet: [{ text: 'budget', match: true }] };

describe('library search narrowed to one person', () => {
  it('sends the voice with the query and runs again when the person changes', async () => {
    const api = new FakeApi().handle('search.query', () => ({ hits: [hit], tookMs: 1 }));
    const store = createStore(searchState(api));
    store.getState().setPerson({ id: 'v-dana', name: 'Dana' });
    // No query yet: nothing to run.
    expect(api.callsTo('search.query')).toEqual([]);
    store.setState({ query: 'budget' });
    await store.getState().run();
    expect(api.callsTo('search.query')).toEqual([{ query: 'budget', limit: 50, offset: 0, voiceId: 'v-dana' }]);
    expect(store.getState().hits).toEqual([hit]);

    // A new name of the same voice changes no hit: no new search.
    store.getState().setPerson({ id: 'v-dana', name: 'Dana Ruiz' });
    expect(store.getState().person).toEqual({ id: 'v-dana', name: 'Dana Ruiz' });
    expect(api.callsTo('search.query')).toHaveLength(1);

    // Everyone again: searched at once, without a voice.
    store.getState().setPerson(null);
    await expect.poll(() => api.callsTo('search.query').length).toBe(2);
    expect(api.callsTo('search.query')[1]).toEqual({ query: 'budget', limit: 50, offset: 0 });

    store.getState().setPerson({ id: 'v-lee', name: 'Lee' });
    store.getState().clear();
    expect(store.getState()).toMatchObject({ query: '', person: null, hits: [] });
  });
});
