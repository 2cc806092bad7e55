// Remembered voices in the captions' turns: a speaker_label that is one of the names told to the local
// engine for this run is a name (shown as itself, kept by a later update, listed for the saved session to
// name); any other label is a letter, shown as "Speaker A"; the microphone never takes one.
import { describe, expect, it } from 'vitest';
import { mergeTurns, TurnBook } from '../../../../src/main/services/captions/turns';
import type { Turn } from '../../../../src/main/services/client/streaming';
import { liveWho } from '../../../../src/shared/voices/live';

const turn = (order: number, start: number, text: string, label?: string, formatted = false): Turn => ({
  session: 0,
  turn_order: order,
  turn_is_formatted: formatted,
  end_of_turn: true,
  transcript: text,
  utterance: text,
  end_of_turn_confidence: 1,
  words: text.split(' ').map((w, i) => ({ text: w, start: start + i * 300, end: start + i * 300 + 250, confidence: 0.9, word_is_final: true })),
  ...(label ? { speaker_label: label } : {}),
});

describe('remembered voices in live captions', () => {
  it('shows a told name as itself and a letter as Speaker A; the saved session lists the names', () => {
    const book = new TurnBook(1, true, new Set(['Dana']));
    book.apply('system', turn(0, 0, 'good morning', 'Dana'), 0, null);
    const dana = book.apply('system', turn(0, 0, 'Good morning.', undefined, true), 0, null)!;
    const other = book.apply('system', turn(1, 1000, 'Hello.', 'A', true), 0, null)!;
    const mine = book.apply('mic', turn(0, 2000, 'Hi.', 'Dana', true), 0, null)!;
    expect([dana, other, mine].map((t) => liveWho(t, true))).toEqual(['Dana', 'Speaker A', 'You']);
    expect(mergeTurns([dana, other, mine], true).named).toEqual(['Dana']);
  });

  it('a label that was not told for this run is shown as a speaker label, whatever it says', () => {
    const book = new TurnBook(1, false);
    const t = book.apply('system', turn(0, 0, 'hello', 'Dana'), 0, null)!;
    expect(liveWho(t, false)).toBe('Speaker Dana');
    expect(mergeTurns([t], false).named).toEqual([]);
  });
});
