/**
 * Cue-by-cue translation's parts (services/chat/cue-translate.ts), with a
 * scripted model answering each ask: an answer with the wrong number of cues
 * is asked again, then its part is halved until each half answers right; the
 * cues before a part go as context; a part that fails after others finished
 * keeps those (they were handed on before the failure).
 */
import { describe, expect, it } from 'vitest';
import { cueParts, MAX_CUES_PER_PART, tooSmallForCues, translateCues, type CueToTranslate } from '../../src/main/services/chat/cue-translate';
import type { TranslateCall } from '../../src/main/services/chat/translate-parts';

const cues = (n: number): CueToTranslate[] => Array.from({ length: n }, (_, index) => ({ index, text: `Cue ${index} says something.` }));
/** The numbered cues of an ask's prompt. */
const numbered = (user: string) => user.split('\n').filter((l) => /^\d+\. /.test(l));
const userOf = (body: Parameters<TranslateCall>[0]) => String((body.messages as { content?: unknown }[] | undefined)?.at(-1)?.content ?? '');

describe('cue translation', () => {
  it('cuts parts at the budget, at MAX_CUES_PER_PART, and where the cues to do are not next to each other', () => {
    const parts = cueParts(
      cues(100).filter((c) => c.index !== 50),
      32_000,
    );
    expect(parts.map((p) => p.length)).toEqual([MAX_CUES_PER_PART, 10, MAX_CUES_PER_PART, 9]);
    expect(parts[2]![0]!.index).toBe(51);
    // A small context: parts of a few cues.
    expect(cueParts(cues(100), 1024).every((p) => p.length < 40)).toBe(true);
  });

  it('asks again when the count is wrong, then halves the part, and sends the cues before as context', async () => {
    const asked: string[] = [];
    let wrong = 2;
    const call: TranslateCall = async (body) => {
      const user = userOf(body);
      asked.push(user);
      const n = numbered(user).length;
      // The first two answers of the 10-cue part lose a cue; halves answer right.
      if (n === 10 && wrong-- > 0) return JSON.stringify({ cues: Array.from({ length: n - 1 }, (_, i) => `T${i}`) });
      return JSON.stringify({ cues: numbered(user).map((l) => `T:${l.replace(/^\d+\. /, '')}`) });
    };
    const got: { index: number; text: string }[] = [];
    const all = cues(10).map((c) => c.text);
    const r = await translateCues({
      todo: cues(10).slice(3),
      all,
      language: 'French',
      contextLength: 32_000,
      call,
      onPart: (p) => got.push(...p),
      signal: new AbortController().signal,
    });
    // 7 cues: no wrong answer for a 7-cue part; all in one ask, with cues 1 and 2 as context.
    expect(r.asks).toBe(1);
    expect(asked[0]).toContain(`Before:\n- ${all[1]}\n- ${all[2]}\n\nTranslate into French:\n1. ${all[3]}`);
    expect(got.map((g) => g.index)).toEqual([3, 4, 5, 6, 7, 8, 9]);

    got.length = 0;
    const r2 = await translateCues({
      todo: cues(10),
      all,
      language: 'French',
      contextLength: 32_000,
      call,
      onPart: (p) => got.push(...p),
      signal: new AbortController().signal,
    });
    // Wrong twice, then two halves of 5.
    expect(r2.asks).toBe(4);
    expect(got.map((g) => g.text)).toEqual(all.map((t) => `T:${t}`));
  });

  it('keeps the parts finished before a dropped connection', async () => {
    let n = 0;
    const call: TranslateCall = async (body) => {
      if (++n === 2) throw new Error('socket hang up');
      return JSON.stringify({ cues: numbered(userOf(body)).map(() => 'ok') });
    };
    const got: number[] = [];
    const todo = cues(MAX_CUES_PER_PART * 3);
    await expect(
      translateCues({
        todo,
        all: todo.map((c) => c.text),
        language: 'German',
        contextLength: 32_000,
        call,
        onPart: (p) => got.push(...p.map((c) => c.index)),
        signal: new AbortController().signal,
      }),
    ).rejects.toThrow('socket hang up');
    expect(got).toEqual(todo.slice(0, MAX_CUES_PER_PART).map((c) => c.index));
  });

  it('tells a model too small for one cue with its context', () => {
    expect(tooSmallForCues({ name: 'Small', contextLength: 1024 }, 1900, 'French')).toMatch(
      /Small reads only 1024 tokens.*Choose a model with a larger context/,
    );
    expect(tooSmallForCues({ name: 'Big', contextLength: 32_000 }, 1900, 'French')).toBeNull();
  });
});
