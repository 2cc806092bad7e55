/** The captions overlay's place: remembered per display, always on screen, a sane default. */
import { describe, expect, it } from 'vitest';
import { clampToArea, defaultPlacement, parsePlacements, placeOverlay, rememberPlacement } from '../../../src/main/windows/overlay-placement';

const laptop = { id: 1, workArea: { x: 0, y: 0, width: 1440, height: 860 } };
const monitor = { id: 2, workArea: { x: 1440, y: -200, width: 2560, height: 1400 } };

describe('overlay placement', () => {
  it('opens at the bottom centre of the work area, 900 px wide, when nothing is remembered for the display', () => {
    expect(placeOverlay({}, laptop)).toEqual({ x: 270, y: 660, width: 900, height: 160 });
    // On a display left of or above the main one, the default is still inside it.
    const b = placeOverlay({}, monitor);
    expect(b).toEqual({ x: 1440 + 830, y: -200 + 1400 - 200, width: 900, height: 160 });
  });

  it('remembers a place per display and reopens each display at its own place', () => {
    let saved = rememberPlacement({}, laptop, { x: 100, y: 50, width: 700, height: 120 });
    saved = rememberPlacement(saved, monitor, { x: 2000, y: 300, width: 1200, height: 200 });
    expect(placeOverlay(saved, laptop)).toEqual({ x: 100, y: 50, width: 700, height: 120 });
    expect(placeOverlay(saved, monitor)).toEqual({ x: 2000, y: 300, width: 1200, height: 200 });
    // Moving it on one display leaves the other display's place alone.
    saved = rememberPlacement(saved, laptop, { x: 10, y: 10, width: 700, height: 120 });
    expect(placeOverlay(saved, monitor)).toEqual({ x: 2000, y: 300, width: 1200, height: 200 });
    expect(placeOverlay(saved, { id: 3, workArea: { x: 0, y: 0, width: 1920, height: 1080 } })).toEqual(
      defaultPlacement({ x: 0, y: 0, width: 1920, height: 1080 }),
    );
  });

  it('survives a round trip through the file', () => {
    const saved = rememberPlacement({}, monitor, { x: 2000, y: 300, width: 1200, height: 200 });
    expect(placeOverlay(parsePlacements(JSON.stringify(saved)), monitor)).toEqual({ x: 2000, y: 300, width: 1200, height: 200 });
  });

  it('pulls a remembered place back on screen when the display shrank (new resolution or layout)', () => {
    const saved = { '1': { x: 2400, y: 1300, width: 3000, height: 60 } };
    const b = placeOverlay(saved, laptop);
    expect(b).toEqual({ x: 0, y: 780, width: 1440, height: 80 });
    expect(b.x + b.width).toBeLessThanOrEqual(1440);
    expect(b.y + b.height).toBeLessThanOrEqual(860);
  });

  it('keeps the minimum size of 320 × 80', () => {
    expect(clampToArea({ x: 10, y: 10, width: 5, height: 5 }, laptop.workArea)).toEqual({ x: 10, y: 10, width: 320, height: 80 });
  });

  it('ignores a placements file that is missing, not JSON, or holds malformed entries', () => {
    expect(parsePlacements(null)).toEqual({});
    expect(parsePlacements('')).toEqual({});
    expect(parsePlacements('{not json')).toEqual({});
    expect(parsePlacements('[1,2]')).toEqual({});
    expect(
      parsePlacements(
        JSON.stringify({
          '1': { x: 1, y: 2, width: 400, height: 100 },
          '2': { x: 'a', y: 0, width: 1, height: 1 },
          '3': null,
          '4': { x: 1, y: 2, width: 400 },
        }),
      ),
    ).toEqual({ '1': { x: 1, y: 2, width: 400, height: 100 } });
  });
});
