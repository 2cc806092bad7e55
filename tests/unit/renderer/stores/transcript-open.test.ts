/**
 * Opening a long transcript: the store asks for its first screen (library.get
 * with firstWords), shows it, then asks for the rest and shows the whole. The
 * answers are a real library's (seeded on disk, read by the Library service as
 * main reads them), through a bridge stand-in that checks every input and
 * output against the contract; the test holds the rest's answer back to see
 * what the store does in between.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createStore } from 'zustand/vanilla';
import { Library } from '../../../../src/main/services/library/library';
import type { TranscriptWire } from '../../../../src/shared/transcript-wire';
import { useToasts } from '../../../../src/renderer/src/stores/toasts';
import { FIRST_SCREEN_WORDS, transcriptState, type TranscriptState } from '../../../../src/renderer/src/stores/transcript';
import { seedLibrary } from '../../../e2e/seed';
import { FakeApi } from '../support/fake-api';

const WORDS = 6_000;
const dirs: string[] = [];
const libs: Library[] = [];
afterEach(() => {
  for (const l of libs.splice(0)) l.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function setup() {
  const dir = mkdtempSync(join(tmpdir(), 'verbatim-open-'));
  dirs.push(dir);
  const [id] = seedLibrary(dir, { count: 1, wordsPer: WORDS, speakers: ['A', 'B'] }) as [string];
  const lib = new Library(dir);
  libs.push(lib);
  // The whole transcript's answer waits until the test lets it go; `answered` settles once it has gone.
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  let answered!: () => void;
  const restAnswered = new Promise<void>((r) => (answered = r));
  const api = new FakeApi()
    .handle('library.mediaUrl', () => ({ url: null }))
    .handle('library.get', async ({ id: rid, firstWords }) => {
      if (firstWords !== undefined) return lib.transcripts.wire(rid, undefined, firstWords);
      await held;
      const wire = lib.transcripts.wire(rid);
      setImmediate(answered);
      return wire;
    })
    .handle('library.correctWords', ({ id: rid, edits }) => {
      lib.edits.correctWords(rid, edits);
      return lib.transcripts.wire(rid);
    });
  const store = createStore<TranscriptState>()(transcriptState(api as never));
  const whole = lib.transcripts.get(id);
  return { id, api, store, release, restAnswered, whole };
}

/** A word of the vocabulary, and how many times it is in the first screen and in the whole. */
function countsOf(words: { text: string }[], cut: number): { word: string; head: number; all: number } {
  const norm = (t: string) => t.toLowerCase().replace(/[^a-z]/g, '');
  const word = norm(words[0]?.text ?? '');
  const count = (ws: { text: string }[]) => ws.filter((w) => norm(w.text) === word).length;
  return { word, head: count(words.slice(0, cut)), all: count(words) };
}

describe('opening a long transcript', () => {
  it('shows its first screen, then the whole; a search typed in between runs again over all of it', async () => {
    const { id, api, store, release, whole } = setup();
    await store.getState().open(id, null);
    const head = store.getState().transcript;
    expect(store.getState().partial).toBe(true);
    expect(api.callsTo('library.get')[0]).toEqual({ id, firstWords: FIRST_SCREEN_WORDS });
    const cut = head?.words.length ?? 0;
    expect(cut).toBeGreaterThanOrEqual(FIRST_SCREEN_WORDS);
    expect(cut).toBeLessThan(WORDS);
    expect(head?.words).toEqual(whole.words.slice(0, cut));

    const { word, head: inHead, all } = countsOf(whole.words, cut);
    expect(all).toBeGreaterThan(inHead);
    store.getState().setFind(word);
    expect(store.getState().find.matches).toHaveLength(inHead);

    // The rest is asked for once the first screen is painted (here, with no frames, in a task of its own).
    await vi.waitFor(() => expect(api.callsTo('library.get')).toEqual([{ id, firstWords: FIRST_SCREEN_WORDS }, { id }]));
    expect(store.getState().partial).toBe(true);
    release();
    await vi.waitFor(() => expect(store.getState().partial).toBe(false));
    expect(store.getState().transcript).toEqual(whole);
    expect(store.getState().find.matches).toHaveLength(all);
  });

  it('an edit made on the first screen brings the whole, and the late rest does not undo it', async () => {
    const { id, api, store, release, restAnswered } = setup();
    await store.getState().open(id, null);
    await vi.waitFor(() => expect(api.callsTo('library.get')).toHaveLength(2));
    const before = store.getState().transcript?.words[5]?.text;
    expect(await store.getState().correct(5, 'edited')).toBe(true);
    expect(store.getState().partial).toBe(false);
    expect(store.getState().transcript?.words).toHaveLength(WORDS);
    const shown = store.getState().transcript;
    release();
    await restAnswered;
    await new Promise((r) => setImmediate(r));
    // The rest's answer came after the edit's and was not applied over it.
    expect(store.getState().transcript).toBe(shown);
    expect(store.getState().transcript?.words[5]).toMatchObject({ text: 'edited', original: before });
    expect(store.getState().corrected[5]).toBeDefined();
  });

  it('opening at a moment (a search hit) asks for the whole at once', async () => {
    const { id, api, store, release, whole } = setup();
    release();
    const at = whole.words[WORDS - 10]?.start ?? 0;
    await store.getState().open(id, at);
    expect(api.callsTo('library.get')).toEqual([{ id }]);
    expect(store.getState().partial).toBe(false);
    expect(store.getState().active).toBe(WORDS - 10);
  });

  it('keeps the first screen and says so when the rest cannot be read', async () => {
    const { id, api, store } = setup();
    useToasts.setState({ toasts: [] });
    let first = true;
    api.handle('library.get', ({ id: rid, firstWords }) => {
      if (!first) throw new Error('disk gone');
      first = false;
      return libs[0]!.transcripts.wire(rid, undefined, firstWords) as TranscriptWire;
    });
    await store.getState().open(id, null);
    await vi.waitFor(() => expect(api.callsTo('library.get')).toHaveLength(2));
    await new Promise((r) => setImmediate(r));
    expect(store.getState().partial).toBe(true);
    expect(store.getState().transcript?.words.length).toBeGreaterThan(0);
    expect(store.getState().error).toBeNull();
    expect(useToasts.getState().toasts.map((t) => t.text)).toEqual(['Only the start of this transcript could be loaded: disk gone']);
  });
});
