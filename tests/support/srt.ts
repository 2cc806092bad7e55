/** An SRT file of `n` cues (cue i from at(i), 500 ms long), written by the app's own SRT writer: the large imports of the hostile and e2e suites. */
import { toSrt } from '../../src/shared/subtitles/srt';

export function srtOf(n: number, text: (i: number) => string = (i) => `cue ${i}`, at: (i: number) => number = (i) => i * 1000): string {
  return toSrt(Array.from({ length: n }, (_, i) => ({ start: at(i), end: at(i) + 500, text: text(i) })));
}
