// A saved live session's extras in its transcript view: the store against a fake VerbatimApi (summaries and translations read
// once per opening, a late answer for another session never shown), and which paragraph each translated line goes under.
import { describe, expect, it } from 'vitest';
import { createStore } from 'zustand/vanilla';
import { sessionExtrasState, type SessionExtrasState } from '../../../../src/renderer/src/stores/sessionExtras';
import { translationsByBlock } from '../../../../src/renderer/src/features/transcript/sessionTranslations';
import type { MissedSummary, SavedTranslation } from '../../../../src/shared/captions-extras';
import { AppError } from '../../../../src/shared/errors';
import { FakeApi } from '../support/fake-api';

const summary = (recordingId: string, id: string): MissedSummary => ({
  id,
  recordingId,
  fromMs: 0,
  toMs: 120_000,
  status: 'done',
  content: 'The budget meeting starts at nine [00:04].',
  citations: [{ startMs: 4000, label: '00:04' }],
  model: 'verbatim-extractive',
  extractive: true,
  error: null,
  createdAt: '2026-01-01T00:00:00.000Z',
});
const line = (key: string, startMs: number, endMs: number, text = `fr ${key}`): SavedTranslation => ({
  key,
  startMs,
  endMs,
  original: `en ${key}`,
  language: 'fr',
  text,
});

/** Answers each session's summaries when the test lets it (release), so the order of answers is the test's. */
function setup() {
  const waiting = new Map<string, () => void>();
  const api = new FakeApi()
    .handle('captions.summaries', ({ id }) => new Promise((r) => waiting.set(id, () => r({ summaries: id === 'rec-bad' ? [] : [summary(id, `s-${id}`)] }))))
    .handle('captions.translations', ({ id }) => {
      if (id === 'rec-bad') throw new AppError('not_found', 'This live session is no longer in the library.');
      return { translations: [line(`${id}-1`, 0, 900)] };
    });
  const store = createStore<SessionExtrasState>()(sessionExtrasState(api));
  const release = (id: string) => waiting.get(id)?.();
  return { api, store, release };
}

describe('session extras store', () => {
  it("reads a session's summaries and translations, once for the two views that ask as it opens", async () => {
    const { api, store, release } = setup();
    const a = store.getState().load('rec-1');
    const b = store.getState().load('rec-1');
    await Promise.resolve();
    release('rec-1');
    await Promise.all([a, b]);
    expect(api.calls.map((c) => c.channel)).toEqual(['captions.summaries', 'captions.translations']);
    const s = store.getState();
    expect(s.recordingId).toBe('rec-1');
    expect(s.summaries.map((x) => x.id)).toEqual(['s-rec-1']);
    expect(s.summaries[0]?.citations).toEqual([{ startMs: 4000, label: '00:04' }]);
    expect(s.translations.map((x) => x.key)).toEqual(['rec-1-1']);
    expect(s.error).toBeNull();
  });

  it('never shows a session the user has left: a late answer for it is dropped, and the next one starts empty', async () => {
    const { store, release } = setup();
    const first = store.getState().load('rec-1');
    await Promise.resolve();
    const second = store.getState().load('rec-2');
    expect(store.getState().recordingId).toBe('rec-2');
    expect(store.getState().summaries).toEqual([]);
    await Promise.resolve();
    release('rec-2');
    await second;
    release('rec-1');
    await first;
    expect(store.getState().summaries.map((x) => x.id)).toEqual(['s-rec-2']);
    expect(store.getState().translations.map((x) => x.key)).toEqual(['rec-2-1']);
  });

  it('says why it could not read them, and shows none', async () => {
    const { store, release } = setup();
    const done = store.getState().load('rec-bad');
    await Promise.resolve();
    release('rec-bad');
    await done;
    expect(store.getState().summaries).toEqual([]);
    expect(store.getState().error).toContain('no longer in the library');
  });

  it('keeps "Show translation" as the user set it from one session to the next', async () => {
    const { store, release } = setup();
    store.getState().setShowTranslation(true);
    const done = store.getState().load('rec-2');
    await Promise.resolve();
    release('rec-2');
    await done;
    expect(store.getState().showTranslation).toBe(true);
  });
});

describe('translated lines under paragraphs', () => {
  const blocks = [
    { first: 0, last: 9, start: 1000, speaker: null },
    { first: 10, last: 19, start: 5000, speaker: null },
    { first: 20, last: 29, start: 9000, speaker: null },
  ];

  it('puts each line under the paragraph that holds the middle of its turn, each line once', () => {
    const rows = [line('a', 900, 4000), line('b', 4900, 8000), line('c', 8950, 9800), line('d', 9900, 12_000)];
    const by = translationsByBlock(blocks, rows);
    expect([...by.entries()].map(([i, r]) => [i, r.map((x) => x.key)])).toEqual([
      [0, ['a']],
      [1, ['b']],
      [2, ['c', 'd']],
    ]);
  });

  it('puts a turn that starts a moment before its paragraph under that paragraph, not the one before', () => {
    expect(
      translationsByBlock(blocks, [line('late-start', 4800, 7000)])
        .get(1)
        ?.map((x) => x.key),
    ).toEqual(['late-start']);
    // Before the first paragraph: the first takes it.
    expect(
      translationsByBlock(blocks, [line('early', 0, 400)])
        .get(0)
        ?.map((x) => x.key),
    ).toEqual(['early']);
    expect(translationsByBlock([], [line('none', 0, 400)]).size).toBe(0);
  });
});
