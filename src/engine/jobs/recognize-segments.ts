/**
 * A job's speech segments through the batch recognizer: one pass, or, for
 * narrowband recordings with enough speech and the adaptation tools installed, a first
 * pass over up to a minute of speech, one speaker transform (MLLR) from its
 * words, and every segment again with it. Segments are decoded side by side on the one loaded model, as many
 * as the job's share of the cores allows (recognizer/decode-share.ts); words come back in segment order.
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
import { currentShare, fileJobDecoding } from '../recognizer/decode-share';

type Segment = { start: number; end: number };

/**
 * Segments as the detector finds them: decoding starts on the first while detection goes on (the detector
 * runs on the engine's loop, the decodes in the native worker, so the two overlap on a machine of 2 cores).
 */
export class SegmentFeed {
  readonly list: Segment[] = [];
  private done = false;
  private error: Error | null = null;
  private readonly listeners = new Set<() => void>();

  static of(list: readonly Segment[]): SegmentFeed {
    const f = new SegmentFeed();
    f.list.push(...list);
    f.done = true;
    return f;
  }

  push(seg: Segment): void {
    this.list.push(seg);
    this.changed();
  }

  end(): void {
    this.done = true;
    this.changed();
  }

  fail(err: unknown): void {
    this.error = err instanceof Error ? err : new Error(String(err));
    this.changed();
  }

  get ended(): boolean {
    return this.done;
  }

  get failure(): Error | null {
    return this.error;
  }

  /** Calls `fn` on every push, end or failure until the returned function is called. */
  watch(fn: () => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  /** The whole list, once detection has ended. */
  whole(): Promise<readonly Segment[]> {
    return new Promise((resolve, reject) => {
      const check = (): boolean => {
        if (this.error) reject(this.error);
        else if (this.done) resolve(this.list);
        else return false;
        return true;
      };
      if (check()) return;
      const stop = this.watch(() => {
        if (check()) stop();
      });
    });
  }

  private changed(): void {
    for (const fn of [...this.listeners]) fn();
  }
}

export interface SegmentsInput {
  /** The decoded 16 kHz PCM16 file and its speech segments (sample ranges), whole or as they are found. */
  raw: string;
  segments: readonly Segment[] | SegmentFeed;
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
  /** Segments decoded at once, read as each decode ends (default: the job's share of the cores now). */
  parallel?: () => number;
}

/**
 * fn(0..n-1) with at most limit() calls in flight, results in index order. The limit is read again whenever a
 * call ends, so a job shrinks when live sessions or other jobs start. The first failure rejects at once.
 */
export function inOrder<T>(n: number, limit: () => number, fn: (i: number) => Promise<T>): Promise<T[]> {
  return inOrderOf(SegmentFeed.of(new Array<Segment>(n).fill({ start: 0, end: 0 })), 0, limit, fn);
}

/** inOrder over the feed's items from `from` on, started as they arrive; ends when the feed has ended and all are done. */
function inOrderOf<T>(feed: SegmentFeed, from: number, limit: () => number, fn: (i: number) => Promise<T>): Promise<T[]> {
  const out: T[] = [];
  return new Promise<T[]>((resolve, reject) => {
    let next = 0;
    let active = 0;
    let done = 0;
    let stopped = false;
    const stop = (err: Error): void => {
      stopped = true;
      unwatch();
      reject(err);
    };
    const pump = (): void => {
      if (stopped) return;
      if (feed.failure) return stop(feed.failure);
      const n = feed.list.length - from;
      if (feed.ended && done === n) {
        stopped = true;
        unwatch();
        resolve(out);
        return;
      }
      while (next < n && active < Math.max(1, Math.floor(limit()))) {
        const i = next++;
        active++;
        fn(i).then(
          (v) => {
            out[i] = v;
            active--;
            done++;
            pump();
          },
          (err: unknown) => stop(err instanceof Error ? err : new Error(String(err))),
        );
      }
    };
    const unwatch = feed.watch(pump);
    pump();
  });
}

/** Words per segment, times relative to each segment's start; `adapted` says whether the second pass ran. */
export async function recognizeSegments(o: SegmentsInput): Promise<{ bySegment: RecognizedWord[][]; adapted: boolean }> {
  const done = fileJobDecoding();
  try {
    return await recognizeAll(o);
  } finally {
    done();
  }
}

async function recognizeAll(o: SegmentsInput): Promise<{ bySegment: RecognizedWord[][]; adapted: boolean }> {
  const { raw, signal } = o;
  const feed = o.segments instanceof SegmentFeed ? o.segments : SegmentFeed.of(o.segments);
  const limit = o.parallel ?? (() => currentShare().parallelSegments);
  const decode = async (seg: { start: number; end: number }, speaker?: SpeakerTransform): Promise<RecognizedWord[]> => {
    signal.throwIfAborted();
    return o.recognizer.recognize(await readSamples(raw, seg.start, seg.end), { keyterms: o.keyterms, speaker });
  };
  const bySegment: RecognizedWord[][] = [];
  let next = 0;
  // Adaptation needs to know the whole file's speech first; a plain pass starts on the first segment found.
  const segments = o.adapter && o.narrowband ? await feed.whole() : feed.list;
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
      const second = await inOrder(segments.length, limit, (i) => decode(segments[i] as { start: number; end: number }, speaker));
      return { bySegment: second, adapted: true };
    } catch (err) {
      if (signal.aborted) throw err;
      // The first pass stands; the rest is decoded without the transform.
      o.warn(`speaker adaptation failed, decoding in one pass (${err instanceof Error ? err.message : String(err)})`);
    }
  }
  const from = next;
  const rest = await inOrderOf(feed, from, limit, (i) => decode(feed.list[from + i] as Segment));
  return { bySegment: [...bySegment, ...rest], adapted: false };
}
