// features/subtitles/time: cue times and shifts as the user types them.
import { describe, expect, it } from 'vitest';
import { parseCueTime, parseShift } from '../../../../src/renderer/src/features/subtitles/time';

describe('subtitle times as typed', () => {
  it('reads cue times, and refuses what is not one', () => {
    expect(parseCueTime('1:02.5')).toBe(62_500);
    expect(parseCueTime('62,250')).toBe(62_250);
    expect(parseCueTime('1:00:02.000')).toBe(3_602_000);
    expect(parseCueTime('1:75')).toBeNull();
    expect(parseCueTime('soon')).toBeNull();
  });

  it('reads a shift: a signed time or milliseconds; later is positive; nothing is not a shift', () => {
    expect(parseShift('+2.5')).toBe(2500);
    expect(parseShift('2.5 s')).toBe(2500);
    expect(parseShift('-0:01.250')).toBe(-1250);
    expect(parseShift('− 0.3')).toBe(-300);
    expect(parseShift('250 ms')).toBe(250);
    expect(parseShift('-80ms')).toBe(-80);
    expect(parseShift('0')).toBeNull();
    expect(parseShift('+')).toBeNull();
    expect(parseShift('1:2:3:4')).toBeNull();
    expect(parseShift('ten ms')).toBeNull();
  });
});
