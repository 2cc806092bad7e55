import { describe, expect, it } from 'vitest';
import { cleanSphinxWord } from '../../../src/engine/recognizer/sphinx';
import { formatTranscript, numbersToDigits, paragraphsFrom, parseNumberWords, type RawWord } from '../../../src/engine/text/format';
import { detectPii, redactPii } from '../../../src/engine/text/pii';
import { wordSearch } from '../../../src/engine/text/search';
import { wordErrorRate } from '../../../src/engine/text/wer';

function raw(text: string, gaps: Record<number, number> = {}): RawWord[] {
  let t = 0;
  return text.split(' ').map((w, i) => {
    t += gaps[i] ?? 50;
    const word = { text: w, start: t, end: t + 300, confidence: 0.9 };
    t += 300;
    return word;
  });
}

describe('text formatting', () => {
  it('parses number words', () => {
    expect(parseNumberWords(['twenty', 'three'])).toBe(23);
    expect(parseNumberWords(['one', 'hundred', 'five'])).toBe(105);
    expect(parseNumberWords(['two', 'thousand', 'twenty', 'six'])).toBe(2026);
    expect(parseNumberWords(['three', 'four'])).toBeNull();
  });

  it('writes numbers as digits where safe', () => {
    expect(
      numbersToDigits(raw('i have two cats and twenty three dogs'))
        .map((w) => w.text)
        .join(' '),
    ).toBe('i have two cats and 23 dogs');
    expect(
      numbersToDigits(raw('go forward ten meters'))
        .map((w) => w.text)
        .join(' '),
    ).toBe('go forward 10 meters');
    expect(
      numbersToDigits(raw('call five five five one two three four now'))
        .map((w) => w.text)
        .join(' '),
    ).toBe('call 5551234 now');
    expect(
      numbersToDigits(raw('one two'))
        .map((w) => w.text)
        .join(' '),
    ).toBe('one two');
    const merged = numbersToDigits(raw('one hundred and five'));
    expect(merged).toHaveLength(1);
    expect(merged[0]!.text).toBe('105');
  });

  it('makes sentences from pauses with capitals and final punctuation', () => {
    const f = formatTranscript(raw('hello there i am here what is your name', { 4: 900 }), { punctuate: true, formatText: true });
    expect(f.sentences.map((s) => s.text)).toEqual(['Hello there I am.', 'Here what is your name.']);
    const q = formatTranscript(raw('what is your name'), { punctuate: true, formatText: true });
    expect(q.text).toBe('What is your name?');
    const plain = formatTranscript(raw('hello there'), { punctuate: false, formatText: false });
    expect(plain.text).toBe('hello there');
    expect(paragraphsFrom(f.sentences)).toHaveLength(1);
  });

  it('strips sphinx fillers and variants', () => {
    expect(cleanSphinxWord('read(2)')).toBe('read');
    for (const f of ['<s>', '</s>', '<sil>', '[NOISE]', '++UM++']) expect(cleanSphinxWord(f)).toBeNull();
  });
});

describe('PII', () => {
  const f = formatTranscript(raw('call sarah at five five five one two three four or mail bob at example dot com card 4111 1111 1111 1111'), {
    punctuate: true,
    formatText: true,
  });

  it('detects phone numbers, names, spoken emails and card numbers', () => {
    const spans = detectPii(f.words, ['phone_number', 'person_name', 'email_address', 'credit_card_number']);
    expect(spans.map((s) => s.policy).sort()).toEqual(['credit_card_number', 'email_address', 'person_name', 'phone_number']);
  });

  it('redacts with hashes or entity names, keeping times', () => {
    const r = redactPii(f.words, f.sentences, ['phone_number', 'person_name', 'email_address', 'credit_card_number'], 'entity_name');
    expect(r.text).toBe('Call [PERSON_NAME] at [PHONE_NUMBER] or mail [EMAIL_ADDRESS] card [CREDIT_CARD_NUMBER].');
    const h = redactPii(f.words, f.sentences, ['person_name'], 'hash');
    expect(h.text).toContain('Call ##### at');
    expect(r.spans.every((s) => s.end > s.start)).toBe(true);
  });
});

describe('word search and WER', () => {
  it('finds words and phrases with timestamps and indexes', () => {
    const f = formatTranscript(raw('the cat sat on the mat'), { punctuate: true, formatText: true });
    const [the, mat, phrase] = wordSearch(f.words, ['the', 'mat', 'sat on']);
    expect(the!.count).toBe(2);
    expect(the!.indexes).toEqual([0, 4]);
    expect(mat!.count).toBe(1);
    expect(phrase!.timestamps).toEqual([[f.words[2]!.start, f.words[3]!.end]]);
  });

  it('computes word error rate with normalisation', () => {
    expect(wordErrorRate('Go forward ten meters.', 'go forward 10 meters')).toBe(0);
    expect(wordErrorRate('a b c d', 'a x c')).toBe(0.5);
    expect(wordErrorRate('call five five five one two three four', 'call 5551234')).toBe(0);
  });
});
