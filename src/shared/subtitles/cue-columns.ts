/**
 * Cues packed as columns for the bridge (wire.ts) and back, and a selection
 * as index ranges. Types only from the schemas, so the renderer unpacks
 * without loading zod (as transcript-columns.ts does for words). 200,000 cue
 * objects are ~9 MB of JSON; as columns they check as arrays of primitives.
 */
import { cuesDigest } from './digest';
import type { SubtitleDoc } from './schema';
import type { Cue } from './types';
import type { CueColumns, SubtitleDocWire } from './wire';

export function packCues(cues: readonly Cue[]): CueColumns {
  const n = cues.length;
  const c: CueColumns = {
    start: new Array(n),
    end: new Array(n),
    text: new Array(n),
    firstWord: new Array(n),
    lastWord: new Array(n),
    speaker: [],
    ident: [],
    settings: [],
    notes: [],
  };
  for (let i = 0; i < n; i++) {
    const q = cues[i] as Cue;
    c.start[i] = q.start;
    c.end[i] = q.end;
    c.text[i] = q.text;
    c.firstWord[i] = q.words ? q.words[0] : -1;
    c.lastWord[i] = q.words ? q.words[1] : -1;
    if (q.speaker !== undefined) c.speaker.push([i, q.speaker]);
    if (q.ident !== undefined) c.ident.push([i, q.ident]);
    if (q.settings !== undefined) c.settings.push([i, q.settings]);
    if (q.notes !== undefined) c.notes.push([i, q.notes]);
  }
  return c;
}

export function unpackCues(c: CueColumns): Cue[] {
  const cues: Cue[] = new Array(c.start.length);
  for (let i = 0; i < cues.length; i++) {
    const q: Cue = { start: c.start[i] as number, end: c.end[i] as number, text: c.text[i] as string };
    const first = c.firstWord[i] as number;
    if (first >= 0) q.words = [first, c.lastWord[i] as number];
    cues[i] = q;
  }
  for (const [i, v] of c.speaker) (cues[i] as Cue).speaker = v;
  for (const [i, v] of c.ident) (cues[i] as Cue).ident = v;
  for (const [i, v] of c.settings) (cues[i] as Cue).settings = v;
  for (const [i, v] of c.notes) (cues[i] as Cue).notes = v;
  return cues;
}

/** Ascending cue indexes as [first, last] ranges: a selection of 200,000 cues crosses as one pair. */
export function toRanges(selection: readonly number[]): [number, number][] {
  const out: [number, number][] = [];
  for (const i of selection) {
    const last = out[out.length - 1];
    if (last && i === last[1] + 1) last[1] = i;
    else out.push([i, i]);
  }
  return out;
}

/** The indexes of `ranges`, in their order; only those below `count` (a range past the list cannot make main count to a billion). */
export function fromRanges(ranges: readonly (readonly [number, number])[], count: number): number[] {
  const out: number[] = [];
  for (const [a, b] of ranges) for (let i = a; i <= Math.min(b, count - 1); i++) out.push(i);
  return out;
}

/** The document as subtitles.open sends it: cues as columns, with their digest. */
export function wireDoc(doc: SubtitleDoc): SubtitleDocWire {
  return { ...doc, cues: packCues(doc.cues), digest: cuesDigest(doc.cues) };
}
