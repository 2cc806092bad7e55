/** Citations in answers: found by label, mapped to moments, linked; quotes given times; prompts labelled safely. */
import { describe, expect, it } from 'vitest';
import {
  checkCitations,
  citationHref,
  findCitations,
  labelOf,
  labelSources,
  linkCitations,
  parseCitationHref,
  parseClock,
} from '../../../src/shared/chat/citations';
import { citeQuotes } from '../../../src/main/services/chat/quotes';

const sources = [
  { recordingId: 'r1', label: 'Monday standup' },
  { recordingId: 'r2', label: 'Quarterly review' },
];

describe('chat citations', () => {
  it('finds [Title @ mm:ss] and [Title @ h:mm:ss] citations of known recordings, ignoring case', () => {
    const text = 'Revenue grew [Quarterly review @ 01:05]; Dana sends it [monday standup @ 1:00:09].';
    expect(findCitations(text, sources).map((c) => [c.recordingId, c.atMs])).toEqual([
      ['r2', 65_000],
      ['r1', 3_609_000],
    ]);
  });

  it('ignores citations of unknown recordings, impossible clocks and existing Markdown links', () => {
    expect(findCitations('[Other @ 00:10] [Monday standup @ 00:75] [Monday standup @ 00:10](http://x)', sources)).toEqual([]);
  });

  it('takes a bare [mm:ss] only when the answer has a single recording', () => {
    expect(findCitations('said [00:08]', [sources[0]!]).map((c) => c.atMs)).toEqual([8000]);
    expect(findCitations('said [00:08]', sources)).toEqual([]);
  });

  it('links each citation to its moment, showing the title', () => {
    const text = 'Grew [#2 @ 01:05].';
    const found = findCitations(text, [{ recordingId: 'r2', label: '#2' }]);
    expect(linkCitations(text, found, () => 'Quarterly review')).toBe(`Grew [Quarterly review @ 01:05](${citationHref('r2', 65_000)}).`);
    expect(parseCitationHref(citationHref('a/b c', 1200))).toEqual({ recordingId: 'a/b c', atMs: 1200 });
    expect(parseCitationHref('https://example.com')).toBeNull();
  });

  it('makes labels without brackets, @ or sentence punctuation, unique per prompt', () => {
    expect(labelOf('notes [v2] @ 9.30!')).toBe('notes v2 9 30');
    expect(
      labelSources([
        { id: 'a', title: 'Standup' },
        { id: 'b', title: 'standup' },
      ]).map((s) => s.label),
    ).toEqual(['Standup', 'standup (2)']);
    expect(parseClock('1:02:03')).toBe(3_723_000);
    expect(parseClock('12:60')).toBeNull();
  });

  it('gives quoted sentences the time they were said', () => {
    const out = citeQuotes(
      'She said "Dana will send the revised budget" and left.',
      [{ startMs: 9000, text: 'Dana will send the revised budget on Friday.' }],
      'Monday standup',
    );
    expect(out).toBe('She said "Dana will send the revised budget" [Monday standup @ 00:09] and left.');
  });

  it('keeps only citations that point at a passage the model was given, and takes invented ones out of the answer', () => {
    const given = [
      { recordingId: 'r1', startMs: 65_400 },
      { recordingId: 'r2', startMs: 3_000 },
    ];
    const text = 'Budget agreed [Monday standup @ 01:05]. Launch moved [Monday standup @ 07:42]. Hired [Quarterly review @ 00:03] and [Board call @ 00:03].';
    const out = checkCitations(text, sources, given);
    expect(out.text).toBe('Budget agreed [Monday standup @ 01:05]. Launch moved. Hired [Quarterly review @ 00:03] and.');
    expect(out.dropped).toBe(2);
    expect(out.citations.map((c) => [c.recordingId, c.atMs])).toEqual([
      ['r1', 65_000],
      ['r2', 3_000],
    ]);
    // The kept citations' places are in the new text, so they link where they stand.
    for (const c of out.citations) expect(out.text.slice(c.index, c.index + c.length)).toMatch(/^\[.+ @ \d\d:\d\d\]$/);
    expect(linkCitations(out.text, out.citations)).toContain(`](${citationHref('r2', 3_000)})`);
  });
});
