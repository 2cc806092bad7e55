/**
 * Subtitle edits as named pure functions over a cue list: each returns a new
 * list (unchanged cues kept by reference, so history stores only what moved)
 * or the same list when there is nothing to do. Times are clamped so cues
 * never start before 0 or end before they start.
 */
import { firstEndingFrom } from '../timeline';
import { layoutCue, rebalanceText } from './lines';
import type { RulesProfile } from './profiles';
import type { Cue, TimedWord } from './types';
import { spliceCues } from './history';

const MIN_CUE_MS = 100;

function replace(cues: readonly Cue[], at: number, remove: number, ...insert: Cue[]): Cue[] {
  return spliceCues(cues, at, remove, insert);
}

const tokensOf = (text: string): string[] => text.replace(/^- /gm, '').split(/\s+/).filter(Boolean);

/** Lays text out again by the profile; the text as it was when it cannot fit. */
function relayout(text: string, p: RulesProfile | undefined): string {
  if (!p) return text;
  return rebalanceText(text, p.maxCharsPerLine, p.maxLines) ?? text;
}

export function editText(cues: readonly Cue[], index: number, text: string): Cue[] {
  const c = cues[index];
  if (!c || c.text === text) return cues as Cue[];
  return replace(cues, index, 1, { ...c, text });
}

/**
 * Splits a cue at a character of its text (moved to the nearest space). The
 * time of the split is the boundary between the words on either side when the
 * cue knows its words, else proportional to the characters.
 */
export function splitCue(cues: readonly Cue[], index: number, at: number, words: readonly TimedWord[] = [], profile?: RulesProfile): Cue[] {
  const c = cues[index];
  if (!c) return cues as Cue[];
  const flat = c.text.replace(/\n/g, ' ');
  // Nearest space to the cursor.
  let best = -1;
  for (let i = 0; i < flat.length; i++) if (flat[i] === ' ' && (best < 0 || Math.abs(i - at) < Math.abs(best - at))) best = i;
  if (best <= 0 || best >= flat.length - 1) return cues as Cue[];
  const left = flat.slice(0, best).trim();
  const right = flat.slice(best + 1).trim();
  if (!left || !right) return cues as Cue[];
  const nLeft = tokensOf(left).length;
  let time: number;
  let wl: [number, number] | undefined;
  let wr: [number, number] | undefined;
  const range = c.words;
  if (range && range[1] - range[0] + 1 === tokensOf(flat).length && words[range[0] + nLeft]) {
    const a = words[range[0] + nLeft - 1]!;
    const b = words[range[0] + nLeft]!;
    time = Math.round((a.end + b.start) / 2);
    wl = [range[0], range[0] + nLeft - 1];
    wr = [range[0] + nLeft, range[1]];
  } else {
    time = Math.round(c.start + ((c.end - c.start) * left.length) / (left.length + right.length));
  }
  time = Math.min(Math.max(time, c.start + 1), c.end - 1);
  // The profile's minimum gap comes out of the first half, as long as it stays at least 100 ms long.
  const leftEnd = Math.max(Math.min(c.start + MIN_CUE_MS, time), time - (profile?.minGapMs ?? 0));
  const leftCue: Cue = { ...c, end: leftEnd, text: relayout(left, profile), words: wl };
  const rightCue: Cue = { start: time, end: c.end, text: relayout(right, profile), words: wr, speaker: wr ? (words[wr[0]]?.speaker ?? c.speaker) : c.speaker };
  return replace(cues, index, 2 - 1, leftCue, rightCue);
}

/** Merges a cue with the next one; two speakers become a dialogue cue (a hyphen line each). */
export function mergeWithNext(cues: readonly Cue[], index: number, profile?: RulesProfile): Cue[] {
  const a = cues[index];
  const b = cues[index + 1];
  if (!a || !b) return cues as Cue[];
  const dialogue = a.speaker != null && b.speaker != null && a.speaker !== b.speaker;
  let text: string;
  if (dialogue) {
    const lines = [a.text, b.text].map((t) => t.replace(/\n/g, ' ').replace(/^- /, ''));
    text =
      (profile
        ? layoutCue(
            lines.map((l) => l.split(' ')),
            profile.maxCharsPerLine,
            Math.max(2, profile.maxLines),
          )?.join('\n')
        : null) ?? lines.map((l) => `- ${l}`).join('\n');
  } else text = relayout(`${a.text} ${b.text}`.replace(/\n/g, ' '), profile);
  const words: [number, number] | undefined = a.words && b.words && b.words[0] === a.words[1] + 1 ? [a.words[0], b.words[1]] : undefined;
  const merged: Cue = { ...a, end: Math.max(a.end, b.end), text, words };
  if (b.notes) merged.notes = [...(a.notes ?? []), ...b.notes];
  return replace(cues, index, 2, merged);
}

/**
 * A new empty cue: at `atMs` when given, else in the first gap of at least
 * 300 ms from the end of cue `index` on (-1: from the start), so it overlaps nothing.
 */
export function insertCue(cues: readonly Cue[], index: number, atMs?: number, durationMs = 1500, text = ''): Cue[] {
  let start: number;
  let at: number;
  if (atMs !== undefined) {
    start = Math.max(0, Math.round(atMs));
    at = cues.findIndex((c) => c.start > start);
    if (at < 0) at = cues.length;
  } else {
    at = Math.max(0, index + 1);
    start = index >= 0 && cues[index] ? cues[index]!.end + 1 : 0;
    while (at < cues.length && cues[at]!.start - start < 300) {
      start = cues[at]!.end + 1;
      at++;
    }
  }
  const next = cues[at];
  const end = Math.max(start + MIN_CUE_MS, next ? Math.min(start + durationMs, next.start - 1) : start + durationMs);
  return replace(cues, at, 0, { start, end, text });
}

export function deleteCues(cues: readonly Cue[], indexes: readonly number[]): Cue[] {
  if (!indexes.length) return cues as Cue[];
  const drop = new Set(indexes);
  return cues.filter((_, i) => !drop.has(i));
}

/** Moves the given cues (all when `indexes` is null) by `ms`, never before 0. */
export function shiftCues(cues: readonly Cue[], indexes: readonly number[] | null, ms: number): Cue[] {
  if (ms === 0) return cues as Cue[];
  // The selection only: a copy of the list with those cues replaced, not a pass that rebuilds every cue.
  const which = indexes ? [...new Set(indexes)].filter((i) => cues[i] !== undefined) : null;
  // Never before 0: the earliest cue shifted limits a backwards shift.
  let least = Infinity;
  if (which) for (const i of which) least = Math.min(least, cues[i]!.start);
  else for (const c of cues) least = Math.min(least, c.start);
  const d = Math.max(ms, -least);
  if (d === 0 || least === Infinity) return cues as Cue[];
  const moved = (c: Cue): Cue => ({ ...c, start: c.start + d, end: c.end + d });
  if (!which) return cues.map(moved);
  const out = cues.slice();
  for (const i of which) out[i] = moved(cues[i]!);
  return sortByStart(out);
}

function sortByStart(cues: Cue[]): Cue[] {
  for (let i = 1; i < cues.length; i++) if (cues[i]!.start < cues[i - 1]!.start) return cues.slice().sort((a, b) => a.start - b.start);
  return cues;
}

/** New times for one cue (a drag on the waveform, or typed): at least 100 ms long, never before 0. */
export function retimeCue(cues: readonly Cue[], index: number, start: number, end: number): Cue[] {
  const c = cues[index];
  if (!c) return cues as Cue[];
  const s = Math.max(0, Math.round(start));
  const e = Math.max(s + MIN_CUE_MS, Math.round(end));
  if (s === c.start && e === c.end) return cues as Cue[];
  return sortByStart(replace(cues, index, 1, { ...c, start: s, end: e }));
}

export function setStartAt(cues: readonly Cue[], index: number, ms: number): Cue[] {
  const c = cues[index];
  if (!c || ms >= c.end) return cues as Cue[];
  return retimeCue(cues, index, ms, c.end);
}

export function setEndAt(cues: readonly Cue[], index: number, ms: number): Cue[] {
  const c = cues[index];
  if (!c || ms <= c.start) return cues as Cue[];
  return retimeCue(cues, index, c.start, ms);
}

/**
 * Sync by two reference points: the cue times `a.from` and `b.from` should be
 * at `a.to` and `b.to`. Fixes a constant offset and a different frame rate
 * (25 vs 23.976 fps) in one step: every time t becomes to(a) + (t − from(a)) × scale.
 */
export function syncTwoPoints(cues: readonly Cue[], a: { from: number; to: number }, b: { from: number; to: number }): Cue[] {
  if (a.from === b.from) return cues as Cue[];
  const scale = (b.to - a.to) / (b.from - a.from);
  if (!(scale > 0) || !Number.isFinite(scale)) return cues as Cue[];
  const map = (t: number) => Math.max(0, Math.round(a.to + (t - a.from) * scale));
  return cues.map((c) => ({ ...c, start: map(c.start), end: Math.max(map(c.start) + 1, map(c.end)) }));
}

/** Snaps a time to the nearest word boundary (start or end) or the playhead, when one is within `withinMs`. */
export function snapTime(ms: number, words: readonly TimedWord[], playheadMs: number | null, withinMs: number): number {
  let best = ms;
  let dist = withinMs + 1;
  if (playheadMs !== null && Math.abs(playheadMs - ms) <= withinMs) {
    best = playheadMs;
    dist = Math.abs(playheadMs - ms);
  }
  for (let i = firstEndingFrom(words, ms - withinMs); i < words.length && words[i]!.start <= ms + withinMs; i++) {
    for (const t of [words[i]!.start, words[i]!.end]) {
      const d = Math.abs(t - ms);
      if (d < dist) {
        dist = d;
        best = t;
      }
    }
  }
  return Math.round(best);
}
