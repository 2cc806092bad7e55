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
