/** Waveform peaks of a recording's audio, read with ffmpeg for the subtitle editor. */
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import { constants } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { setPriority } from 'node:os';
import type { Readable } from 'node:stream';
import { AppError } from '../../../shared/errors';

/** 50 a second: 20 ms slices, finer than a frame; a 3-hour file is 540 KB. */
export const PEAKS_PER_SECOND = 50;

/** A user's original file opened for reading, once checked; `close()` when read. */
export interface OpenedOriginal {
  handle: FileHandle;
  close(): Promise<void>;
}

/**
 * The opener of a user's original when none is given (a library used without the files owner): the file
 * itself, never a link at its end, never waiting on a pipe, a regular file only. The app gives the files
 * owner's check instead (services/files: its real path, inside --folder in host mode).
 */
export async function openOriginalFile(path: string): Promise<OpenedOriginal> {
  const handle = await open(path, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0)).catch((e: unknown) => {
    throw new AppError(
      'not_found',
      'The recording’s audio file cannot be read (moved, deleted or not a file), so there is no waveform. The cues can still be edited.',
      {
        cause: e,
      },
    );
  });
  if (!(await handle.stat()).isFile()) {
    await handle.close();
    throw new AppError('not_found', 'The recording’s audio is not a file Verbatim can read, so there is no waveform. The cues can still be edited.');
  }
  return { handle, close: () => handle.close().catch(() => undefined) };
}

/**
 * How ffmpeg reads a file handed to it opened (the user's original, opened by the files owner's check):
 * the descriptor as the child's fd 3, named by the child's own /proc/self/fd (Linux: a fresh, seekable
 * open of that very file, whatever its path leads to now) or /dev/fd (macOS, BSD); elsewhere as its
 * stdin. Never the path: a file swapped for a link after the check reads nothing else.
 */
function fedFrom(handle: FileHandle): { input: string; stdio: [number | 'ignore', 'pipe', 'pipe', number?] } {
  if (process.platform === 'win32') return { input: 'pipe:0', stdio: [handle.fd, 'pipe', 'pipe'] };
  return { input: process.platform === 'linux' ? '/proc/self/fd/3' : '/dev/fd/3', stdio: ['ignore', 'pipe', 'pipe', handle.fd] };
}

/**
 * Peaks with ffmpeg: decoded to 8 kHz mono 16-bit and streamed (a 3-hour file
 * is never held whole), one byte per slice: its loudest sample scaled to 127.
 * `source`: the library's own copy by its path, or a file already opened (read
 * from its descriptor; the caller closes it once this settles).
 */
export function computePeaks(
  source: string | FileHandle,
  rate: number,
  opts: { background?: boolean; signal?: AbortSignal } = {},
): Promise<{ rate: number; durationMs: number; bytes: Buffer }> {
  const sampleRate = 8000;
  const per = sampleRate / rate;
  return new Promise((resolve, reject) => {
    if (opts.signal?.aborted) return reject(new AppError('canceled', 'The waveform was not made: Verbatim is closing.'));
    const fed = typeof source === 'string' ? { input: source, stdio: ['ignore', 'pipe', 'pipe'] as const } : fedFrom(source);
    const stdinFree = fed.stdio[0] === 'ignore' ? ['-nostdin'] : [];
    const ff = spawn('ffmpeg', ['-v', 'error', ...stdinFree, '-i', fed.input, '-vn', '-ac', '1', '-ar', String(sampleRate), '-f', 's16le', 'pipe:1'], {
      stdio: [...fed.stdio],
    }) as ChildProcessByStdio<null, Readable, Readable>;
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
