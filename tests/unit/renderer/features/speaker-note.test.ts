// features/transcript: what the transcript says about its speakers, and where a speaker's name is said.
import { describe, expect, it } from 'vitest';
import { saysSpeaker, type Block } from '../../../../src/renderer/src/features/transcript/paragraphs';
import { noteText } from '../../../../src/renderer/src/features/transcript/speakerNote';
import { RECOGNISED_LIVE } from '../../../../src/shared/ipc/people';

const match = (name: string, similarity: number, named: boolean) => ({ speaker: 'A', voiceId: name, name, similarity, named });

describe('the speaker note', () => {
  it('shows a recognised voice that matches fully (100%), and not a speaker named here', () => {
    expect(noteText(null, [match('Dana', 1, false)])).toBe('Recognised: Dana (100% match).');
    expect(noteText(null, [match('Dana', 1, true)])).toBe('');
    expect(noteText({ speakers: 2, merged: 1, asked: 'auto' }, [match('Lee', 0.913, false)])).toBe(
      '1 short speaker was merged into the nearest voice. Recognised: Lee (91% match).',
    );
    expect(noteText(null, [match('Dana', RECOGNISED_LIVE, false)])).toBe('Recognised: Dana (in live captions).');
  });
});

describe('speaker headings', () => {
  it('are said once per run of one speaker’s paragraphs', () => {
    const blocks: Block[] = ['A', 'A', 'B', 'A', null, null, 'B'].map((speaker, i) => ({ first: i, last: i, start: i * 1000, speaker }));
    expect(blocks.map((_, i) => saysSpeaker(blocks, i))).toEqual([true, false, true, true, false, false, true]);
  });
});
