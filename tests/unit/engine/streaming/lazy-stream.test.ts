/** openOnFirstUse: a session's decoder is opened only when the session first uses it (speech), once, and closed with it. */
import { describe, expect, it } from 'vitest';
import type { RecognizerStream } from '../../../../src/engine/recognizer/types';
import { openOnFirstUse } from '../../../../src/engine/streaming/lazy-stream';

/** A recording stream: what reached it, and whether it was closed. */
function recording(): { stream: RecognizerStream; got: number[]; closed: () => boolean } {
  const got: number[] = [];
  let closed = false;
  const stream: RecognizerStream = {
    get acceptedMs() {
      return got.length / 16;
    },
    accept: async (pcm) => void got.push(...pcm),
    partial: async () => ({ text: `${got.length}` }),
    finish: async () => [],
    inSpeech: async () => got.length > 0,
    close: () => void (closed = true),
  };
  return { stream, got, closed: () => closed };
}

describe('openOnFirstUse', () => {
  it('opens nothing for a session that never uses its decoder, and closes quietly', async () => {
    let opened = 0;
    const s = openOnFirstUse(async () => (opened++, recording().stream));
    s.close();
    await new Promise((r) => setImmediate(r));
    expect(opened).toBe(0);
    await expect(s.accept(new Int16Array(4))).rejects.toThrow(/closed/);
    expect(opened).toBe(0);
  });

  it('opens once on first use; audio given while it opens arrives whole and in order; close reaches the decoder', async () => {
    const r = recording();
    let opened = 0;
    let release!: () => void;
    const s = openOnFirstUse(() => (opened++, new Promise<RecognizerStream>((res) => (release = () => res(r.stream)))));
    const frame = new Int16Array([1, 2, 3]);
    const first = s.accept(frame);
    frame.set([9, 9, 9]); // the caller reuses its buffer: the queued copy must not change
    const second = s.accept(new Int16Array([4, 5]));
    expect(opened).toBe(1);
    release();
    await Promise.all([first, second]);
    expect(r.got).toEqual([1, 2, 3, 4, 5]);
    expect(await s.partial()).toEqual({ text: '5' });
    expect(opened).toBe(1);
    s.close();
    await new Promise((res) => setImmediate(res));
    expect(r.closed()).toBe(true);
  });
});
