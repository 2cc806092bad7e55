/**
 * Unpacks a `.tar.bz2` into a folder we made: decoded off the main thread
 * (unpack-decoder.ts: the system's bzip2 in a child, a libarchive tar, or a
 * worker), its tar read here one header at a time, and every header checked
 * before a byte of its member is written: entries that climb out (`../`),
 * absolute paths, links, devices and FIFOs refuse the whole archive; sizes are
 * bounded (each member, what is written, what is decoded), so a decompression
 * bomb stops at its first header or within the bound. Only the files the
 * model needs (and its licence) are written, the archive's top folder
 * stripped. One pass over the archive: listing it first with `tar -t` would
 * decode it twice (bench/models-unpack.ts).
 *
 * Error contract (all ModelError, the promise always settles, nothing is left
 * in `dir` on failure): `not_archive` for a damaged or truncated archive (the
 * manager deletes a downloaded .part on it, so a restart downloads afresh
 * rather than resuming into the same failure), `unsafe_archive` for a hostile
 * one (including one larger than the model can be), `incomplete_model`,
 * `disk`, `canceled`.
 */
import { createWriteStream } from 'node:fs';
import { mkdir, rm, type FileHandle } from 'node:fs/promises';
import { dirname, resolve, sep } from 'node:path';
import { Transform, Writable, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ModelError } from './errors';
import { DecodeError, openDecoder, type Decoder, type DecoderKind } from './unpack-decoder';

/** Top-level files kept beside the model's own: its licence and readme. */
const KEEP_TOO = /^(LICEN[CS]E(\.[a-z]+)?|README(\.[a-z]+)?)$/i;

export interface UnpackOptions {
  /** Paths (relative to the model folder) the model needs; unpacking fails unless all arrive. */
  wanted: readonly string[];
  /** Most bytes written in all (the catalog's unpacked size plus a margin): a decompression bomb stops here. */
  maxBytes: number;
  /** Most bytes of any one member written (default: maxBytes). */
  maxEntryBytes?: number;
  /**
   * Most bytes decoded in all, members the model does not need included (an
   * archive may hold other variants of its weights). Default: the larger of
   * maxBytes and 10 × the archive (model weights compress by well under 2×),
   * plus 64 MiB.
   */
  maxDecodedBytes?: number;
  /** Which decoder (tests and the bench); default: the fastest this machine has. */
  decoder?: DecoderKind | 'auto';
  signal?: AbortSignal;
}

type Entry = Readable & { header: { name: string; type: string | null; size?: number } };

/** A member's name as a safe relative path, or a ModelError saying why the archive is refused. */
export function safeMemberPath(name: string): string {
  const refuse = (why: string) =>
    new ModelError('unsafe_archive', `The archive holds ${why} (${JSON.stringify(name.slice(0, 120))}), so Verbatim refused it and wrote nothing from it.`);
  if (name.includes('\0') || name.includes('\\')) throw refuse('a malformed file name');
  if (name.startsWith('/') || /^[a-zA-Z]:/.test(name)) throw refuse('an absolute path');
  const parts = name.split('/').filter((p) => p !== '' && p !== '.');
  if (parts.includes('..')) throw refuse('a path that climbs out of its folder');
  return parts.join('/');
}

/** Where an archive member goes: its path without the top folder when that is a wanted file, or as is. */
function destinationOf(path: string, wanted: ReadonlySet<string>): string | null {
  const parts = path.split('/');
  const stripped = parts.slice(1).join('/');
  if (parts.length > 1 && wanted.has(stripped)) return stripped;
  if (wanted.has(path)) return path;
  if (parts.length === 2 && KEEP_TOO.test(parts[1]!)) return parts[1]!;
  if (parts.length === 1 && KEEP_TOO.test(parts[0]!)) return parts[0]!;
  return null;
}

const tooLarge = () =>
  new ModelError(
    'unsafe_archive',
    'The archive is larger than this model can be, so Verbatim stopped unpacking it and kept nothing from it. It may be damaged or not the model it is named after.',
  );

/** Unpack `archive` (a path, or a file already opened: read from its descriptor, left open) into `dir` (which must exist and be empty); resolves with the bytes written. */
export async function unpackTarBz2(archive: string | FileHandle, dir: string, o: UnpackOptions): Promise<number> {
  if (o.signal?.aborted) throw canceled();
  const root = resolve(dir);
  const wanted = new Set(o.wanted);
  const maxEntry = Math.min(o.maxEntryBytes ?? o.maxBytes, o.maxBytes);
  const seen = new Set<string>();
  const made: string[] = [];
  let written = 0;
  let decoder: Decoder;
  try {
    decoder = await openDecoder(archive, o.decoder);
  } catch (err) {
    throw badArchive(err);
  }
  const maxDecoded = o.maxDecodedBytes ?? Math.max(o.maxBytes, 10 * decoder.bytes) + 64 * 1024 * 1024;
  // tar-stream is loaded on the first unpack, not with the app: ~10 ms of every start otherwise (issue 29: cold start).
  const { extract: tarExtract } = await import('tar-stream');
  const extract = tarExtract();
  let decoded = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _e, cb) {
      decoded += chunk.length;
      cb(decoded > maxDecoded ? tooLarge() : null, chunk);
    },
  });
  // Settles with the error that ended the feed (or null); never rejects, so nothing goes unhandled whichever side fails first.
  const feeding = pipeline(decoder.out, counter, extract).then(
    () => null,
    (err: unknown) => err,
  );
  const onAbort = () => {
    decoder.stop();
    extract.destroy(canceled());
  };
  o.signal?.addEventListener('abort', onAbort, { once: true });
  try {
    for await (const entry of extract as AsyncIterable<Entry>) {
      const { header } = entry;
      const path = safeMemberPath(header.name);
      const type = header.type;
      if (type === 'directory') {
        entry.resume();
        continue;
      }
      if (type !== 'file' && type !== 'contiguous-file') {
        throw new ModelError(
          'unsafe_archive',
          `The archive holds ${type ? `a ${type}` : 'an entry of an unknown kind'} (${JSON.stringify(path.slice(0, 120))}); model archives hold only files, so Verbatim refused it.`,
        );
      }
      const size = header.size ?? 0;
      const dest = destinationOf(path, wanted);
      if (!dest || seen.has(dest)) {
        // Skipped, but still decoded: bounded by maxDecoded, and refused at its header when it alone is past it.
        if (size > maxDecoded) throw tooLarge();
        // A sink, not resume() and 'end': a member cut short by a stop never ends, but its pipeline settles.
        await pipeline(entry, discard());
        continue;
      }
      // Checked at the header, before the member's first byte is decoded: a bomb stops here.
      if (size > maxEntry || written + size > o.maxBytes) throw tooLarge();
      const target = resolve(root, dest);
      if (!target.startsWith(root + sep)) throw new ModelError('unsafe_archive', 'The archive tried to write outside its folder; Verbatim refused it.');
      seen.add(dest);
      const first = await mkdir(dirname(target), { recursive: true });
      if (first) made.push(first);
      made.push(target);
      let own = 0;
      // tar-stream gives a member exactly its header's size; counted anyway, so the bound holds whatever the parser does.
      const limit = new Transform({
        transform(chunk: Buffer, _e, cb) {
          own += chunk.length;
          written += chunk.length;
          cb(own > maxEntry || written > o.maxBytes ? tooLarge() : null, chunk);
        },
      });
      await pipeline(entry, limit, createWriteStream(target, { flags: 'wx' }));
    }
    const fed = await feeding;
    if (fed) throw fed;
    await decoder.done;
  } catch (err) {
    decoder.stop();
    extract.destroy();
    await feeding;
    // The decoder's account of a failure too: it knows an archive that ends early when the parser saw only a short stream.
    const verdict = await decoder.done.then(
      () => null,
      (e: unknown) => e,
    );
    await Promise.all(made.reverse().map((p) => rm(p, { recursive: true, force: true })));
    if (o.signal?.aborted) throw canceled();
    if (err instanceof ModelError) throw err;
    throw badArchive(err, verdict);
  } finally {
    o.signal?.removeEventListener('abort', onAbort);
  }
  const missing = [...wanted].filter((p) => !seen.has(p));
  if (missing.length) {
    await Promise.all(made.reverse().map((p) => rm(p, { recursive: true, force: true })));
    throw new ModelError(
      'incomplete_model',
      `The archive lacks files the model needs (${missing.slice(0, 4).join(', ')}). It may be a different model or a damaged download.`,
    );
  }
  return written;
}

const discard = () => new Writable({ write: (_c, _e, cb) => cb() });

const canceled = () => new ModelError('canceled', 'Unpacking was stopped.');

/** A failure as the user reads it; `verdict` is the decoder's own account, when it failed too. */
function badArchive(err: unknown, verdict?: unknown): ModelError {
  if (err instanceof ModelError) return err;
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'ENOSPC' || code === 'EDQUOT') return new ModelError('disk', 'The disk filled up while unpacking the model. Free some space and try again.');
  if (code === 'ABORT_ERR') return canceled();
  if (code === 'ENOENT' || code === 'EACCES' || code === 'ELOOP' || code === 'EISDIR')
    return new ModelError('not_archive', 'Verbatim cannot read the model archive. Pick the file again, or download the model again.');
  // The decoder's word (bzip2: "ends unexpectedly"), or the tar parser's: its data stopped inside a member.
  const truncated = [err, verdict].some(
    (e) => (e instanceof DecodeError && e.truncated) || (e instanceof Error && /unexpected end|ends early/i.test(e.message)),
  );
  return new ModelError(
    'not_archive',
    truncated
      ? 'The model archive is incomplete: it ends before its last file, as an interrupted download does. The model was not installed; download it again.'
      : 'The model archive is damaged: it is not a readable .tar.bz2. The model was not installed; download it again, or pick the archive from the sherpa-onnx releases.',
  );
}
