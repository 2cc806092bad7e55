/** Stop sequences cut by the gateway: whole answers and streamed pieces split anywhere. */
import { describe, expect, it } from 'vitest';
import { cutAtStop, StopCutter } from '../../../../src/engine/gateway/stop';

function streamed(pieces: string[], stops: string[]): { text: string; stopped: boolean } {
  const c = new StopCutter(stops);
  let text = '';
  for (const p of pieces) {
    text += c.push(p);
    if (c.stopped) break;
  }
  return { text: text + c.flush(), stopped: c.stopped };
}

describe('cutAtStop', () => {
  it('ends before the earliest stop sequence, whichever is listed first', () => {
    expect(cutAtStop('alpha beta END gamma STOP', ['STOP', 'END'])).toEqual({ text: 'alpha beta ', stopped: true });
    expect(cutAtStop('no stop here', ['END'])).toEqual({ text: 'no stop here', stopped: false });
    expect(cutAtStop('anything', [])).toEqual({ text: 'anything', stopped: false });
  });
});

describe('StopCutter', () => {
  const answer = 'alpha beta gamma END delta epsilon';

  it('gives the same text as the whole cut however the answer is split', () => {
    for (let size = 1; size <= answer.length; size++) {
      const pieces = answer.match(new RegExp(`[\\s\\S]{1,${size}}`, 'g')) ?? [];
      expect(streamed(pieces, ['END']), `pieces of ${size}`).toEqual({ text: 'alpha beta gamma ', stopped: true });
    }
  });

  it('sends a held tail that did not become a stop sequence at the end', () => {
    expect(streamed(['alpha E', 'N'], ['END'])).toEqual({ text: 'alpha EN', stopped: false });
    expect(streamed(['alpha ', 'EN', 'Dx'], ['END', 'ENQ'])).toEqual({ text: 'alpha ', stopped: true });
  });

  it('holds back nothing without stop sequences', () => {
    const c = new StopCutter([]);
    expect(c.push('abc')).toBe('abc');
    expect(c.flush()).toBe('');
  });
});
