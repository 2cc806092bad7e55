// Which transcripts have approximate word times (issue 25): looked up from the model the service says it used in the
// catalog; Moonshine (none) and stock Whisper (segments) do, Parakeet and unknown or cloud models do not. The subtitle
// editor (Waveform.tsx) snaps to no word of such a transcript: it hands snapTime no words, as this shows.
import { describe, expect, it } from 'vitest';
import { approximateTimes } from '../../../../src/renderer/src/lib/wordTimes';
import { snapTime } from '../../../../src/shared/subtitles/index';

describe('approximateTimes', () => {
  it('names a model without word timings and says what it means', () => {
    const m = approximateTimes('moonshine-tiny-en');
    expect(m).toMatchObject({ model: 'Moonshine tiny (English, int8)', timings: 'none' });
    expect(m!.note).toMatch(/^Word times are approximate: Moonshine tiny \(English, int8\) gives no word timings, .*does not snap to them\.$/);
    expect(approximateTimes('whisper-tiny.en')).toMatchObject({ timings: 'segments' });
  });

  it('is null for a model with word timings, an unknown model, or none', () => {
    for (const model of ['parakeet-tdt-0.6b-v2', 'zipformer-small-en', 'universal-3-pro', 'sphinx-en-us', 'pocketsphinx', '', null, undefined])
      expect(approximateTimes(model)).toBeNull();
  });

  it('leaves the subtitle editor nothing to snap to but the playhead', () => {
    const words = [{ text: 'hello', start: 1000, end: 1400 }];
    const editorWords = (model: string) => (approximateTimes(model) ? [] : words);
    expect(snapTime(1030, editorWords('parakeet-tdt-0.6b-v2'), null, 100)).toBe(1000);
    expect(snapTime(1030, editorWords('moonshine-base-en'), null, 100)).toBe(1030);
    expect(snapTime(1030, editorWords('moonshine-base-en'), 1080, 100)).toBe(1080);
  });
});
