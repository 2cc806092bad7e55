/** Live captions in main: real-time pacing of frames, and turns merged by time with You/Others labels. */
import { describe, expect, it } from 'vitest';
import type { LiveTurn } from '../../../../src/shared/captions';
import { RealTimePacer, type PacerClock } from '../../../../src/main/services/captions/pacer';
import { mergeTurns, TurnBook } from '../../../../src/main/services/captions/turns';
import type { Turn } from '../../../../src/main/services/client/streaming';

function fakeClock(): PacerClock & { advance(ms: number): void } {
  let now = 0;
  let timers: { at: number; fn: () => void }[] = [];
  return {
    now: () => now,
    setTimeout: (fn, ms) => {
      const t = { at: now + ms, fn };
      timers.push(t);
      return t;
    },
    clearTimeout: (h) => (timers = timers.filter((t) => t !== h)),
    advance(ms) {
      const end = now + ms;
      for (;;) {
        const next = timers.filter((t) => t.at <= end).sort((a, b) => a.at - b.at)[0];
        if (!next) break;
        timers = timers.filter((t) => t !== next);
        now = next.at;
        next.fn();
      }
      now = end;
    },
  };
}

describe('RealTimePacer', () => {
  it('sends frames that arrive at real time at once', () => {
    const clock = fakeClock();
    const sent: number[] = [];
    const p = new RealTimePacer(() => sent.push(clock.now()), 250, clock);
    for (let i = 0; i < 20; i++) {
      p.push(Buffer.alloc(1600), 50);
      clock.advance(50);
    }
    expect(sent).toEqual(Array.from({ length: 20 }, (_, i) => i * 50));
  });

  it('spreads a burst of 5 s of audio over real time, never more than the lead ahead of the clock', () => {
    const clock = fakeClock();
    const sent: number[] = [];
    const p = new RealTimePacer(() => sent.push(clock.now()), 250, clock);
    for (let i = 0; i < 100; i++) p.push(Buffer.alloc(1600), 50);
    expect(sent.length).toBe(5); // 250 ms of lead
    clock.advance(5000);
    expect(sent.length).toBe(100);
    sent.forEach((t, i) => expect((i + 1) * 50).toBeLessThanOrEqual(t + 250));
    expect(p.queuedMs).toBe(0);
  });

  it('starts a new clock after a reconnect, and flush sends what is left at once', () => {
    const clock = fakeClock();
    let n = 0;
    const p = new RealTimePacer(() => n++, 0, clock);
    for (let i = 0; i < 10; i++) p.push(Buffer.alloc(1600), 50);
    clock.advance(200);
    expect(n).toBe(4);
    p.flush();
    expect(n).toBe(10);
    p.reset();
    p.push(Buffer.alloc(1600), 50);
    clock.advance(50);
    expect(n).toBe(11);
  });
});

const turn = (order: number, words: [string, number, number, boolean][], extra: Partial<Turn> = {}): Turn => ({
  turn_order: order,
  turn_is_formatted: false,
  end_of_turn: false,
  transcript: '',
  utterance: '',
  end_of_turn_confidence: 0,
  session: 0,
  words: words.map(([text, start, end, fin]) => ({ text, start, end, confidence: 0.9, word_is_final: fin })),
  ...extra,
});

describe('TurnBook and mergeTurns', () => {
  it('replaces a growing turn by its key and makes it final on the formatted end of turn', () => {
    const book = new TurnBook(1, true);
    const a = book.apply(
      'mic',
      turn(0, [
        ['hello', 100, 300, true],
        ['wor', 300, 400, false],
      ]),
      1,
      null,
    )!;
    expect(a.final).toBe(false);
    expect(a.words[1]!.final).toBe(false);
    const b = book.apply(
      'mic',
      turn(
        0,
        [
          ['hello', 100, 300, true],
          ['world', 300, 500, true],
        ],
        { end_of_turn: true },
      ),
      2,
      null,
    )!;
    expect(b.key).toBe(a.key);
    expect(b.final).toBe(false); // a formatted version follows
    const c = book.apply(
      'mic',
      turn(
        0,
        [
          ['Hello', 100, 300, true],
          ['world.', 300, 500, true],
        ],
        { end_of_turn: true, turn_is_formatted: true },
      ),
      3,
      null,
    )!;
    expect(c.final).toBe(true);
    expect(c.text).toBe('Hello world.');
    expect(book.all()).toHaveLength(1);
    // Nothing after the final version changes it.
    expect(book.apply('mic', turn(0, [['x', 0, 1, true]]), 4, null)).toBeNull();
  });

  it('labels turns You and Others and orders them by time when both sources ran', () => {
    const book = new TurnBook(1, false);
    book.apply(
      'system',
      turn(
        0,
        [
          ['how', 1000, 1200, true],
          ['are', 1200, 1400, true],
          ['you', 1400, 1600, true],
        ],
        { end_of_turn: true },
      ),
      0,
      null,
    );
    book.apply('mic', turn(0, [['hi', 200, 500, true]], { end_of_turn: true }), 0, null);
    book.apply(
      'mic',
      turn(
        1,
        [
          ['fine', 2000, 2300, true],
          ['thanks', 2300, 2700, true],
        ],
        { end_of_turn: true },
      ),
      0,
      null,
    );
    const merged = mergeTurns(book.settle(), true);
    expect(merged.sentences.map((s) => [s.speaker, s.text])).toEqual([
      ['You', 'hi'],
      ['Others', 'how are you'],
      ['You', 'fine thanks'],
    ]);
    expect(merged.words.map((w) => w.speaker)).toEqual(['You', 'Others', 'Others', 'Others', 'You', 'You']);
    expect(merged.sentences[1]).toMatchObject({ firstWord: 1, lastWord: 3, start: 1000, end: 1600 });
  });

  it('keeps turns still growing at stop, with their words, and labels nothing for one source', () => {
    const book = new TurnBook(1, true);
    book.apply('mic', turn(3, [['unfinished', 0, 400, false]]), 0, null);
    const turns: LiveTurn[] = book.settle();
    expect(turns[0]!.final).toBe(true);
    const merged = mergeTurns(turns, false);
    expect(merged.text).toBe('unfinished');
    expect(merged.words[0]!.speaker).toBeNull();
  });
});
