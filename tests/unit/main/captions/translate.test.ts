/**
 * The translation queue of live captions: final turns only, one request at a
 * time in order, a few turns waiting at most; when it falls behind the oldest
 * waiting turn is dropped and the user told. The translator is the network
 * edge: here each request waits until the test answers it.
 */
import { describe, expect, it } from 'vitest';
import type { LiveTurn } from '../../../../src/shared/captions';
import type { LiveTranslation, TranslationStatus } from '../../../../src/shared/captions-extras';
import { TRANSLATION_QUEUE_MAX, TranslationQueue } from '../../../../src/main/services/captions/translate';

function turn(n: number, final: boolean, text = `line ${n}`): LiveTurn {
  return { run: 1, source: 'mic', key: `mic:0:${n}`, text, words: [], final, startMs: n * 1000, endMs: n * 1000 + 800, receivedAt: 0, capturedAt: null };
}

function setup() {
  const asked: { user: string; answer: (text: string) => void }[] = [];
  const translated: LiveTranslation[] = [];
  const statuses: TranslationStatus[] = [];
  const saved: string[] = [];
  const q = new TranslationQueue({
    translator: async () => ({
      model: 'tiny',
      region: 'local',
      complete: (_system, user) => new Promise<string>((answer) => asked.push({ user, answer })),
    }),
    translated: (t) => translated.push(t),
    status: (s) => statuses.push(s),
    save: (_id, t, _lang, text) => saved.push(`${t.key}=${text}`),
  });
  return { q, asked, translated, statuses, saved };
}

const until = async (f: () => boolean) => {
  while (!f()) await new Promise((r) => setImmediate(r));
};

describe('TranslationQueue', () => {
  it('translates each final turn once, in order, and never a partial one', async () => {
    const { q, asked, translated, saved } = setup();
    await q.start(1, 'rec', 'fr');
    q.push(turn(0, false));
    q.push(turn(0, true));
    q.push(turn(1, false));
    await until(() => asked.length === 1);
    expect(asked[0]!.user).toBe('line 0');
    asked[0]!.answer('ligne 0\n\n(note)');
    q.push(turn(1, true));
    await until(() => asked.length === 2);
    asked[1]!.answer('ligne 1');
    await until(() => translated.length === 2);
    expect(translated.map((t) => [t.key, t.text])).toEqual([
      ['mic:0:0', 'ligne 0'],
      ['mic:0:1', 'ligne 1'],
    ]);
    expect(saved).toEqual(['mic:0:0=ligne 0', 'mic:0:1=ligne 1']);
    expect(asked).toHaveLength(2);
  });

  it('holds at most a few turns: when it falls behind, the oldest waiting is dropped and the user is told', async () => {
    const { q, asked, translated, statuses } = setup();
    await q.start(1, 'rec', 'fr');
    for (let n = 0; n < 8; n++) q.push(turn(n, true));
    await until(() => asked.length === 1);
    // One in flight, three waiting: four were dropped.
    expect(q.maxDepth).toBe(TRANSLATION_QUEUE_MAX);
    const last = statuses.at(-1)!;
    expect(last.dropped).toBe(4);
    expect(last.message).toMatch(/fell behind.*4 lines were left untranslated/);
    for (let i = 0; i < 4; i++) {
      await until(() => asked.length === i + 1);
      asked[i]!.answer(`t ${asked[i]!.user}`);
    }
    await until(() => translated.length === 4);
    expect(translated.map((t) => t.text)).toEqual(['t line 0', 't line 5', 't line 6', 't line 7']);
  });

  it('says why when no model can translate, and queues nothing', async () => {
    const statuses: TranslationStatus[] = [];
    const q = new TranslationQueue({
      translator: async () => ({ unavailable: 'Translating captions needs a language model.' }),
      translated: () => undefined,
      status: (s) => statuses.push(s),
      save: () => undefined,
    });
    const s = await q.start(1, 'rec', 'de');
    expect(s).toMatchObject({ state: 'unavailable', language: 'de', message: 'Translating captions needs a language model.' });
    q.push(turn(0, true));
    expect(q.maxDepth).toBe(0);
  });

  it('stops: what waits is forgotten and a late answer is not shown', async () => {
    const { q, asked, translated } = setup();
    await q.start(1, 'rec', 'fr');
    q.push(turn(0, true));
    q.push(turn(1, true));
    await until(() => asked.length === 1);
    q.stop();
    asked[0]!.answer('late');
    // The answer's promise settles within a few turns of the event loop; nothing may come of it.
    for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
    expect(translated).toEqual([]);
    expect(q.status().state).toBe('off');
  });
});
