// The cue digest (shared/subtitles/digest.ts): the renderer's digest after an edit, from the cues the edit touched
// (digestAfter) or read from main's (knownDigest), is the one a full pass gives, as main computes it; order counts.
import { describe, expect, it } from 'vitest';
import { applySplice, diffCues, type Cue } from '../../../../src/shared/subtitles/index';
import { cuesDigest, digestAfter, knownDigest } from '../../../../src/shared/subtitles/digest';

const cue = (i: number, text = `cue ${i}`): Cue => ({ start: i * 1000, end: i * 1000 + 500, text });
const list = (n: number) => Array.from({ length: n }, (_, i) => cue(i));
/** The same cues as new objects: a full pass with no per-object memory, as the other side of the bridge has. */
const fresh = (cues: readonly Cue[]) => cues.map((c) => ({ ...c }));

describe('cuesDigest', () => {
  it('follows every splice from the touched cues alone, equal to a full pass, at the ends and in the middle', () => {
    let seed = 7;
    const rand = (n: number) => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) % n) | 0;
    let cues = list(200);
    cuesDigest(cues);
    for (let step = 0; step < 300; step++) {
      const at = rand(cues.length + 1);
      const removed = Math.min(rand(4), cues.length - at);
      const insert = Array.from({ length: rand(4) }, (_, k) => cue(at + k, `new ${step}.${k}`));
      const next = [...cues.slice(0, at), ...insert, ...cues.slice(at + removed)];
      digestAfter(cues, at, removed, insert.length, next);
      expect(cuesDigest(next), `step ${step}`).toBe(cuesDigest(fresh(next)));
      cues = next;
    }
    // To empty and back.
    const none: Cue[] = [];
    digestAfter(cues, 0, cues.length, 0, none);
    expect(cuesDigest(none)).toBe(cuesDigest([]));
    const one = [cue(1)];
    digestAfter(none, 0, 0, 1, one);
    expect(cuesDigest(one)).toBe(cuesDigest(fresh(one)));
  });

  it('follows an edit as the store makes it (diffCues, applySplice), and undo back to the same digest', () => {
    const before = list(50);
    const beforeDigest = cuesDigest(before);
    const after = before.map((c, i) => (i === 49 ? { ...c, text: 'changed' } : c));
    const splice = diffCues(before, after)!;
    digestAfter(before, splice.at, splice.remove.length, splice.insert.length, after);
    expect(cuesDigest(after)).toBe(cuesDigest(fresh(after)));
    const undone = applySplice(after, { at: splice.at, remove: splice.insert, insert: splice.remove });
    digestAfter(after, splice.at, splice.insert.length, splice.remove.length, undone);
    expect(cuesDigest(undone)).toBe(beforeDigest);
  });

  it('tells apart swapped neighbours, a changed field and a changed count; reads a digest main sent', () => {
    const cues = list(5);
    const d = cuesDigest(cues);
    expect(cuesDigest([cues[1]!, cues[0]!, ...cues.slice(2)])).not.toBe(d);
    expect(cuesDigest(cues.map((c, i) => (i === 2 ? { ...c, speaker: 'A' } : c)))).not.toBe(d);
    expect(cuesDigest(cues.slice(0, 4))).not.toBe(d);
    const opened = fresh(cues);
    knownDigest(opened, d);
    expect(cuesDigest(opened)).toBe(d);
    // A digest of another count is not taken.
    const other = fresh(cues);
    knownDigest(other, '4:00000000');
    expect(cuesDigest(other)).toBe(d);
  });
});
