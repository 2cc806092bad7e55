/**
 * A RecognizerStream usable before its decoder exists: calls queue behind
 * the opening, so `Begin` goes out at once even when a cold decoder takes
 * seconds to load its model (the SDK gives a connection 1 s).
 */
import type { PartialResult, RecognizedWord, RecognizerStream } from '../recognizer/types';

export function lazyStream(opening: Promise<RecognizerStream>): RecognizerStream {
  let samples = 0;
  let closed = false;
  // A call that reaches the decoder after close() must not run: the decoder
  // may already be back in the pool (another session's) or freed.
  const via = <T>(fn: (s: RecognizerStream) => Promise<T>): Promise<T> => opening.then((s) => (closed ? Promise.reject(new Error('stream closed')) : fn(s)));
  return {
    get acceptedMs() {
      return Math.round(samples / 16);
    },
    accept(pcm: Int16Array): Promise<void> {
      samples += pcm.length;
      const copy = new Int16Array(pcm);
      return via((s) => s.accept(copy));
    },
    partial: (): Promise<PartialResult> => via((s) => s.partial()),
    finish: (): Promise<RecognizedWord[]> => via((s) => s.finish()),
    inSpeech: (): Promise<boolean> => via((s) => s.inSpeech()),
    close(): void {
      if (closed) return;
      closed = true;
      opening.then((s) => s.close()).catch(() => undefined);
    },
  };
}

/**
 * A RecognizerStream whose decoder is opened only when first used: with a
 * voice detector in front, that is when speech starts, so a session that
 * never speaks (idle, silence, hostile noise) never holds a 70–90 MB
 * PocketSphinx decoder. An idle pooled decoder makes the open immediate.
 */
export function openOnFirstUse(open: () => Promise<RecognizerStream>): RecognizerStream {
  let opening: Promise<RecognizerStream> | null = null;
  let closed = false;
  const start = (): Promise<RecognizerStream> => (opening ??= open());
  const via = <T>(fn: (s: RecognizerStream) => Promise<T>): Promise<T> =>
    closed ? Promise.reject(new Error('stream closed')) : start().then((s) => (closed ? Promise.reject(new Error('stream closed')) : fn(s)));
  let samples = 0;
  return {
    get acceptedMs() {
      return Math.round(samples / 16);
    },
    accept(pcm: Int16Array): Promise<void> {
      samples += pcm.length;
      const copy = opening ? pcm : new Int16Array(pcm);
      return via((s) => s.accept(copy));
    },
    partial: (): Promise<PartialResult> => via((s) => s.partial()),
    finish: (): Promise<RecognizedWord[]> => via((s) => s.finish()),
    inSpeech: (): Promise<boolean> => via((s) => s.inSpeech()),
    close(): void {
      if (closed) return;
      closed = true;
      opening?.then((s) => s.close()).catch(() => undefined);
    },
  };
}
