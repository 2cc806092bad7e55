/** Waveform peaks of a recording's audio, read with ffmpeg for the subtitle editor. */
import { spawn } from 'node:child_process';
import { setPriority } from 'node:os';
import { AppError } from '../../../shared/errors';

/** 50 a second: 20 ms slices, finer than a frame; a 3-hour file is 540 KB. */
export const PEAKS_PER_SECOND = 50;

/**
 * Peaks with ffmpeg: decoded to 8 kHz mono 16-bit and streamed (a 3-hour file
 * is never held whole), one byte per slice: its loudest sample scaled to 127.
 */
export function computePeaks(
  path: string,
  rate: number,
  opts: { background?: boolean; signal?: AbortSignal } = {},
): Promise<{ rate: number; durationMs: number; bytes: Buffer }> {
  const sampleRate = 8000;
  const per = sampleRate / rate;
  return new Promise((resolve, reject) => {
    if (opts.signal?.aborted) return reject(new AppError('canceled', 'The waveform was not made: Verbatim is closing.'));
    const ff = spawn('ffmpeg', ['-v', 'error', '-nostdin', '-i', path, '-vn', '-ac', '1', '-ar', String(sampleRate), '-f', 's16le', 'pipe:1'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    if (opts.background && ff.pid !== undefined) {
      try {
        // Made ahead, nobody waits for it: it yields the CPU to whatever the user is doing.
        setPriority(ff.pid, 10);
      } catch {
        // not permitted on this system: it runs at normal priority
      }
    }
    const onAbort = () => ff.kill('SIGKILL');
    opts.signal?.addEventListener('abort', onAbort, { once: true });
    ff.on('close', () => opts.signal?.removeEventListener('abort', onAbort));
    const out: number[] = [];
    let max = 0;
    let n = 0;
    let samples = 0;
    let carry: Buffer | null = null;
    let err = '';
    ff.stdout.on('data', (chunk: Buffer) => {
      let buf = carry ? Buffer.concat([carry, chunk]) : chunk;
      const even = buf.length - (buf.length % 2);
      carry = even < buf.length ? buf.subarray(even) : null;
      buf = buf.subarray(0, even);
      for (let i = 0; i < buf.length; i += 2) {
        const v = Math.abs(buf.readInt16LE(i));
        if (v > max) max = v;
        if (++n >= per) {
          out.push(Math.min(127, Math.round((max / 32768) * 127)));
          max = 0;
          n = 0;
        }
      }
      samples += buf.length / 2;
    });
    ff.stderr.on('data', (d: Buffer) => (err = (err + d.toString()).slice(-2000)));
    ff.on('error', (e) =>
      reject(
        new AppError('unavailable', `The waveform needs ffmpeg, which could not be started (${e.message}). Install ffmpeg; the cues can still be edited.`),
      ),
    );
    ff.on('close', (code) => {
      if (opts.signal?.aborted) return reject(new AppError('canceled', 'The waveform was not made: Verbatim is closing.'));
      if (code !== 0)
        return reject(
          new AppError(
            'unsupported_media',
            `The waveform could not be made: ffmpeg could not read the audio (${err.trim().split('\n').pop() ?? `exit ${code}`}).`,
          ),
        );
      if (n > 0) out.push(Math.min(127, Math.round((max / 32768) * 127)));
      resolve({ rate, durationMs: Math.round((samples / sampleRate) * 1000), bytes: Buffer.from(Int8Array.from(out).buffer) });
    });
  });
}
