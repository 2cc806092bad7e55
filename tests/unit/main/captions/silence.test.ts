/** Sessions that end themselves: the question after N silent minutes, withdrawn by speech or Keep recording, and main's own stop when no window stops the session. */
import { describe, expect, it } from 'vitest';
import { ASK_MS, FALLBACK_MS, SilenceWatch, type StillRecording } from '../../../../src/main/services/captions/silence';

function watch(minutes: number | undefined) {
  let now = 1_000_000;
  const asked: StillRecording[] = [];
  const stopped: number[] = [];
  const w = new SilenceWatch({ now: () => now, minutes: () => minutes, ask: (s) => asked.push(s), stop: async (r) => stopped.push(r) });
  return { w, asked, stopped, advance: (ms: number) => (now += ms), at: () => now };
}

describe('silence watch', () => {
  it('asks after the default 15 silent minutes, and stops a minute after the stop moment when no window did', () => {
    const { w, asked, stopped, advance, at } = watch(undefined);
    w.started(7);
    advance(15 * 60_000 - 1);
    w.tick();
    expect(asked).toEqual([]);
    advance(1);
    w.tick();
    expect(asked).toEqual([{ run: 7, stopAt: new Date(at() + ASK_MS).toISOString(), silentMinutes: 15 }]);
    advance(ASK_MS + FALLBACK_MS - 1);
    w.tick();
    expect(stopped).toEqual([]);
    advance(1);
    w.tick();
    w.tick();
    expect(stopped).toEqual([7]);
  });

  it('withdraws the question when someone speaks or the user keeps recording, and counts from then', () => {
    const { w, asked, stopped, advance } = watch(5);
    w.started(1);
    advance(5 * 60_000);
    w.tick();
    expect(asked.at(-1)?.stopAt).not.toBeNull();
    w.speech(1);
    expect(asked.at(-1)).toEqual({ run: 1, stopAt: null, silentMinutes: 0 });
    advance(4 * 60_000);
    w.tick();
    expect(asked).toHaveLength(2);
    advance(60_000);
    w.tick();
    expect(asked).toHaveLength(3);
    expect(w.keep(1)).toBe(true);
    expect(asked.at(-1)?.stopAt).toBeNull();
    advance(ASK_MS + FALLBACK_MS);
    w.tick();
    expect(stopped).toEqual([]);
  });

  it('never asks when set to 0, nor about a session that ended', () => {
    const off = watch(0);
    off.w.started(1);
    off.advance(10 * 60 * 60_000);
    off.w.tick();
    expect(off.asked).toEqual([]);
    const ended = watch(1);
    ended.w.started(2);
    ended.w.ended();
    ended.advance(60 * 60_000);
    ended.w.tick();
    expect(ended.asked).toEqual([]);
    expect(ended.w.keep(2)).toBe(false);
  });

  it('counts its minutes (the question and the stop too) in a shortened minute when host mode is started so for tests', () => {
    let now = 0;
    const asked: StillRecording[] = [];
    const stopped: number[] = [];
    const w = new SilenceWatch({ now: () => now, minutes: () => 2, ask: (s) => asked.push(s), stop: async (r) => stopped.push(r), minuteMs: 3000 });
    w.started(4);
    now = 2 * 3000 - 1;
    w.tick();
    expect(asked).toEqual([]);
    now += 1;
    w.tick();
    expect(asked).toEqual([{ run: 4, stopAt: new Date(now + 3000).toISOString(), silentMinutes: 2 }]);
    now += 2 * 3000 - 1;
    w.tick();
    expect(stopped).toEqual([]);
    now += 1;
    w.tick();
    expect(stopped).toEqual([4]);
  });
});
