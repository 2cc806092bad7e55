import { describe, expect, it } from 'vitest';
import {
  applyFix,
  applySplice,
  buildCuesWith,
  builtInProfiles,
  checkCues,
  commandForKey,
  commands,
  diffCues,
  fixAll,
  invertSplice,
  snapTime,
  spliceFits,
  type Cue,
  type EditorState,
} from '../../../../src/shared/subtitles/index';
import { longTranscript } from './generate';

const netflix = builtInProfiles[0]!;
const words = 'We will look at the market, the budget and the product launch. Then the team will answer questions.'
  .split(' ')
  .map((text, i) => ({ text, start: 500 + i * 350, end: 500 + i * 350 + 300, speaker: i < 12 ? 'A' : 'B' }));
const built = buildCuesWith(words, netflix);

function state(cues: Cue[] = built, extra: Partial<EditorState> = {}): EditorState {
  return { cues, selection: [0], caret: null, playheadMs: 0, words, profile: netflix, ...extra };
}

/** Runs a command and checks that its splice, undone, gives back exactly the list before, and redone the list after. */
function performAndUndo<A>(cmd: { perform(s: EditorState, a: A): { cues: Cue[] } | null }, s: EditorState, arg: A): Cue[] {
  const r = cmd.perform(s, arg);
  expect(r).not.toBeNull();
  const splice = diffCues(s.cues, r!.cues)!;
  expect(splice).not.toBeNull();
  expect(spliceFits(s.cues, splice)).toBe(true);
  expect(applySplice(s.cues, splice)).toEqual(r!.cues);
  const undone = applySplice(r!.cues, invertSplice(splice));
  expect(undone).toEqual(s.cues);
  expect(applySplice(undone, splice)).toEqual(r!.cues);
  return r!.cues;
}

describe('editor operations, each with its undo', () => {
  it('builds two cues from two speakers’ sentences', () => {
    expect(built.map((c) => c.text)).toEqual(['We will look at the market,\nthe budget and the product launch.', 'Then the team will answer questions.']);
  });

  it('edits text', () => {
    const out = performAndUndo(commands.editText, state(), { index: 1, text: 'Then the crew will answer questions.' });
    expect(out[1]!.text).toBe('Then the crew will answer questions.');
    expect(out[0]).toBe(built[0]); // untouched cues are the same objects
  });

  it('splits at the cursor, timing the split at the nearest word boundary', () => {
    const at = built[0]!.text.indexOf('the budget') - 1; // the space before "the budget"
    const out = performAndUndo(commands.split, state(built, { caret: at + 2 }), undefined);
    expect(out.map((c) => c.text)).toEqual(['We will look at the market,', 'the budget and the product launch.', 'Then the team will answer questions.']);
    // Between "market," (ends 500+5*350+300) and "the" (starts 500+6*350).
    const boundary = Math.round((500 + 5 * 350 + 300 + 500 + 6 * 350) / 2);
    expect(out[1]!.start).toBe(boundary);
    // The profile's minimum gap (83 ms) comes out of the first half.
    expect(out[0]!.end).toBe(boundary - 83);
    expect(out[0]!.words).toEqual([0, 5]);
    expect(out[1]!.words).toEqual([6, 11]);
  });

  it('merges with the next cue; two speakers become dialogue lines', () => {
    const out = performAndUndo(commands.merge, state(), undefined);
    expect(out).toHaveLength(1);
    expect(out[0]!.text).toBe('- We will look at the market, the budget and the product launch.\n- Then the team will answer questions.');
    expect(out[0]!.end).toBe(built[1]!.end);
  });

  it('inserts an empty cue in the first gap after the selected one that has room, overlapping nothing', () => {
    const spaced: Cue[] = [built[0]!, { ...built[1]!, start: built[0]!.end + 2000, end: built[0]!.end + 4000 }];
    const out = performAndUndo(commands.insert, state(spaced), undefined);
    expect(out).toHaveLength(3);
    expect(out[1]).toMatchObject({ text: '', start: built[0]!.end + 1, end: built[0]!.end + 1501 });
    // No room between the two built cues (83 ms): it goes after the second.
    const tight = performAndUndo(commands.insert, state(), undefined);
    expect(tight[2]).toMatchObject({ text: '', start: built[1]!.end + 1 });
  });

  it('deletes the selection', () => {
    expect(performAndUndo(commands.delete, state(), undefined)).toEqual([built[1]]);
  });

  it('shifts the selection or everything by ±100 ms, never before 0', () => {
    const later = performAndUndo(commands.shiftLater, state(), undefined);
    expect(later[0]!.start).toBe(built[0]!.start + 100);
    expect(later[1]).toBe(built[1]);
    const all = performAndUndo(commands.shiftAllEarlier, state(), undefined);
    expect(all.map((c) => c.start)).toEqual(built.map((c) => c.start - 100));
    const far = performAndUndo(commands.shift, state(), { ms: -60_000, all: true });
    expect(far[0]!.start).toBe(0);
  });

  it('shifting selected cues past their neighbours keeps them in time order and keeps them selected; only they are new objects', () => {
    const cues: Cue[] = [0, 1, 2, 3, 4].map((i) => ({ start: i * 1000, end: i * 1000 + 800, text: `cue ${i}` }));
    // Cues 0 and 1 by 2.5 s: they land after cue 2 and cue 3. A repeated and an out-of-range index change nothing.
    const r = commands.shift.perform(state(cues, { selection: [0, 1, 1, 9] }), { ms: 2500, all: false })!;
    expect(r.cues.map((c) => c.text)).toEqual(['cue 2', 'cue 0', 'cue 3', 'cue 1', 'cue 4']);
    expect(r.cues.map((c) => c.start)).toEqual([2000, 2500, 3000, 3500, 4000]);
    expect(r.selection).toEqual([1, 3]);
    expect([r.cues[0], r.cues[2], r.cues[4]]).toEqual([cues[2], cues[3], cues[4]]);
    expect(r.cues[0]).toBe(cues[2]);
    // Backwards, only the selection limits the shift: cue 3 can go back 3 s although cue 0 is at 0.
    const back = commands.shift.perform(state(cues, { selection: [3] }), { ms: -5000, all: false })!;
    expect(back.cues.map((c) => c.text)).toEqual(['cue 0', 'cue 3', 'cue 1', 'cue 2', 'cue 4']);
    expect(back.cues[1]!.start).toBe(0);
    expect(back.selection).toEqual([1]);
    // Nothing selected that exists: nothing to do.
    expect(commands.shift.perform(state(cues, { selection: [7] }), { ms: 100, all: false })).toBeNull();
  });

  it('sets the start or end to the playhead', () => {
    const start = performAndUndo(commands.startAtPlayhead, state(built, { playheadMs: 300 }), undefined);
    expect(start[0]!.start).toBe(300);
    const end = performAndUndo(commands.endAtPlayhead, state(built, { playheadMs: 4000 }), undefined);
    expect(end[0]!.end).toBe(4000);
    // A playhead after the end cannot be a start.
    expect(commands.startAtPlayhead.perform(state(built, { playheadMs: built[0]!.end + 10 }), undefined)).toBeNull();
  });

  it('retimes one cue (a drag on the waveform) and keeps the list in time order', () => {
    const out = performAndUndo(commands.retime, state(), { index: 1, start: 100, end: 400 });
    expect(out[0]).toMatchObject({ start: 100, end: 400, text: built[1]!.text });
  });

  it('syncs by two reference points: offset and frame-rate change together', () => {
    const cues: Cue[] = [
      { start: 1000, end: 2000, text: 'a' },
      { start: 25_000, end: 26_000, text: 'b' },
    ];
    // Made for 25 fps, played at 23.976 and 2 s late.
    const scale = 25 / 23.976;
    const out = performAndUndo(commands.sync, state(cues), { a: { from: 1000, to: 3000 }, b: { from: 25_000, to: Math.round(3000 + 24_000 * scale) } });
    expect(out[0]!.start).toBe(3000);
    expect(out[1]!.start).toBe(Math.round(3000 + 24_000 * scale));
    expect(out[0]!.end).toBe(Math.round(3000 + 1000 * scale));
  });

  it('applies each rules fix, and all of them at once', () => {
    const tight: Cue[] = [
      { start: 0, end: 400, text: 'A very long line of text that is far wider than forty-two characters allows.' },
      { start: 420, end: 3000, text: 'Next.' },
    ];
    const rebalanced = performAndUndo(commands.fix, state(tight), { index: 0, fix: 'rebalance' });
    expect(rebalanced[0]!.text.split('\n').every((l) => l.length <= 42)).toBe(true);
    const gapped = applyFix(tight, 0, 'gap', netflix);
    expect(gapped[0]!.end).toBe(420 - 83);
    const fixed = performAndUndo(commands.fixAll, state(tight), undefined);
    expect(checkCues(fixed, netflix).filter((i) => i.severity === 'error' && (i.rule === 'line-length' || i.rule === 'gap'))).toEqual([]);
  });

  it('fixes a long generated transcript built by a looser profile down to its unavoidable rules', () => {
    const ws = longTranscript(3000, 11);
    const lenient = buildCuesWith(ws, builtInProfiles[2]!);
    const before = checkCues(lenient, netflix).filter((i) => i.severity === 'error').length;
    const after = checkCues(fixAll(lenient, netflix, ws), netflix).filter((i) => i.severity === 'error').length;
    expect(before).toBeGreaterThan(0);
    expect(after).toBeLessThan(before / 2);
  });

  it('finds the command for a shortcut', () => {
    const key = (k: string, mods: Partial<{ alt: boolean; shift: boolean; ctrl: boolean }> = {}) => ({
      key: k,
      altKey: mods.alt ?? false,
      shiftKey: mods.shift ?? false,
      ctrlKey: mods.ctrl ?? false,
      metaKey: false,
    });
    expect(commandForKey(key('s', { alt: true }))?.name).toBe('split');
    expect(commandForKey(key('m', { alt: true }))?.name).toBe('merge');
    expect(commandForKey(key('ArrowRight', { alt: true, shift: true }))?.name).toBe('shiftAllLater');
    expect(commandForKey(key('s'))).toBeNull();
  });

  it('snaps a dragged time to the nearest word boundary or the playhead', () => {
    expect(snapTime(1190, words, null, 100)).toBe(1200); // "look" starts at 1200
    expect(snapTime(1190, words, 1180, 100)).toBe(1180);
    expect(snapTime(10_000_000, words, null, 100)).toBe(10_000_000);
  });

  it('diffs a 5,000-cue list to the one cue an edit touched', () => {
    const many = buildCuesWith(longTranscript(30_000, 5), builtInProfiles[1]!);
    const after = commands.editText.perform(state(many), { index: 2500, text: 'changed' })!.cues;
    const s = diffCues(many, after)!;
    expect(s).toMatchObject({ at: 2500, remove: [many[2500]], insert: [after[2500]] });
    // JSON round trips (the stored history) compare by value.
    expect(diffCues(JSON.parse(JSON.stringify(many)) as Cue[], many)).toBeNull();
  });
});
