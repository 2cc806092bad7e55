// Every edit command gives equal cues on equal inputs: main performs what the editor performed (subtitles.run), and the two
// agree only if `perform` depends on nothing but its state and argument. Each command runs twice, on separate deep copies.
import { describe, expect, it } from 'vitest';
import {
  buildCuesWith,
  builtInProfiles,
  checkCue,
  commands,
  toSrt,
  type CommandName,
  type EditorState,
  type FixId,
} from '../../../../src/shared/subtitles/index';
import { cuesDigest } from '../../../../src/shared/subtitles/digest';
import { longTranscript } from './generate';

const words = longTranscript(3_000);
const profile = builtInProfiles[1]!;
const cues = buildCuesWith(words, profile);
const mid = Math.floor(cues.length / 2);
/** The first cue the rules check offers a fix for, and that fix. */
const fixable = cues
  .map((_, i) => checkCue(cues, i, profile).find((x) => x.fix))
  .map((x, i) => (x ? { index: i, fix: x.fix as FixId } : null))
  .find(Boolean)!;

/** An argument each command applies with (every command of the registry must have one here). */
const args: { [N in CommandName]: Parameters<(typeof commands)[N]['perform']>[1] } = {
  editText: { index: mid, text: 'Changed words here.' },
  split: undefined,
  merge: undefined,
  insert: { atMs: cues[mid]!.end + 10 },
  delete: undefined,
  shiftEarlier: undefined,
  shiftLater: undefined,
  shiftAllEarlier: undefined,
  shiftAllLater: undefined,
  shift: { ms: 250, all: false },
  startAtPlayhead: undefined,
  endAtPlayhead: undefined,
  retime: { index: mid, start: cues[mid]!.start + 40, end: cues[mid]!.end + 40 },
  sync: { a: { from: cues[1]!.start, to: cues[1]!.start + 500 }, b: { from: cues[cues.length - 2]!.start, to: cues[cues.length - 2]!.start + 900 } },
  fix: fixable,
  fixAll: undefined,
  rebuild: undefined,
  replaceFrom: { content: 'WEBVTT\n\nNOTE n\n\n' + toSrt(cues.slice(0, 50)).replace(/,(\d{3})/g, '.$1'), name: 'x.vtt' },
};

const state = (): EditorState => ({
  cues: structuredClone(cues),
  selection: [mid, mid + 1],
  caret: 5,
  playheadMs: cues[mid]!.start + 200,
  words: structuredClone(words),
  profile: structuredClone(profile),
});

describe('perform is deterministic', () => {
  for (const name of Object.keys(commands) as CommandName[]) {
    it(`${name}: equal cues (and digests) from equal inputs, and a change`, () => {
      const run = () => (commands[name].perform as (s: EditorState, a: unknown) => { cues: unknown } | null)(state(), args[name]);
      const a = run();
      const b = run();
      expect(a, `${name} applies to the generated document`).not.toBeNull();
      expect(b).toEqual(a);
      expect(cuesDigest(b!.cues as typeof cues)).toBe(cuesDigest(a!.cues as typeof cues));
      // Rebuilding cues built by the same profile from the same words gives them again.
      if (name !== 'rebuild') expect(cuesDigest(a!.cues as typeof cues)).not.toBe(cuesDigest(cues));
    });
  }

  it('names each command by its key in the registry (the name is what crosses the bridge)', () => {
    for (const [key, c] of Object.entries(commands)) expect(c.name).toBe(key);
  });
});
