import { describe, expect, it } from 'vitest';
import { formatTranscript, type RawWord } from '../../../src/engine/text/format';
import { wordErrorRate } from '../../../src/engine/text/wer';

function raw(text: string): RawWord[] {
  return text.split(' ').map((w, i) => ({ text: w, start: i * 350, end: i * 350 + 300, confidence: 0.9 }));
}
const fmt = (text: string) => formatTranscript(raw(text), { punctuate: true, formatText: true }).text;

describe('formatting of weekdays, months, "I" and clock times', () => {
  it('capitalises weekdays and unambiguous months wherever they stand', () => {
    expect(fmt('the meeting moved to thursday afternoon')).toBe('The meeting moved to Thursday afternoon.');
    expect(fmt('we are going to visit my parents in june')).toBe('We are going to visit my parents in June.');
    expect(fmt('the new schedule starts in september and ends in december')).toBe('The new schedule starts in September and ends in December.');
  });

  it('capitalises may, march and august only next to a date cue', () => {
    expect(fmt('i need to renew my passport before march')).toBe('I need to renew my passport before March.');
    expect(fmt('they moved in may')).toBe('They moved in May.');
    expect(fmt('see you on may first')).toBe('See you on May first.');
    expect(fmt('you may leave now')).toBe('You may leave now.');
    expect(fmt('the soldiers march home')).toBe('The soldiers march home.');
    expect(fmt('an august institution')).toBe('An august institution.');
  });

  it('writes "I" and its contractions in capitals', () => {
    expect(fmt("so i think i'll go")).toBe("So I think I'll go.");
  });

  it('writes clock times after a time cue as digits', () => {
    expect(fmt('the train leaves at seven thirty')).toBe('The train leaves at 7:30.');
    expect(fmt('call me at ten oh five tomorrow')).toBe('Call me at 10:05 tomorrow.');
    expect(fmt('we start at nine forty five sharp')).toBe('We start at 9:45 sharp.');
    expect(fmt("be there by nine o'clock")).toBe("Be there by 9 o'clock.");
  });

  it('leaves number pairs that may not be times alone', () => {
    expect(fmt('seven thirty')).not.toContain(':');
    expect(fmt('at seven twenty people came')).not.toContain(':');
  });

  it('writes a title before a name as people do, and scores it as the word said', () => {
    expect(fmt('and mr john dashwood had then leisure')).toBe('And Mr. John dashwood had then leisure.');
    expect(fmt('we met dr smith today')).toContain('Dr. Smith');
    // At the end there is no name after it: the word stays as recognised.
    expect(fmt('that was the mr')).toBe('That was the mr.');
    expect(wordErrorRate('and mister john dashwood', fmt('and mr john dashwood'))).toBe(0);
  });

  it('keeps the recognised words as they are with format_text false', () => {
    const f = formatTranscript(raw('i saw them on monday at seven thirty in june'), { punctuate: false, formatText: false });
    expect(f.text).toBe('i saw them on monday at seven thirty in june');
    expect(f.words.map((w) => w.text)).toEqual(['i', 'saw', 'them', 'on', 'monday', 'at', 'seven', 'thirty', 'in', 'june']);
  });

  it('scores formatted times and numbers as the words that were said', () => {
    expect(wordErrorRate('the train leaves the station at seven thirty', fmt('the train leaves the station at seven thirty'))).toBe(0);
    expect(wordErrorRate('there are twenty people on the waiting list', fmt('there are twenty people on the waiting list'))).toBe(0);
  });
});
