/**
 * Unpacks a `.tar.bz2` as a stream (bzip2 decoded block by block, tar entries
 * read one at a time; never the whole archive in memory) into a folder we
 * made. Entries that climb out (`../`), absolute paths, links, devices and
 * FIFOs refuse the whole archive; only the files the model needs (and its
 * licence) are written, the archive's top folder stripped.
 */
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { dirname, resolve, sep } from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ModelError } from './errors';

/** Top-level files kept beside the model's own: its licence and readme. */
const KEEP_TOO = /^(LICEN[CS]E(\.[a-z]+)?|README(\.[a-z]+)?)$/i;

export interface UnpackOptions {
  /** Paths (relative to the model folder) the model needs; unpacking fails unless all arrive. */
  wanted: readonly string[];
  /** Refuse an archive that unpacks to more than this (a decompression bomb). */
  maxBytes: number;
  signal?: AbortSignal;
}

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

/** Unpack `archive` into `dir` (which must exist and be empty); resolves with the bytes written. */
export async function unpackTarBz2(archive: string, dir: string, o: UnpackOptions): Promise<number> {
  const root = resolve(dir);
  const wanted = new Set(o.wanted);
  const seen = new Set<string>();
  let written = 0;
  // Loaded here, on the first unpack, not with the app: they are ~15 ms of every start otherwise (issue 29: cold start).
  const [{ extract: tarExtract }, { default: unbzip2 }] = await Promise.all([import('tar-stream'), import('unbzip2-stream')]);
  const extract = tarExtract();
  const source = createReadStream(archive, { highWaterMark: 1 << 20 });
  const decoded = source.pipe(unbzip2() as unknown as Transform);
  const feeding = pipeline(decoded, extract, { signal: o.signal }).catch((err: unknown) => {
    throw badArchive(err);
  });
  source.on('error', (err) => decoded.destroy(err));
  try {
    for await (const entry of extract as AsyncIterable<Readable & { header: { name: string; type: string | null; size?: number } }>) {
      const { header } = entry;
      const path = safeMemberPath(header.name);
      const type = header.type ?? 'file';
      if (type === 'directory') {
        entry.resume();
        continue;
      }
      if (type !== 'file' && type !== 'contiguous-file') {
        throw new ModelError(
          'unsafe_archive',
          `The archive holds a ${type} (${JSON.stringify(path.slice(0, 120))}); model archives hold only files, so Verbatim refused it.`,
        );
      }
      const dest = destinationOf(path, wanted);
      if (!dest || seen.has(dest)) {
        entry.resume();
        await new Promise((r) => entry.once('end', r));
        continue;
      }
      const target = resolve(root, dest);
      if (!target.startsWith(root + sep)) throw new ModelError('unsafe_archive', 'The archive tried to write outside its folder; Verbatim refused it.');
      seen.add(dest);
      await mkdir(dirname(target), { recursive: true });
      const limit = new Transform({
        transform(chunk: Buffer, _e, cb) {
          written += chunk.length;
          if (written > o.maxBytes) cb(new ModelError('unsafe_archive', 'The archive unpacks to far more than the model should be; Verbatim refused it.'));
          else cb(null, chunk);
        },
      });
      await pipeline(entry, limit, createWriteStream(target, { flags: 'wx' }));
    }
    await feeding;
  } catch (err) {
    source.destroy();
    decoded.destroy();
    extract.destroy();
    await feeding.catch(() => undefined);
    throw badArchive(err);
  }
  const missing = [...wanted].filter((p) => !seen.has(p));
  if (missing.length)
    throw new ModelError(
      'incomplete_model',
      `The archive lacks files the model needs (${missing.slice(0, 4).join(', ')}). It may be a different model or a damaged download.`,
    );
  return written;
}

function badArchive(err: unknown): ModelError {
  if (err instanceof ModelError) return err;
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'ENOSPC' || code === 'EDQUOT') return new ModelError('disk', 'The disk filled up while unpacking the model. Free some space and try again.');
  if (code === 'ABORT_ERR') return new ModelError('canceled', 'Unpacking was stopped.');
  const detail = err instanceof Error ? err.message : String(err);
  return new ModelError(
    'not_archive',
    `The file is not a readable .tar.bz2 model archive (${detail.slice(0, 120)}). Download it again, or pick the archive from the sherpa-onnx releases.`,
  );
}
