/**
 * A job's speech segments through the batch recognizer: one pass, or, for
 * narrowband recordings with enough speech and the adaptation tools installed, a first
 * pass over up to a minute of speech, one speaker transform (MLLR) from its
 * words, and every segment again with it.
 */
import { readSamples } from '../audio/decode';
import {
  ADAPT_MIN_SPEECH_S,
  ADAPT_SAMPLE_S,
  keytermWords,
  type RecognizedWord,
  type Recognizer,
  type SpeakerAdapter,
  type SpeakerTransform,
} from '../recognizer/index';

export interface SegmentsInput {
  /** The decoded 16 kHz PCM16 file and its speech segments (sample ranges). */
  raw: string;
  segments: readonly { start: number; end: number }[];
  recognizer: Recognizer;
  /** Null: one pass. */
  adapter: SpeakerAdapter | null;
  /**
   * Whether the source is narrowband (sampled below 11.025 kHz): only those
   * are adapted. On the held-out voices (bench/speaker-adaptation.ts) the
   * transform halves the errors of telephone-band recordings and makes clean
   * wideband ones worse (rms 3.1 → 5.2%, slt 13.5 → 18.8%).
   */
  narrowband: boolean;
  keyterms?: string[];
  /** The adaptation's work folder, inside the job's folder; the caller removes it. */
  workDir: string;
  signal: AbortSignal;
  /** Says why adaptation was skipped after it was tried (the job goes on with the first pass). */
  warn: (msg: string) => void;
}

/** Words per segment, times relative to each segment's start; `adapted` says whether the second pass ran. */
export async function recognizeSegments(o: SegmentsInput): Promise<{ bySegment: RecognizedWord[][]; adapted: boolean }> {
  const { raw, segments, signal } = o;
  const decode = async (seg: { start: number; end: number }, speaker?: SpeakerTransform): Promise<RecognizedWord[]> => {
    signal.throwIfAborted();
    return o.recognizer.recognize(await readSamples(raw, seg.start, seg.end), { keyterms: o.keyterms, speaker });
  };
  const bySegment: RecognizedWord[][] = [];
  let next = 0;
  const speechS = segments.reduce((t, seg) => t + (seg.end - seg.start), 0) / 16000;
  if (o.adapter && o.narrowband && speechS >= ADAPT_MIN_SPEECH_S) {
    for (let heard = 0; next < segments.length && heard < ADAPT_SAMPLE_S; next++) {
      const seg = segments[next] as { start: number; end: number };
      bySegment.push(await decode(seg));
      heard += (seg.end - seg.start) / 16000;
    }
    // Words added for keyterms are not in the dictionary the adaptation tools read: their utterances sit out.
    const added = new Set(o.keyterms ? keytermWords(o.keyterms) : []);
    const utts = bySegment
      .map((ws, i) => ({ start: (segments[i] as { start: number }).start, end: (segments[i] as { end: number }).end, words: ws.map((w) => w.text) }))
      .filter((u) => !u.words.some((w) => added.has(w)));
    try {
      const speaker = await o.adapter.solve(raw, utts, o.workDir, signal);
      const second: RecognizedWord[][] = [];
      for (const seg of segments) second.push(await decode(seg, speaker));
      return { bySegment: second, adapted: true };
    } catch (err) {
      if (signal.aborted) throw err;
      // The first pass stands; the rest is decoded without the transform.
      o.warn(`speaker adaptation failed, decoding in one pass (${err instanceof Error ? err.message : String(err)})`);
    }
  }
  for (; next < segments.length; next++) bySegment.push(await decode(segments[next] as { start: number; end: number }));
  return { bySegment, adapted: false };
}
