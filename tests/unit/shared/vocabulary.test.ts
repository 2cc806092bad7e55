import { describe, expect, it } from 'vitest';
import { addTerm, cleanTerm, isSpellingChange, mergeKeyterms, termProblem, VOCABULARY_MAX_TERMS } from '../../../src/shared/vocabulary';
import { vocabularySchema } from '../../../src/shared/vocabulary-schema';
import { replaceWordForm } from '../../../src/main/services/vocabulary/service';
import { jobLocalModel } from '../../../src/main/services/jobs/request-extras';
import { catalogForTask } from '../../../src/shared/models/lookup';

describe('what a correction teaches', () => {
  it('offers a spelling change, not a deletion, punctuation or capitals alone', () => {
    expect(isSpellingChange('Phebe', 'Phoebe')).toBe(true);
    expect(isSpellingChange('Phebe,', 'Phoebe,')).toBe(true);
    expect(isSpellingChange('gonna', 'going to')).toBe(true);
    expect(isSpellingChange('Phebe', '')).toBe(false);
    expect(isSpellingChange('hello', 'hello,')).toBe(false);
    expect(isSpellingChange('hello.', 'hello?')).toBe(false);
    expect(isSpellingChange('phoebe', 'Phoebe')).toBe(false);
    expect(isSpellingChange('two', '2')).toBe(false);
  });

  it('keeps a term without the punctuation around it, once in any case', () => {
    expect(cleanTerm(' “Phoebe,” ')).toBe('Phoebe');
    expect(cleanTerm("O'Brien's")).toBe("O'Brien's");
    expect(addTerm(['Phoebe'], 'phoebe.')).toEqual(['Phoebe']);
    expect(addTerm(['Phoebe'], 'Kubernetes')).toEqual(['Phoebe', 'Kubernetes']);
    const full = Array.from({ length: VOCABULARY_MAX_TERMS }, (_, i) => `t${i}`);
    expect(addTerm(full, 'more')).toHaveLength(VOCABULARY_MAX_TERMS);
  });

  it('joins a request’s own terms and the vocabulary, each once, up to the limit', () => {
    expect(mergeKeyterms(['Acme', 'phoebe'], ['Phoebe', 'Zed'], 10)).toEqual(['Acme', 'phoebe', 'Zed']);
    expect(mergeKeyterms(undefined, ['a', 'b', 'c'], 2)).toEqual(['a', 'b']);
    // The cloud takes phrases of at most 6 words.
    expect(mergeKeyterms(['one two three four five six seven'], ['Phoebe'], 10)).toEqual(['Phoebe']);
    expect(vocabularySchema.safeParse(['one two three four five six seven']).success).toBe(false);
  });

  it('replaces a word’s letters and keeps the punctuation around it', () => {
    expect(replaceWordForm('(Phebe),', 'Phoebe')).toBe('(Phoebe),');
    expect(replaceWordForm('phebe', 'Phoebe')).toBe('Phoebe');
  });

  it('lets a job name a local speech model from the catalog, never a cloud name', () => {
    expect(jobLocalModel({ speechModels: ['pocketsphinx'] })).toBe('pocketsphinx');
    expect(jobLocalModel({ speechModels: ['universal-2'] })).toBeNull();
    expect(jobLocalModel({ speechModels: ['slam-1'] })).toBeNull();
    expect(jobLocalModel({})).toBeNull();
    const local = catalogForTask('files')[0]!.id;
    expect(jobLocalModel({ speechModels: [local, 'universal-2'] })).toBe(local);
    expect(jobLocalModel({ speechModels: [catalogForTask('chat')[0]!.id] })).toBeNull();
  });
});

describe('a term is kept whole or refused, never cut', () => {
  it('keeps seven words and long terms whole, and says why they do not fit', () => {
    const seven = cleanTerm('one two three four five six seven');
    expect(seven).toBe('one two three four five six seven');
    expect(termProblem(seven)).toMatch(/has 7 words; a term has at most 6/);
    expect(addTerm([], seven)).toEqual([]);
    const long = cleanTerm('x'.repeat(10_000));
    expect(long).toHaveLength(10_000);
    expect(termProblem(long)).toMatch(/has 10000 characters; a term has at most 50/);
    expect(addTerm([], long)).toEqual([]);
    expect(termProblem('Kubernetes')).toBeNull();
  });

  it('leaves no bracket half-open when it takes the punctuation off a term’s ends', () => {
    expect(cleanTerm('<img src=x onerror=alert(1)>')).toBe('img src=x onerror=alert(1)');
    expect(cleanTerm('(Acme)')).toBe('Acme');
    expect(cleanTerm('Acme).')).toBe('Acme');
    expect(cleanTerm('f(x),')).toBe('f(x)');
  });
});
