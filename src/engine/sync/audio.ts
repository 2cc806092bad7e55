/**
 * The Sync and Dictation APIs' audio, as AssemblyAI's "Audio requirements" page gives it: a 16-bit WAV file
 * or raw signed 16-bit little-endian PCM (the config's sample_rate and channels), mono or stereo, at 8,000,
 * 16,000, 22,050, 24,000, 32,000, 44,100 or 48,000 Hz, 80 ms to 120 s, at most 40 MB. Mixed to mono and
 * resampled to 16 kHz in slices, the event loop turning between them. Errors as its "Error handling" page:
 * 400 bad_audio / audio_too_short, 413 audio_too_large, 415 unsupported_media_type.
 */
import { HttpError } from '../routes/router';
import { Resampler } from '../streaming/resample';

/** The longest and shortest audio the sync and dictation APIs take. */
export const MAX_SYNC_AUDIO_MS = 120_000;
export const MIN_SYNC_AUDIO_MS = 80;
export const SYNC_SAMPLE_RATES = [8000, 16000, 22050, 24000, 32000, 44100, 48000];

/** An error with the service's machine-readable code (routes/errors.ts writes it as `error_code`). */
export class SyncError extends HttpError {
  constructor(
    status: number,
    readonly code: string,
    message: string,
  ) {
    super(status, message);
  }
}

interface Layout {
  rate: number;
  channels: number;
  /** Bytes of one sample of one channel, and how to read it as a number in [-32768, 32767]. */
  width: number;
  read: (b: Buffer, at: number) => number;
  data: Buffer;
}

const readers = { pcm16: (b: Buffer, at: number): number => b.readInt16LE(at) };

function badAudio(message: string): HttpError {
  return new SyncError(400, 'bad_audio', message);
}

function unsupported(message: string): HttpError {
  return new SyncError(415, 'unsupported_media_type', message);
}

function wavLayout(b: Buffer): Layout {
  if (b.length < 12 || b.toString('ascii', 0, 4) !== 'RIFF' || b.toString('ascii', 8, 12) !== 'WAVE')
    throw badAudio('The audio is not a WAV file (no RIFF/WAVE header).');
  let at = 12;
  let fmt: { format: number; channels: number; rate: number; bits: number } | null = null;
  while (at + 8 <= b.length) {
    const id = b.toString('ascii', at, at + 4);
    const size = b.readUInt32LE(at + 4);
    const body = at + 8;
    if (id === 'fmt ' && body + 16 <= b.length) {
      let format = b.readUInt16LE(body);
      if (format === 0xfffe && size >= 26 && body + 26 <= b.length) format = b.readUInt16LE(body + 24);
      fmt = { format, channels: b.readUInt16LE(body + 2), rate: b.readUInt32LE(body + 4), bits: b.readUInt16LE(body + 14) };
    } else if (id === 'data') {
      if (!fmt) throw badAudio('The WAV file has its data before its format.');
      // A WAV written while recording may say 0 or 0xFFFFFFFF for its size: the data then runs to the end.
      const end = size === 0 || size === 0xffffffff || body + size > b.length ? b.length : body + size;
      const read = fmt.format === 1 && fmt.bits === 16 ? readers.pcm16 : undefined;
      if (!read) throw unsupported(`The WAV file is ${fmt.format === 3 ? 'floating-point' : `${fmt.bits}-bit`} audio; the sync API takes 16-bit PCM only.`);
      return { rate: fmt.rate, channels: fmt.channels, width: fmt.bits / 8, read, data: b.subarray(body, end) };
    }
    at = body + size + (size % 2);
  }
  throw badAudio('The WAV file has no audio data.');
}

/** Where the audio's samples are and how they are laid out; checks the rate, channels and length. */
export function audioLayout(contentType: string, filename: string, bytes: Buffer, config: { sample_rate?: number; channels?: number }): Layout {
  const type = contentType.split(';')[0]?.trim() ?? '';
  const isWav = /^audio\/(x-)?wav(e)?$/.test(type) || (type === 'application/octet-stream' && bytes.toString('ascii', 0, 4) === 'RIFF');
  const isPcm = type === 'audio/pcm' || type === 'audio/l16' || /\.(pcm|raw)$/i.test(filename);
  let layout: Layout;
  if (isWav) layout = wavLayout(bytes);
  else if (isPcm) {
    if (config.sample_rate === undefined || config.channels === undefined)
      throw badAudio('Raw PCM audio needs sample_rate and channels in the config (WAV carries them in its header).');
    if (bytes.length % (2 * config.channels) !== 0) throw badAudio('The raw PCM is not whole 16-bit samples for its channels (misaligned).');
    layout = { rate: config.sample_rate, channels: config.channels, width: 2, read: readers.pcm16, data: bytes };
  } else
    throw unsupported(`The sync API takes WAV or raw 16-bit PCM audio, not ${type || 'this audio'}; convert it, or use POST /v2/transcript for other formats.`);
  if (!SYNC_SAMPLE_RATES.includes(layout.rate))
    throw unsupported(`The audio's sample rate (${layout.rate} Hz) is not one the sync API takes: ${SYNC_SAMPLE_RATES.join(', ')} Hz.`);
  if (!(layout.channels === 1 || layout.channels === 2)) throw unsupported(`The audio has ${layout.channels} channels; the sync API takes mono or stereo.`);
  const frames = Math.floor(layout.data.length / (layout.width * layout.channels));
  const ms = (frames / layout.rate) * 1000;
  if (ms < MIN_SYNC_AUDIO_MS)
    throw new SyncError(400, 'audio_too_short', `The audio is ${Math.round(ms)} ms long; the sync API needs at least ${MIN_SYNC_AUDIO_MS} ms.`);
  if (ms > MAX_SYNC_AUDIO_MS)
    throw new SyncError(
      413,
      'audio_too_large',
      `The audio is ${Math.round(ms / 100) / 10} s long; the sync API takes at most 120 s. Use POST /v2/transcript for longer audio.`,
    );
  return layout;
}

/** The audio as 16 kHz mono PCM16, mixed and resampled a piece at a time. */
export async function toMono16k(l: Layout): Promise<{ pcm: Int16Array; durationMs: number }> {
  const frameBytes = l.width * l.channels;
  const frames = Math.floor(l.data.length / frameBytes);
  const resampler = new Resampler(l.rate, 16000);
  const out: Int16Array[] = [];
  const piece = Math.max(1, Math.round(l.rate / 2));
  for (let f = 0; f < frames; f += piece) {
    const n = Math.min(piece, frames - f);
    const mono = new Int16Array(n);
    for (let i = 0; i < n; i++) {
      let sum = 0;
      const base = (f + i) * frameBytes;
      for (let c = 0; c < l.channels; c++) sum += l.read(l.data, base + c * l.width);
      mono[i] = Math.max(-32768, Math.min(32767, Math.round(sum / l.channels)));
    }
    out.push(resampler.process(mono));
    await new Promise<void>((r) => setImmediate(r));
  }
  out.push(resampler.flush());
  const pcm = new Int16Array(out.reduce((s, p) => s + p.length, 0));
  let o = 0;
  for (const p of out) {
    pcm.set(p, o);
    o += p.length;
  }
  return { pcm, durationMs: Math.round((frames / l.rate) * 1000) };
}
