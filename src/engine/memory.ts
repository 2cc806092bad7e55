/**
 * Gives the memory of finished work back to the system, for an engine that
 * idles beside other apps all day. Called when pooled decoders or speech
 * detectors are freed after their idle minute:
 * - a full garbage collection, so native objects held only by collected JS
 *   wrappers (Silero VAD sessions, decoded audio buffers) are finalized now
 *   rather than whenever V8 next feels memory pressure, which on an idle
 *   engine is never;
 * - glibc's malloc_trim, because a decoder's model tables are many small C
 *   allocations that glibc keeps in the process after they are freed.
 */
import { createRequire } from 'node:module';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type * as Koffi from 'koffi';

const require = createRequire(import.meta.url);

type Gc = (opts?: { type?: 'minor' | 'major' }) => void;
let collect: Gc | null | undefined;
type Trim = { async: (pad: number, done: (err: unknown, res: number) => void) => void };
let trim: Trim | null | undefined;

function gcFunction(): Gc | null {
  if (collect !== undefined) return collect;
  try {
    // `--expose-gc` after start-up: V8 installs `gc` in contexts created from now on.
    // The flag changes nothing else, and the function is kept here, never made global.
    setFlagsFromString('--expose-gc');
    collect = runInNewContext('gc') as Gc;
  } catch {
    collect = null;
  }
  return collect;
}

function mallocTrim(): Trim | null {
  if (trim !== undefined) return trim;
  try {
    const koffi = require('koffi') as typeof Koffi;
    trim = koffi.load('libc.so.6').func('int malloc_trim(size_t pad)') as unknown as Trim;
  } catch {
    // Not glibc (musl, macOS, Windows): their allocators return memory on their own terms.
    trim = null;
  }
  return trim;
}

/**
 * Collects garbage and trims the C heap, so call it after releasing something
 * big. The trim runs on a worker thread: after a freed decoder it walks
 * ~90 MB of small chunks, which held the event loop for up to 100 ms.
 */
export function releaseMemory(): void {
  gcFunction()?.();
  mallocTrim()?.async(0, () => undefined);
}

/**
 * A young-generation collection (a scavenge, well under a millisecond when
 * little survives). A streamed body arrives as one fresh Buffer per socket
 * read; their wrappers are tiny, so nothing else makes V8 scavenge, and the
 * bytes behind them pile up as external memory until V8's 64 MiB external
 * limit forces a full collection. Calling this every few MiB of a stream
 * frees them as they go.
 */
export function releaseStreamGarbage(): void {
  gcFunction()?.({ type: 'minor' });
}
