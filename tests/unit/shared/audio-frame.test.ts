/** The binary audio frame of live captions: what the renderer encodes main decodes, and hostile bytes are refused with a reason. */
import { describe, expect, it } from 'vitest';
import { decodeFrame, encodeFrame, FRAME_HEADER_BYTES, LIVE_FRAME_BYTES } from '../../../src/shared/audio-frame';

describe('audio frames', () => {
  it('round-trips a 50 ms PCM frame of 1,600 bytes with its source, run and capture time', () => {
    const payload = new Uint8Array(LIVE_FRAME_BYTES).map((_, i) => i % 251);
    const buf = encodeFrame({ kind: 'pcm', source: 'system', run: 7, capturedAt: 1_763_900_000_123.5, payload });
    expect(buf.byteLength).toBe(FRAME_HEADER_BYTES + 1600);
    const f = decodeFrame(new Uint8Array(buf));
    expect(f).toMatchObject({ kind: 'pcm', source: 'system', run: 7, capturedAt: 1_763_900_000_123.5 });
    expect(typeof f !== 'string' && [...f.payload]).toEqual([...payload]);
  });

  it('refuses short, unknown, odd-sized and oversized frames with a sentence', () => {
    expect(decodeFrame(new Uint8Array(4))).toMatch(/shorter than its header/);
    const bad = new Uint8Array(encodeFrame({ kind: 'pcm', source: 'mic', run: 1, capturedAt: 1, payload: new Uint8Array(2) }));
    bad[0] = 9;
    expect(decodeFrame(bad)).toMatch(/Unknown audio frame kind/);
    bad[0] = 1;
    bad[1] = 5;
    expect(decodeFrame(bad)).toMatch(/Unknown audio source/);
    expect(decodeFrame(new Uint8Array(encodeFrame({ kind: 'pcm', source: 'mic', run: 1, capturedAt: 1, payload: new Uint8Array(3) })))).toMatch(
      /whole 16-bit samples/,
    );
    expect(decodeFrame(new Uint8Array(encodeFrame({ kind: 'recording', source: 'mic', run: 1, capturedAt: 1, payload: new Uint8Array(300 * 1024) })))).toMatch(
      /too large/,
    );
    expect(decodeFrame(new Uint8Array(encodeFrame({ kind: 'pcm', source: 'mic', run: 1, capturedAt: NaN, payload: new Uint8Array(2) })))).toMatch(
      /capture time/,
    );
  });
});
