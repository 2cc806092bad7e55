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
 * value; 'upstream_changed' when upstream's list now names a new archive and
 * a resumed download matches neither (its bytes may span both releases: a
 * fresh download cures it); 'mirror_mismatch' when a mirror's whole file
 * matches no published version (downloading it again fetches the same file).
 */
export async function judge(
  entry: CatalogEntry,
  /** `resumed`: some bytes came before the last request (a picked file and a download from byte 0 did not). */
  got: { sha256: string; bytes: number; resumed?: boolean },
  known: Verified | undefined,
  readList: (() => Promise<string | null>) | null,
  /** 'your mirror' when the bytes came from the user's mirror, else ''. */
  where: string,
): Promise<Judged> {
  // A value trusted on first use stands only for a file of that size: a new size is upstream's new release.
  const held = known && !(known.source === 'first' && known.bytes !== got.bytes) ? known : undefined;
  const expected = held?.sha256 ?? entry.sha256 ?? null;
  if (expected === got.sha256) return { verified: { sha256: got.sha256, bytes: got.bytes, source: held?.source ?? 'catalog' } };
  if (readList) {
    const listed = await readList();
    if (listed === got.sha256) return { verified: { sha256: got.sha256, bytes: got.bytes, source: 'published' } };
    if (listed && expected && listed !== expected && got.resumed)
      throw new ModelError(
        'upstream_changed',
        'A new version of this model was published while it was downloading, and what arrived matches neither version, so it was deleted. Download it again from the start to get the new version.',
      );
    if (listed && where) throw mirrorMismatch(entry, where, 'matches no published version of this model');
    if (listed)
      throw new ModelError(
        'checksum',
        'The downloaded archive does not match the SHA-256 its publisher lists, so it was deleted. The file may have been damaged on the way; try again, or install it from a file.',
      );
  }
  if (expected && where) throw mirrorMismatch(entry, where, 'is not the version of this model that Verbatim knows');
  if (expected)
    throw new ModelError(
      'checksum',
      'The downloaded archive does not match its known SHA-256, so it was deleted. The file may have been damaged on the way; try again, or install it from a file.',
    );
  return { verified: { sha256: got.sha256, bytes: got.bytes, source: 'first' } };
}

/** The mirror's file is none of the versions published: fetching it again gets the same bytes, so the message says what to change instead. */
function mirrorMismatch(entry: CatalogEntry, where: string, what: string): ModelError {
  return new ModelError(
    'mirror_mismatch',
    `The file ${archiveNameOf(entry)} on ${where} ${what}, so it was deleted. Put the current file from ${new URL(entry.url).host} on the mirror, or download it from the publisher.`,
  );
}
