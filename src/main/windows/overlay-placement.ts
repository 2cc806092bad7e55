/**
 * Where the captions overlay goes: the bounds the user last gave it on each
 * display, kept inside that display's work area (resolution or layout may have
 * changed since), else a strip at the bottom centre. Pure, so it is tested
 * without Electron.
 */

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface DisplayArea {
  id: number | string;
  workArea: Rect;
}

/** Remembered bounds per display id. */
export type SavedPlacements = Record<string, Rect>;

export const OVERLAY_MIN = { width: 320, height: 80 } as const;
const DEFAULT_WIDTH = 900;
const DEFAULT_HEIGHT = 160;
/** Gap between the default strip and the bottom of the work area (above a taskbar or dock). */
const BOTTOM_GAP = 40;

function isRect(v: unknown): v is Rect {
  if (typeof v !== 'object' || v === null) return false;
  const r = v as Record<string, unknown>;
  return ['x', 'y', 'width', 'height'].every((k) => typeof r[k] === 'number' && Number.isFinite(r[k]));
}

/** The placements file's text; anything unreadable or malformed is ignored (the overlay then takes its default place). */
export function parsePlacements(text: string | null): SavedPlacements {
  if (!text) return {};
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return {};
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return {};
  const out: SavedPlacements = {};
  for (const [id, r] of Object.entries(json as Record<string, unknown>)) if (isRect(r)) out[id] = { x: r.x, y: r.y, width: r.width, height: r.height };
  return out;
}

/** The default: bottom centre of the work area, at most 900 px wide. */
export function defaultPlacement(area: Rect): Rect {
  const width = Math.max(Math.min(OVERLAY_MIN.width, area.width), Math.min(DEFAULT_WIDTH, area.width - 40));
  const height = Math.min(DEFAULT_HEIGHT, area.height);
  return {
    width,
    height,
    x: area.x + Math.round((area.width - width) / 2),
    y: area.y + Math.max(0, area.height - height - BOTTOM_GAP),
  };
}

/** Fits bounds inside a work area: no larger than it, no smaller than the minimum, wholly on screen. */
export function clampToArea(b: Rect, area: Rect): Rect {
  const width = Math.round(Math.min(area.width, Math.max(OVERLAY_MIN.width, b.width)));
  const height = Math.round(Math.min(area.height, Math.max(OVERLAY_MIN.height, b.height)));
  const x = Math.round(Math.min(area.x + area.width - width, Math.max(area.x, b.x)));
  const y = Math.round(Math.min(area.y + area.height - height, Math.max(area.y, b.y)));
  return { x, y, width, height };
}

/** Where the overlay opens on `display`: its remembered bounds there (kept on screen), else the default. */
export function placeOverlay(saved: SavedPlacements, display: DisplayArea): Rect {
  const mine = saved[String(display.id)];
  return mine ? clampToArea(mine, display.workArea) : defaultPlacement(display.workArea);
}

/** The placements after the user moved or resized the overlay on `display`; other displays keep theirs. */
export function rememberPlacement(saved: SavedPlacements, display: DisplayArea, bounds: Rect): SavedPlacements {
  return { ...saved, [String(display.id)]: clampToArea(bounds, display.workArea) };
}
