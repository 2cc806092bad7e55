// TurnBook.revise: a SpeakerRevision relabels only the finished system-audio turns it names whose label changes, marks them revised, and the merged live transcript takes the new labels.
import { describe, expect, it } from 'vitest';
import { mergeTurns, TurnBook } from '../../../../src/main/services/captions/turns';
import type { Turn } from '../../../../src/main/services/client/streaming';

const turn = (order: number, text: string, speaker: string, session = 0): Turn => ({
  turn_order: order,
  turn_is_formatted: true,
  end_of_turn: true,
  transcript: text,
  utterance: text,
  end_of_turn_confidence: 0.9,
  words: text.split(' ').map((w, k) => ({ text: w, start: order * 1000 + k * 100, end: order * 1000 + k * 100 + 90, confidence: 0.9, word_is_final: true })),
  session,
  speaker_label: speaker,
});

function book(names: string[] = []): TurnBook {
  const b = new TurnBook(1, true, new Set(names));
  b.apply('system', turn(0, 'good morning', 'A'), 0, null);
  b.apply('system', turn(1, 'thanks for having me', 'A'), 0, null);
  b.apply('system', turn(2, 'let us begin', 'A'), 0, null);
  return b;
}

describe('a SpeakerRevision in the turn book', () => {
  it('relabels the named turn, marks it revised, and the saved words follow', () => {
    const b = book();
    const changed = b.revise('system', 0, [{ turn_order: 1, speaker_label: 'B' }]);
    expect(changed.map((t) => [t.key, t.speaker, t.revised])).toEqual([['system:0:1', 'B', true]]);
    const merged = mergeTurns(b.settle(), false);
    expect(merged.sentences.map((s) => s.speaker)).toEqual(['A', 'B', 'A']);
    expect(
      b
        .all()
        .filter((t) => t.revised)
        .map((t) => t.key),
    ).toEqual(['system:0:1']);
  });

  it('leaves alone a turn whose label does not change, an UNKNOWN label, a turn it never showed, another session and the microphone', () => {
    const b = book();
    expect(b.revise('system', 0, [{ turn_order: 0, speaker_label: 'A' }])).toEqual([]);
    expect(b.revise('system', 0, [{ turn_order: 2, speaker_label: 'UNKNOWN' }])).toEqual([]);
    expect(b.revise('system', 0, [{ turn_order: 9, speaker_label: 'B' }])).toEqual([]);
    expect(b.revise('system', 1, [{ turn_order: 1, speaker_label: 'B' }])).toEqual([]);
    expect(b.revise('mic', 0, [{ turn_order: 1, speaker_label: 'B' }])).toEqual([]);
    expect(b.all().some((t) => t.revised)).toBe(false);
  });

  it('a label that is a remembered voice names the turn; one that is not any more drops the name', () => {
    const b = book(['Dana']);
    expect(b.revise('system', 0, [{ turn_order: 1, speaker_label: 'Dana' }])[0]).toMatchObject({ speaker: 'Dana', speakerName: 'Dana', revised: true });
    expect(b.revise('system', 0, [{ turn_order: 1, speaker_label: 'B' }])[0]).toMatchObject({ speaker: 'B', revised: true });
    expect(b.all().find((t) => t.key === 'system:0:1')?.speakerName).toBeUndefined();
  });
});
