import { describe, expect, it } from 'vitest';
import {
  breakLines,
  buildCues,
  buildCuesWith,
  builtInProfiles,
  charsPerCaptionProfile,
  checkCues,
  readingChars,
  visibleLines,
  type Cue,
  type RulesProfile,
  type TimedWord,
} from '../../../../src/shared/subtitles/index';
import { longTranscript } from './generate';

const tokens = (c: Cue) => c.text.replace(/^- /gm, '').split(/\s+/).filter(Boolean);

/** The latest a cue could end by the builder's own timing rules: the next cue less the gap, its lead-out allowance, its longest duration. */
function latestEnd(cues: Cue[], i: number, words: TimedWord[], p: RulesProfile): number {
  const c = cues[i]!;
  const next = cues[i + 1];
  const natural = words[c.words![1]]!.end;
  return Math.min(
    next ? next.start - p.minGapMs : Infinity,
    Math.max(natural + p.leadOutMs * 2, c.start + p.minDurationMs),
    c.start + Math.max(p.maxDurationMs, natural - c.start),
  );
}

describe('cue building by profile', () => {
  const words = longTranscript(12_000);
  for (const profile of builtInProfiles) {
    describe(profile.name, () => {
      const cues = buildCuesWith(words, profile);

      it('puts every word in exactly one cue, in order, with its text', () => {
        let next = 0;
        for (const c of cues) {
          expect(c.words![0]).toBe(next);
          next = c.words![1] + 1;
          expect(tokens(c)).toEqual(words.slice(c.words![0], c.words![1] + 1).map((w) => w.text));
        }
        expect(next).toBe(words.length);
      });

      it('keeps times monotonic: each cue ends after it starts and before the next starts', () => {
        for (let i = 0; i < cues.length; i++) {
          expect(cues[i]!.end).toBeGreaterThan(cues[i]!.start);
          if (i + 1 < cues.length) expect(cues[i]!.end).toBeLessThanOrEqual(cues[i + 1]!.start);
        }
      });

      it('breaks no rule unless it is unavoidable', () => {
        for (const issue of checkCues(cues, profile)) {
          if (issue.severity === 'warning') continue;
          const c = cues[issue.cue]!;
          const why = `${issue.rule} on cue ${issue.cue}: ${JSON.stringify(c)}`;
          switch (issue.rule) {
            case 'line-length':
            case 'line-count':
            case 'overlap':
            case 'gap':
              throw new Error(`avoidable: ${why}`);
            case 'too-long':
              // Only a single word that is itself longer than the longest cue.
              expect(c.words![0], why).toBe(c.words![1]);
              break;
            case 'too-short':
            case 'cps':
              // Only when the cue already ends as late as the rules let it (fast speech, the next cue right after).
              expect(c.end, why).toBeGreaterThanOrEqual(latestEnd(cues, issue.cue, words, profile) - 1);
              break;
          }
        }
      });

      it('keeps one speaker per cue, except dialogue lines each opened with a hyphen', () => {
        for (const c of cues) {
          const speakers = new Set(words.slice(c.words![0], c.words![1] + 1).map((w) => w.speaker));
          if (speakers.size > 1) expect(visibleLines(c.text).every((l) => l.startsWith('- '))).toBe(true);
        }
      });

      it('uses one line whenever the text fits on one', () => {
        for (const c of cues) if (!c.text.startsWith('- ') && readingChars(c.text) <= profile.maxCharsPerLine) expect(c.text).not.toContain('\n');
      });
    });
  }

  it('builds 30,000 words in one pass (the benchmark has the time)', () => {
    expect(buildCuesWith(longTranscript(30_000, 3), builtInProfiles[1]!).length).toBeGreaterThan(3000);
  });
});

describe('line breaking', () => {
  const lines = (s: string, max = 42) => breakLines(s.split(' '), max, 2);

  it('keeps one line when it fits', () => {
    expect(lines('We will look at the market.')).toEqual(['We will look at the market.']);
  });

  it('breaks after punctuation', () => {
    expect(lines('Thank you all for joining this meeting, and let us begin now.')).toEqual([
      'Thank you all for joining this meeting,',
      'and let us begin now.',
    ]);
  });

  it('breaks before a conjunction rather than inside a phrase', () => {
    expect(lines('The design team will answer questions because the schedule moved')).toEqual([
      'The design team will answer questions',
      'because the schedule moved',
    ]);
  });

  it('never splits an article from its noun', () => {
    for (let max = 20; max <= 42; max++) {
      const out = lines('We looked at all of the numbers in the quarterly budget report', max);
      if (!out) continue;
      for (const l of out.slice(0, -1)) expect(l).not.toMatch(/\b(the|a|an)$/);
    }
  });

  it('never splits a first name from a last name', () => {
    const out = lines('Yesterday the board asked Dana Whitfield about the launch date');
    expect(out?.join('|')).not.toMatch(/Dana\|Whitfield/);
  });

  it('prefers a bottom-heavy pyramid when both shapes are as good', () => {
    const [top, bottom] = lines('one two three four five six seven eight nine ten eleven twelve', 42)!;
    expect(top!.length).toBeLessThanOrEqual(bottom!.length);
  });

  it('answers null when the text cannot fit', () => {
    expect(breakLines(['supercalifragilistic'], 10, 2)).toBeNull();
    expect(breakLines('a b c d e f g h i j k l m n o p'.split(' '), 5, 2)).toBeNull();
  });

  it('gives two speakers in one cue a hyphen line each', () => {
    const said: TimedWord[] = [
      { text: 'Ready?', start: 0, end: 300, speaker: 'A' },
      { text: 'Yes,', start: 400, end: 600, speaker: 'B' },
      { text: 'go.', start: 650, end: 900, speaker: 'B' },
    ];
    expect(buildCuesWith(said, builtInProfiles[0]!).map((c) => c.text)).toEqual(['- Ready?\n- Yes, go.']);
  });

  it('keeps a cue within one sentence when the next sentence does not fit whole', () => {
    const text = 'We reviewed the budget for the launch in detail. Then the design team answered every single question about the schedule.';
    const ws = text.split(' ').map((t, i) => ({ text: t, start: i * 300, end: i * 300 + 250 }));
    const cues = buildCuesWith(ws, builtInProfiles[0]!);
    expect(cues[0]!.text.replace('\n', ' ')).toBe('We reviewed the budget for the launch in detail.');
  });
  it('reads a title\'s dot as no sentence end: "Mr. Dashwood" is never broken after the title', () => {
    const text = 'After dinner we spoke to Mr. Dashwood about the estate and the house.';
    const ws = text.split(' ').map((t, i) => ({ text: t, start: i * 300, end: i * 300 + 250 }));
    for (const p of builtInProfiles) {
      const cues = buildCuesWith(ws, p);
      for (const c of cues) expect(c.text).not.toMatch(/Mr\.$/m);
    }
    expect(lines('We spoke to Mr. Dashwood about the estate and the old house.')?.join('|')).not.toMatch(/Mr\.\|/);
  });
});

describe("the service's chars_per_caption", () => {
  const words = 'The quick brown fox jumps over the lazy dog. Then it sleeps.'
    .split(' ')
    .map((text, i) => ({ text, start: 320 + i * 400, end: 320 + i * 400 + 350 }));

  it('maps onto the same builder: one line of at most N characters', () => {
    for (const n of [8, 20, 42, 80]) {
      const cues = buildCues(words, { charsPerCaption: n });
      expect(cues).toEqual(buildCuesWith(words, charsPerCaptionProfile(n), { speakers: false }));
      for (const c of cues) expect(c.text.length).toBeLessThanOrEqual(Math.max(n, 6));
      expect(cues.map((c) => c.text).join(' ')).toBe(words.map((w) => w.text).join(' '));
    }
  });

  it('ends a cue after a sentence end once it is half full, and at long pauses', () => {
    const wide = buildCues(words, { charsPerCaption: 80 });
    expect(wide.map((c) => c.text)).toEqual(['The quick brown fox jumps over the lazy dog.', 'Then it sleeps.']);
    expect(
      buildCues([
        { text: 'a', start: 0, end: 100 },
        { text: 'b', start: 3000, end: 3100 },
      ]),
    ).toHaveLength(2);
  });

  it('with a speaker label: never spans two speakers and names each change of speaker once', () => {
    const said = [
      { text: 'Ready?', start: 0, end: 300, speaker: 'A' },
      { text: 'Yes.', start: 400, end: 600, speaker: 'B' },
      { text: 'Then', start: 700, end: 900, speaker: 'B' },
      { text: 'go.', start: 950, end: 1100, speaker: 'B' },
    ];
    const named = buildCues(said, { charsPerCaption: 8, speakerLabel: (s) => (s === 'A' ? 'Dana' : `Speaker ${s}`) });
    expect(named.map((c) => c.text)).toEqual(['Dana: Ready?', 'Speaker B: Yes.', 'Then go.']);
    // Without a label (the engine's /srt, API.md §5) speakers are not named and do not split cues.
    expect(buildCues(said, { charsPerCaption: 80 }).map((c) => c.text)).toEqual(['Ready? Yes. Then go.']);
  });
});
