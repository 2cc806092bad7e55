/**
 * ffmpeg probe and decode: anything ffmpeg reads (audio or video) becomes a
 * raw 16 kHz mono s16le file on disk, so memory stays flat for any length.
 */
import { open, stat } from 'node:fs/promises';
import { runTool } from './spawner';

export class DecodeError extends Error {}

export const BYTES_PER_SECOND = 32000;

/** Whether the first bytes of a file look like an HTML page. */
export async function looksLikeHtml(path: string): Promise<boolean> {
  const fh = await open(path, 'r');
  try {
    const buf = Buffer.alloc(1024);
    const { bytesRead } = await fh.read(buf, 0, buf.length, 0);
    const head = buf.subarray(0, bytesRead).toString('utf8').replace(/^\uFEFF/, '').trimStart().toLowerCase();
    return /^(<!doctype html|<html|<head|<body|<!--|<meta|<title)/.test(head) || (head.startsWith('<?xml') && head.includes('<html'));
  } finally {
    await fh.close();
  }
}

export interface DecodeOptions {
  startMs?: number | null;
  endMs?: number | null;
  signal?: AbortSignal;
}

/** Decodes `input` to `output` (16 kHz mono PCM16 raw); returns the sample count. */
export async function decodeToRaw(input: string, output: string, opts: DecodeOptions = {}): Promise<number> {
  const args = ['-nostdin', '-hide_banner', '-loglevel', 'error', '-y'];
  if (opts.startMs) args.push('-ss', (opts.startMs / 1000).toFixed(3));
  if (opts.endMs) args.push('-to', (opts.endMs / 1000).toFixed(3));
  // -to with -ss before -i is measured on the input timeline since ffmpeg 4 when -copyts is absent; keep both on the input side.
  args.push('-i', input, '-map', '0:a:0?', '-vn', '-sn', '-dn', '-ac', '1', '-ar', '16000', '-f', 's16le', '-acodec', 'pcm_s16le', output);
  let result;
  try {
    result = await runTool('ffmpeg', args, opts.signal);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw new Error('ffmpeg is not installed (install the Debian package ffmpeg)', { cause: err });
    throw err;
  }
  const code = result.code;
  const stderr = [result.stderr];
  const detail = stderr.join('').trim().split('\n').filter(Boolean).slice(-2).join(' ').replace(new RegExp(input.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'g'), 'the file');
  if (code !== 0) {
    throw new DecodeError(`The file could not be decoded: it is corrupted or in a format that is not audio or video${detail ? ` (ffmpeg: ${detail.slice(0, 300)})` : ''}. Check the file plays in a media player, then submit it again.`);
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
