/**
 * Keyterms at hostile sizes (issue 47): spell() tried every split of a word, O(L²) vocabulary look-ups on the
 * event loop (a 60,000-character keyterm held it 9.7 s). It now tries only pieces as long as the vocabulary's
 * longest, and a "word" over MAX_HOTWORD_CHARS is skipped without any; hotwords are prepared in slices.
 */
import { describe, expect, it } from 'vitest';
import { hotwordsFor, hotwordsForInSlices, MAX_HOTWORD_CHARS, spell } from '../../../src/engine/recognizer/sherpa/config';

/** A vocabulary that counts its look-ups, and refuses to go on past a budget (the old spell() would take minutes). */
class CountingVocab extends Set<string> {
  lookups = 0;
  constructor(
    items: string[],
    private readonly budget: number,
  ) {
    super(items);
  }
  override has(v: string): boolean {
    if (++this.lookups > this.budget) throw new Error(`more than ${this.budget} vocabulary look-ups`);
    return super.has(v);
  }
}

const TOKENS = ['<blk>', '▁a', '▁ab', 'a', 'b', 'ab', 'ba', 'aba'];

describe('keyterms at hostile sizes', () => {
  it('spells a word with look-ups linear in its length (at most the longest piece per letter)', () => {
    const word = 'ab'.repeat(MAX_HOTWORD_CHARS / 2);
    const longest = Math.max(...TOKENS.map((t) => t.length));
    const v = new CountingVocab(TOKENS, (word.length + 1) * longest);
    const pieces = spell(word, v);
    expect(pieces?.join('')).toBe(`▁${word}`);
    expect(v.lookups).toBeLessThanOrEqual((word.length + 1) * longest);
  });

  it('skips a 60,000-character keyterm without looking it up, and keeps the terms beside it', () => {
    const v = new CountingVocab(TOKENS, 1000);
    expect(spell('a'.repeat(60_000), v)).toBeNull();
    expect(v.lookups).toBe(0);
    const out = hotwordsFor(['a'.repeat(60_000), 'ab'], TOKENS);
    expect(out.hotwords).toBe('ab');
    expect(out.skipped[0]?.length).toBeLessThan(50);
  });

  it('prepares many keyterms in slices, the event loop turning between them', async () => {
    const terms = Array.from({ length: 20_000 }, (_, i) => `${'ab'.repeat(40)}${i % 2 ? 'a' : 'b'}`);
    let turns = 0;
    let stop = false;
    const tick = (): void => {
      if (stop) return;
      turns++;
      setImmediate(tick);
    };
    setImmediate(tick);
    const out = await hotwordsForInSlices(terms, TOKENS);
    stop = true;
    expect(out.added.length).toBe(terms.length);
    expect(turns).toBeGreaterThan(0);
  });
});
