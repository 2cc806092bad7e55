// Live speaker labels in the captions' turns: the service's speaker_label on a finished system-audio turn is kept
// (a later update without one keeps it; UNKNOWN is no label), the microphone stays You, and the saved session's
// words take the labels: You for the microphone, A/B for the system audio's speakers.
import { describe, expect, it } from 'vitest';
import { mergeTurns, TurnBook } from '../../../../src/main/services/captions/turns';
import type { Turn } from '../../../../src/main/services/client/streaming';
import { liveWho } from '../../../../src/shared/voices/live';

const turn = (order: number, start: number, text: string, label?: string, end = true): Turn => ({
  session: 0,
  turn_order: order,
  turn_is_formatted: false,
  end_of_turn: end,
  transcript: text,
  utterance: end ? text : '',
  end_of_turn_confidence: 1,
  words: text.split(' ').map((w, i) => ({ text: w, start: start + i * 300, end: start + i * 300 + 250, confidence: 0.9, word_is_final: true })),
  ...(label ? { speaker_label: label } : {}),
});

describe('live speakers in captions', () => {
  it('keeps each finished system turn’s speaker, the microphone stays You, and the saved words follow', () => {
    const book = new TurnBook(1, false);
    const partial = book.apply('system', turn(0, 0, 'hello there', undefined, false), 0, null)!;
    expect(partial.speaker).toBeUndefined();
    const a = book.apply('system', turn(0, 0, 'hello there', 'A'), 0, null)!;
    expect(a.speaker).toBe('A');
    const mine = book.apply('mic', turn(0, 1000, 'hi', 'A'), 0, null)!;
    expect(mine.speaker).toBeUndefined();
    const b = book.apply('system', turn(1, 2000, 'good morning'), 0, null)!;
    const b2 = book.apply('system', turn(2, 3000, 'yes', 'UNKNOWN'), 0, null)!;
    const c = book.apply('system', turn(3, 4000, 'see you', 'B'), 0, null)!;
    expect([a, mine, b, b2, c].map((t) => liveWho(t, true))).toEqual(['Speaker A', 'You', 'Others', 'Others', 'Speaker B']);
    expect(liveWho(a, false)).toBe('Speaker A');
    expect(liveWho(mine, false)).toBeNull();
    const merged = mergeTurns([a, mine, b, b2, c], true);
    expect(merged.words.map((w) => w.speaker)).toEqual(['A', 'A', 'You', 'Others', 'Others', 'Others', 'B', 'B']);
  });
});
