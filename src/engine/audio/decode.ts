/**
 * ffmpeg decode: any audio or video container of an allow-list becomes a raw
 * 16 kHz mono s16le file on disk (memory stays flat for any length), through
 * a graph that makes compressed speech look like what the acoustic model knows.
 */
import { open, readFile, rm, stat } from 'node:fs/promises';
import { runTool } from './spawner';

export class DecodeError extends Error {}

export const BYTES_PER_SECOND = 32000;

/** Whether the first bytes of a file look like an HTML page. */
export async function looksLikeHtml(path: string): Promise<boolean> {
  const fh = await open(path, 'r');
  try {
    const buf = Buffer.alloc(1024);
    const { bytesRead } = await fh.read(buf, 0, buf.length, 0);
    const head = buf
      .subarray(0, bytesRead)
      .toString('utf8')
      .replace(/^\uFEFF/, '')
      .trimStart()
      .toLowerCase();
    return /^(<!doctype html|<html|<head|<body|<!--|<meta|<title)/.test(head) || (head.startsWith('<?xml') && head.includes('<html'));
  } finally {
    await fh.close();
  }
}

/**
 * Demuxers ffmpeg may use on a file we are given: media containers only.
 * Playlists and containers that open further URLs or files (hls, dash,
 * concat, sdp, rtsp, image2 sequences, ffmetadata...) are refused, or an
 * uploaded .m3u8 could make ffmpeg read local files (file://) or the network.
 */
export const INPUT_FORMATS = [
  'mov,mp4,m4a,3gp,3g2,mj2',
  'matroska,webm',
  'mp3',
  'wav',
  'w64',
  'ogg',
  'flac',
  'aac',
  'loas',
  'avi',
  'asf',
  'xwma',
  'amr',
  'amrnb',
  'amrwb',
  'aiff',
  'au',
  'caf',
  'mpegts',
  'mpeg',
  'flv',
  'ac3',
  'eac3',
  'dts',
  'truehd',
  'mlp',
  'wv',
  'ape',
  'tta',
  'mpc',
  'mpc8',
  'gsm',
  'voc',
  'dsf',
  'rm',
  'nut',
  'mp2',
  'mpegvideo',
  'm4v',
  'h264',
  'hevc',
  'ivf',
  'sox',
  'vqf',
  'shn',
  'tak',
  'aa',
  'wsaud',
  'smjpeg',
].join(',');

/*
 * No filter graph between the decoded audio and the recognizer's 16 kHz mono.
 * Issue 16 tried one (a two-pole low-pass at 5.5 kHz and a -74 dBFS pink
 * floor, for the band holes of low-bitrate MP3): it read better on the tuning
 * half, but on the held-out half it made clean speech worse (synthetic 7.5 →
 * 8.3%, LibriVox 28.2 → 31.0%) and 24/64 kbps MP3 and Opus too, and the
 * 24 kbps sentence it was made for reads exactly without it at 16, 22.05 and
 * 44.1 kHz. Noisy recordings are handled after decoding (audio/denoise.ts).
 */

/** The demuxer ffmpeg refused, from its "Format not on whitelist" message. */
function refusedFormat(stderr: string): string | null {
  const m = /\[(\w+) @ [^\]]*\] Format not on whitelist/.exec(stderr) ?? /\[(\w+) @ [^\]]*\] Protocol '\w+' not on whitelist/.exec(stderr);
  return m ? (m[1] as string) : /not on whitelist/.test(stderr) ? 'unknown' : null;
}

export interface DecodeOptions {
  startMs?: number | null;
  endMs?: number | null;
  signal?: AbortSignal;
  /** An ffmpeg audio filter graph to run before resampling (none by default); for the accuracy sweeps. */
  filters?: string;
}

/** Sources sampled below this rate are narrowband (telephone, 8 kHz memos): nothing where the model's top filters are. */
export const NARROWBAND_BELOW_HZ = 11025;

/**
 * The sample rate of the file's first audio stream, or null when ffprobe
 * cannot tell (missing, or a file ffmpeg will then refuse with its own error).
 * ffprobe writes to a file next to `output` (the spawner keeps only stderr).
 */
export async function probeSampleRate(input: string, output: string, signal?: AbortSignal): Promise<number | null> {
  const report = `${output}.rate`;
  const args = ['-v', 'error', '-format_whitelist', INPUT_FORMATS, '-protocol_whitelist', 'file', '-select_streams', 'a:0'];
  args.push('-show_entries', 'stream=sample_rate', '-of', 'csv=p=0', '-o', report, '-i', input);
  try {
    const r = await runTool('ffprobe', args, signal);
    if (r.code !== 0) return null;
    const rate = Number.parseInt((await readFile(report, 'utf8')).trim(), 10);
    return Number.isFinite(rate) && rate > 0 ? rate : null;
  } catch (err) {
    if (signal?.aborted) throw err;
    return null;
  } finally {
    await rm(report, { force: true });
  }
}

/** Decodes `input` to `output` (16 kHz mono PCM16 raw); returns the sample count. */
export async function decodeToRaw(input: string, output: string, opts: DecodeOptions = {}): Promise<number> {
  // Input side: only media demuxers, and only the local file itself.
  const args = ['-nostdin', '-hide_banner', '-loglevel', 'error', '-y', '-format_whitelist', INPUT_FORMATS, '-protocol_whitelist', 'file'];
  if (opts.startMs) args.push('-ss', (opts.startMs / 1000).toFixed(3));
  if (opts.endMs) args.push('-to', (opts.endMs / 1000).toFixed(3));
  // -to with -ss before -i is measured on the input timeline since ffmpeg 4 when -copyts is absent; keep both on the input side.
  args.push('-i', input, '-map', '0:a:0?', '-vn', '-sn', '-dn', '-ac', '1');
  if (opts.filters) args.push('-af', opts.filters);
  args.push('-ar', '16000', '-f', 's16le', '-acodec', 'pcm_s16le', output);
  let result;
  try {
    result = await runTool('ffmpeg', args, opts.signal);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw new Error('ffmpeg is not installed (install the Debian package ffmpeg)', { cause: err });
    throw err;
  }
  const code = result.code;
  const stderr = [result.stderr];
  const detail = stderr
    .join('')
    .trim()
    .split('\n')
    .filter(Boolean)
    .slice(-2)
    .join(' ')
    .replace(new RegExp(input.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'g'), 'the file');
  const refused = code !== 0 ? refusedFormat(result.stderr) : null;
  if (refused) {
    throw new DecodeError(
      `The file is a playlist or a container that points at other files or addresses (${refused === 'unknown' ? 'ffmpeg refused it' : `format ${refused}`}), which the local engine does not open. Upload the audio or video file itself.`,
    );
  }
  if (code !== 0) {
    throw new DecodeError(
      `The file could not be decoded: it is corrupted or in a format that is not audio or video${detail ? ` (ffmpeg: ${detail.slice(0, 300)})` : ''}. Check the file plays in a media player, then submit it again.`,
    );
  }
  const size = (await stat(output).catch(() => ({ size: 0 }))).size;
  if (size === 0 && detail) throw new DecodeError(`The file contains no audio that could be decoded (ffmpeg: ${detail.slice(0, 300)}).`);
  return Math.floor(size / 2);
}

/** Reads samples [from, to) of a raw PCM16 file. */
export async function readSamples(path: string, from: number, to: number): Promise<Int16Array> {
  const fh = await open(path, 'r');
  try {
    const buf = Buffer.alloc((to - from) * 2);
    const { bytesRead } = await fh.read(buf, 0, buf.length, from * 2);
    const aligned = new Int16Array(Math.floor(bytesRead / 2));
    Buffer.from(aligned.buffer).set(buf.subarray(0, aligned.length * 2));
    return aligned;
  } finally {
    await fh.close();
  }
}
