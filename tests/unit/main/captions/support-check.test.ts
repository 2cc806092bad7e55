/** The summary at Stop's check of each bullet against the lines it cites: numbers, names and most content words must occur there. */
import { describe, expect, it } from 'vitest';
import { claims, markUnsupported, NOT_FOUND, supported } from '../../../../src/main/services/captions/support-check';

const lines = [
  { startMs: 4000, text: 'The budget is small this year.' },
  { startMs: 9000, text: 'Dana will send the revised slides on Friday.' },
  { startMs: 15_000, text: 'We hired 12 people in March.' },
];

describe('support check', () => {
  it('reads a bullet’s numbers, names and content words', () => {
    expect(claims('- Dana sends the 2,500 slides to Priya [00:09]')).toEqual({ numbers: ['2500'], names: ['dana', 'priya'], words: ['sends', 'slides'] });
  });

  it('keeps bullets their cited lines support, paraphrased', () => {
    expect(supported('- The budget is small [00:04]', lines[0]!.text)).toBe(true);
    expect(supported('- Slides revised and sent by Dana on Friday [00:09]', lines[1]!.text)).toBe(true);
    expect(supported('- Hired 12 people [00:15]', lines[2]!.text)).toBe(true);
  });

  it('marks a number never said, a name never said, a claim of other words, and a bullet with no citation', () => {
    const summary = [
      '- Budget is 4500 dollars [00:04].',
      '- Priya will send the slides [00:09]',
      '- The launch moved to autumn after the outage [00:15]',
      '- Nobody cited this.',
      '- The budget is small [00:04]',
      'A closing line that is no bullet.',
    ].join('\n');
    const out = markUnsupported(summary, lines);
    expect(out.marked).toBe(4);
    const marked = out.text.split('\n').filter((l) => l.endsWith(`(${NOT_FOUND})`));
    expect(marked.map((l) => l.slice(0, 12))).toEqual(['- Budget is ', '- Priya will', '- The launch', '- Nobody cit']);
    expect(out.text).toContain('- The budget is small [00:04]\nA closing line that is no bullet.');
  });
});
