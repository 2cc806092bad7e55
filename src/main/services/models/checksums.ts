/**
 * Checksums that follow upstream: the SHA-256 list a release publishes
 * (sherpa-onnx's daily `checksum.txt`, written `name<TAB>sha256` by
 * thewh1teagle/checksum; `sha256sum`'s `sha256  name` is read too), and the
 * decision a finished download or a picked file is judged by: the value
 * verified before for this model, else the catalog's, else the list; a
 * mismatch reads the list again before refusing, because upstream re-uploads
 * assets under the same name.
 */
import { basename } from 'node:path';
import type { CatalogEntry } from '../../../shared/models/catalog';
import { ModelError } from './errors';
import type { Connection } from './net';
import type { Verified } from './state';

/** A published list is small (sherpa-onnx's largest, asr-models, is a few hundred kB); anything past this is not one. */
const MAX_LIST_BYTES = 8 * 1024 * 1024;
const LIST_TIMEOUT_MS = 30_000;

/** The archive's file name: the key of its line in the list, and what a mirror serves it as. */
export const archiveNameOf = (entry: CatalogEntry): string => basename(new URL(entry.url).pathname);

/** name → SHA-256 from a published list; a name listed twice keeps its last line (the list is appended to as assets are re-hashed). */
export function parseChecksumList(text: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (!line || line.startsWith('#')) continue;
    const sumFirst = /^([0-9a-fA-F]{64})\s+\*?(.+)$/.exec(line);
    const nameFirst = /^(.+?)\s+([0-9a-fA-F]{64})$/.exec(line);
    if (sumFirst) out.set(sumFirst[2]!.trim(), sumFirst[1]!.toLowerCase());
    else if (nameFirst) out.set(nameFirst[1]!.trim(), nameFirst[2]!.toLowerCase());
  }
  return out;
}

/** The list's URL: upstream's, or `<mirror>/<the list's file name>` with a mirror. */
export function listUrlOf(entry: CatalogEntry, mirror: string): string | null {
  const list = entry.checksums;
  if (!list) return null;
  return mirror ? `${mirror.replace(/\/+$/, '')}/${basename(new URL(list).pathname)}` : list;
}

/** Read the list and answer the SHA-256 it gives the archive, or null when it cannot be read or does not name it. */
export async function publishedSha256(connection: Connection, listUrl: string, name: string, signal?: AbortSignal): Promise<string | null> {
  const timeout = AbortSignal.timeout(LIST_TIMEOUT_MS);
  const both = signal ? AbortSignal.any([signal, timeout]) : timeout;
  try {
    const { res } = await connection.get(listUrl, 0, both);
    if (res.statusCode !== 200 || String(res.headers['content-type'] ?? '').startsWith('text/html')) {
      res.destroy();
      return null;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of res as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > MAX_LIST_BYTES) {
        res.destroy();
        return null;
      }
      chunks.push(chunk);
    }
    return parseChecksumList(Buffer.concat(chunks).toString('utf8')).get(name) ?? null;
  } catch {
    return null;
  }
}

export interface Judged {
  /** What to remember for this model: the value it was verified against. */
  verified: Verified;
}

/**
 * Judge a finished archive. Throws 'checksum' when it matches no trusted
 * value, or 'upstream_changed' when upstream's list now names a new archive
 * that these bytes are not either (the old file's bytes, or a download that
 * spans both releases): download it again from the start.
 */
export async function judge(
  entry: CatalogEntry,
  got: { sha256: string; bytes: number },
  known: Verified | undefined,
  readList: (() => Promise<string | null>) | null,
  where: string,
): Promise<Judged> {
  // A value trusted on first use stands only for a file of that size: a new size is upstream's new release.
  const held = known && !(known.source === 'first' && known.bytes !== got.bytes) ? known : undefined;
  const expected = held?.sha256 ?? entry.sha256 ?? null;
  if (expected === got.sha256) return { verified: { sha256: got.sha256, bytes: got.bytes, source: held?.source ?? 'catalog' } };
  if (readList) {
    const listed = await readList();
    if (listed === got.sha256) return { verified: { sha256: got.sha256, bytes: got.bytes, source: 'published' } };
    if (listed && expected && listed !== expected)
      throw new ModelError(
        'upstream_changed',
        `A new version of this model was published${where ? ` (${where})` : ''} since Verbatim last checked, and what arrived matches neither version, so it was deleted. Download it again to get the new version.`,
      );
    if (listed)
      throw new ModelError(
        'checksum',
        `The downloaded archive does not match the SHA-256 its publisher lists, so it was deleted. The server${where ? ` (${where})` : ''} may hold a different or damaged file; download again, or use another mirror.`,
      );
  }
  if (expected)
    throw new ModelError(
      'checksum',
      `The downloaded archive does not match its known SHA-256, so it was deleted. The server${where ? ` (${where})` : ''} may hold a different or damaged file; download again, or use another mirror.`,
    );
  return { verified: { sha256: got.sha256, bytes: got.bytes, source: 'first' } };
}
