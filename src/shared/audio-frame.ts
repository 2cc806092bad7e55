/**
 * The binary audio frame of live captions, renderer → main (no zod: the
 * renderer and the worklet load it): a 16-byte header, then PCM16 16 kHz mono
 * (50 ms = 1,600 bytes) or a chunk of the MediaRecorder recording.
 */

/** The microphone ("You") or what the computer plays ("Others"). */
export type LiveSource = 'mic' | 'system';

export const sourceLabels: Record<LiveSource, string> = { mic: 'You', system: 'Others' };

/** PCM16 16 kHz mono, 50 ms = 1,600 bytes; or a chunk of the MediaRecorder recording. */
export const FRAME_KIND = { pcm: 1, recording: 2 } as const;
export type FrameKind = keyof typeof FRAME_KIND;
export const FRAME_HEADER_BYTES = 16;
/** Largest payload a frame may carry (a recording chunk of a few seconds of Opus). */
export const FRAME_MAX_PAYLOAD = 256 * 1024;
export const LIVE_SAMPLE_RATE = 16000;
export const LIVE_FRAME_MS = 50;
export const LIVE_FRAME_BYTES = (LIVE_SAMPLE_RATE * 2 * LIVE_FRAME_MS) / 1000;

export interface AudioFrame {
  kind: FrameKind;
  source: LiveSource;
  run: number;
  /** Epoch ms when the frame's last sample was captured. */
  capturedAt: number;
  payload: Uint8Array;
}

const sourceCodes: LiveSource[] = ['mic', 'system'];

/** [u8 kind][u8 source][u16 0][u32 run][f64 capturedAt] + payload, little-endian. */
export function encodeFrame(f: AudioFrame): ArrayBuffer {
  const out = new ArrayBuffer(FRAME_HEADER_BYTES + f.payload.byteLength);
  const v = new DataView(out);
  v.setUint8(0, FRAME_KIND[f.kind]);
  v.setUint8(1, sourceCodes.indexOf(f.source));
  v.setUint32(4, f.run, true);
  v.setFloat64(8, f.capturedAt, true);
  new Uint8Array(out, FRAME_HEADER_BYTES).set(f.payload);
  return out;
}

/** The frame, or a sentence saying why it is not one. */
export function decodeFrame(bytes: Uint8Array): AudioFrame | string {
  if (bytes.byteLength < FRAME_HEADER_BYTES) return 'Audio frame shorter than its header';
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const kindCode = v.getUint8(0);
  const kind = kindCode === 1 ? 'pcm' : kindCode === 2 ? 'recording' : null;
  if (!kind) return `Unknown audio frame kind ${kindCode}`;
  const source = sourceCodes[v.getUint8(1)];
  if (!source) return 'Unknown audio source';
  const run = v.getUint32(4, true);
  const capturedAt = v.getFloat64(8, true);
  if (!Number.isFinite(capturedAt)) return 'Audio frame has no capture time';
  const payload = bytes.subarray(FRAME_HEADER_BYTES);
  if (payload.byteLength > FRAME_MAX_PAYLOAD) return 'Audio frame too large';
  if (kind === 'pcm' && (payload.byteLength === 0 || payload.byteLength % 2 !== 0)) return 'PCM frame must hold whole 16-bit samples';
  return { kind, source, run, capturedAt, payload };
}
