import { describe, expect, it } from 'vitest';
import { SpeechEnd } from '../../../../src/engine/streaming/speech-end';
import { endOfTurnConfidence } from '../../../../src/engine/streaming/turns';

/** `ms` of a 300 Hz tone at `amplitude`, or of silence at amplitude 0 (with a little noise). */
function sound(ms: number, amplitude: number, noise = 20): Int16Array {
  const out = new Int16Array(ms * 16);
  let seed = 1;
  for (let i = 0; i < out.length; i++) {
    seed = (seed * 1103515245 + 12345) >>> 0;
    const n = ((seed / 2 ** 32) * 2 - 1) * noise;
    out[i] = Math.round(amplitude * Math.sin((2 * Math.PI * 300 * i) / 16000) + n);
  }
  return out;
}

describe('SpeechEnd', () => {
  it("moves the detector's late end of speech back to where the voice's energy fell", () => {
    const e = new SpeechEnd();
    e.accept(sound(300, 0));
    e.startTurn();
    e.accept(sound(1000, 8000)); // speech ends at 1300 ms
    e.accept(sound(400, 0));
    // The detector says speech ended at 1450 ms (its hangover); the energy says 1300 ms.
    expect(e.refine(1450 * 16)).toBe(1300 * 16);
  });

  it('counts a quiet tail within 30 dB of the turn as speech', () => {
    const e = new SpeechEnd();
    e.startTurn();
    e.accept(sound(1000, 8000));
    e.accept(sound(100, 800)); // −20 dB: a soft final consonant
    e.accept(sound(400, 0));
    expect(e.refine(1250 * 16)).toBe(1100 * 16);
  });

  it('looks back no further than 250 ms before the detector’s end', () => {
    const e = new SpeechEnd();
    e.startTurn();
    e.accept(sound(500, 8000));
    e.accept(sound(900, 0));
    expect(e.refine(1000 * 16)).toBe(750 * 16);
  });

  it('sees speech resuming before the detector confirms it, so a pause is not counted longer than it is', () => {
    const e = new SpeechEnd();
    e.startTurn();
    e.accept(sound(800, 8000));
    e.accept(sound(300, 0));
    e.accept(sound(60, 8000)); // the next word starts at 1100 ms; the detector still says 800
    expect(e.refine(800 * 16)).toBe(1160 * 16);
  });

  it('counts a silence longer than its one second of history in full', () => {
    const e = new SpeechEnd();
    e.accept(sound(300, 0));
    e.startTurn();
    e.accept(sound(700, 8000)); // speech ends at 1000 ms
    e.accept(sound(2000, 0)); // two seconds of quiet: more than the energy history keeps
    // The detector said 1100 ms; nothing loud is left in the history, so the end stays there rather than at 2000 ms.
    expect(e.refine(1100 * 16)).toBe(1100 * 16);
  });

  it("keeps the detector's end in noise as loud as the margin", () => {
    const e = new SpeechEnd();
    e.accept(sound(300, 0, 3000));
    e.startTurn();
    e.accept(sound(800, 4000, 3000));
    e.accept(sound(500, 0, 3000));
    // Every frame of the last second is within 9 dB of the floor or louder: nothing to refine by.
    expect(e.refine(1300 * 16)).toBe(1300 * 16);
  });
});

describe('end of turn after an object pronoun', () => {
  const c = (silence: number, word: string, previous?: string) => endOfTurnConfidence(silence, word, 400, 1280, previous);
  it('lets a sentence end on "with you", "thank you" or "send it"', () => {
    expect(c(400, 'you', 'with')).toBeGreaterThanOrEqual(0.5);
    expect(c(400, 'you', 'thank')).toBeGreaterThanOrEqual(0.5);
    expect(c(400, 'it', 'send')).toBeGreaterThanOrEqual(0.5);
  });
  it('still waits after a subject pronoun or an article', () => {
    expect(c(400, 'you', 'and')).toBeLessThan(0.4);
    expect(c(400, 'you')).toBeLessThan(0.4);
    expect(c(400, 'the', 'with')).toBeLessThan(0.4);
  });
});
