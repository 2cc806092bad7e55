/**
 * A backup's manifest.json, written last by backup-writer.ts: each file's
 * size and SHA-256 and each table's row count. A restore checks the files
 * against it before it writes anything, and the counts after reading
 * library.json once; what does not match is refused, with what to do.
 */
import { createHash } from 'node:crypto';
import type { FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { AppError } from '../../../shared/errors';
import { openRegular } from './backup-files';

export const MANIFEST_FILE = 'manifest.json';
/** A manifest larger than this is not one exportAll writes (100,000 recordings' audio names fit many times over). */
const MANIFEST_MAX_BYTES = 64 * 1024 ** 2;

const fileEntry = z.object({ bytes: z.number().int().nonnegative(), sha256: z.string().regex(/^[0-9a-f]{64}$/) }).strict();
export const backupManifestSchema = z
  .object({
    format: z.literal('verbatim-backup-manifest'),
    version: z.literal(1),
    counts: z.record(z.string().regex(/^[a-z_]{1,40}$/), z.number().int().nonnegative()),
    files: z.record(z.string().regex(/^(library\.json|audio\/[^/\\]{1,200})$/), fileEntry),
  })
  .strict();
export type BackupManifest = z.infer<typeof backupManifestSchema>;

/** What a restore says when the backup is not whole: nothing was restored, and what the user can do. */
export function incomplete(what: string): AppError {
  return new AppError(
    'file_unreadable',
    `This backup is incomplete or damaged: ${what}. Nothing was restored. It was probably cut short while it was being made or copied: make the backup again, or choose a complete copy of it.`,
  );
}

/** The folder's manifest, or null when it has none (a backup made by an earlier Verbatim); refused when it is not one. */
export async function readManifest(root: string): Promise<BackupManifest | null> {
  const opened = await openRegular(join(root, MANIFEST_FILE), root);
  if ('refused' in opened) {
    if (opened.refused === 'missing') return null;
    throw incomplete(`its ${MANIFEST_FILE} is ${opened.refused}, not a regular file`);
  }
  try {
    if (opened.size > MANIFEST_MAX_BYTES) throw incomplete(`its ${MANIFEST_FILE} is larger than any backup's`);
    const text = (await opened.fh.readFile()).toString('utf8');
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw incomplete(`its ${MANIFEST_FILE} does not read as whole JSON`);
    }
    const m = backupManifestSchema.safeParse(parsed);
    if (!m.success) throw incomplete(`its ${MANIFEST_FILE} is not one Verbatim writes`);
    if (!m.data.files['library.json']) throw incomplete(`its ${MANIFEST_FILE} does not list library.json`);
    return m.data;
  } finally {
    await opened.fh.close();
  }
}

/** SHA-256 of an open file, read in 1 MiB pieces (each a turn of the event loop); `read` hears the bytes read so far. */
export async function hashOpened(fh: FileHandle, size: number, signal?: AbortSignal, read?: (bytes: number) => void): Promise<string> {
  const hash = createHash('sha256');
  const buf = Buffer.allocUnsafe(1 << 20);
  for (let at = 0; at < size;) {
    if (signal?.aborted) throw new AppError('canceled', 'The import was canceled. Nothing was imported.');
    const { bytesRead } = await fh.read(buf, 0, Math.min(buf.length, size - at), at);
    if (bytesRead === 0) break;
    hash.update(buf.subarray(0, bytesRead));
    at += bytesRead;
    read?.(at);
  }
  return hash.digest('hex');
}

/** One file of the backup against its manifest entry: its size, then its hash. */
export async function checkFile(
  name: string,
  fh: FileHandle,
  size: number,
  entry: { bytes: number; sha256: string } | undefined,
  signal?: AbortSignal,
  read?: (bytes: number) => void,
): Promise<void> {
  if (!entry) throw incomplete(`${name} is not listed in its ${MANIFEST_FILE}`);
  if (size !== entry.bytes) throw incomplete(`${name} holds ${size.toLocaleString('en')} bytes where the backup wrote ${entry.bytes.toLocaleString('en')}`);
  if ((await hashOpened(fh, size, signal, read)) !== entry.sha256) throw incomplete(`${name} is not the file the backup wrote (its SHA-256 differs)`);
}

/** Every audio file the manifest lists, present, whole and unchanged. */
export async function checkAudio(root: string, manifest: BackupManifest, signal?: AbortSignal): Promise<void> {
  for (const [name, entry] of Object.entries(manifest.files)) {
    if (name === 'library.json') continue;
    const opened = await openRegular(join(root, name), root);
    if ('refused' in opened) throw incomplete(`${name} is ${opened.refused === 'missing' ? 'missing' : opened.refused}`);
    try {
      await checkFile(name, opened.fh, opened.size, entry, signal);
    } finally {
      await opened.fh.close();
    }
  }
}

/** Rows read from library.json against the counts the manifest gives. */
export function checkCounts(manifest: BackupManifest, seen: ReadonlyMap<string, number>): void {
  const tables = new Set([...Object.keys(manifest.counts), ...seen.keys()]);
  for (const t of tables) {
    const want = manifest.counts[t] ?? 0;
    const got = seen.get(t) ?? 0;
    if (want !== got) throw incomplete(`library.json holds ${got.toLocaleString('en')} rows of ${t} where the backup wrote ${want.toLocaleString('en')}`);
  }
}
