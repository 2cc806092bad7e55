import { describe, expect, it } from 'vitest';
import { splitMessage } from '../../../../src/renderer/src/components/errorText';

describe('queue error messages', () => {
  it('keeps a short message whole', () => {
    expect(splitMessage('The key was refused.')).toEqual({ summary: 'The key was refused.', detail: null });
  });
  it('shows the first sentence and puts the rest behind Details', () => {
    const msg =
      'The file could not be read as audio or video. Pick another file, or convert it first. (ffmpeg: the file: Invalid data found when processing input)';
    expect(splitMessage(msg)).toEqual({
      summary: 'The file could not be read as audio or video.',
      detail: 'Pick another file, or convert it first. (ffmpeg: the file: Invalid data found when processing input)',
    });
  });
  it('cuts one long sentence where its technical part starts', () => {
    const msg = 'The local engine could not decode this file (ffmpeg: the file: Invalid data found when processing input, exit code 1, stream 0)';
    const out = splitMessage(msg);
    expect(out.summary).toBe('The local engine could not decode this file.');
    expect(out.detail).toMatch(/^\(ffmpeg/);
  });
});
