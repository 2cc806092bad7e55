/**
 * A file through the engine's batch path as a job runs it, without HTTP or
 * the job store: ffmpeg decode → noise suppression when the file is noisy →
 * speech segments → PocketSphinx. For the recognizer tests.
 */
import { decodeToRaw, readSamples } from '../../../src/engine/audio/decode';
import { suppressNoise } from '../../../src/engine/audio/denoise';
import { findSpeechSegments } from '../../../src/engine/audio/segment';
import type { RecognizedWord, SphinxRecognizer } from '../../../src/engine/recognizer/index';

export interface Recognized {
  /** The words, their times from the start of the file. */
  words: RecognizedWord[];
  /** Whether the audio was noisy enough to be denoised. */
  denoised: boolean;
}

/** `raw` is where the decoded audio goes (overwritten); `denoise: false` skips noise suppression. A denoiser failure throws. */
export async function recognizeFile(rec: SphinxRecognizer, file: string, raw: string, opts: { denoise?: boolean } = {}): Promise<Recognized> {
  const samples = await decodeToRaw(file, raw);
  const denoised =
    opts.denoise !== false &&
    (await suppressNoise(raw, samples, undefined, (m) => {
      throw new Error(m);
    }));
  const words: RecognizedWord[] = [];
  for (const seg of await findSpeechSegments(raw, samples)) {
    const ms = Math.round(seg.start / 16);
    for (const w of await rec.recognize(await readSamples(raw, seg.start, seg.end))) words.push({ ...w, start: w.start + ms, end: w.end + ms });
  }
  return { words, denoised };
}
