/**
 * One resumable download to a `.part` file: HTTP Range from the bytes already
 * on disk (a server that ignores Range restarts the file, never appends to
 * it), a SHA-256 kept as the bytes arrive, a stall timer that aborts an
 * attempt which moved no byte for `stallMs`, retries with backoff for what a
 * retry can cure, and the first bytes checked so a web page is never taken
 * for an archive.
 */
import { createReadStream, createWriteStream } from 'node:fs';
import { stat, truncate, unlink } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { classifyNetworkError, ModelError } from './errors';
import { ThreadHasher } from './hasher';
import type { Connection } from './net';

export interface DownloadProgress {
  bytes: number;
  /** Total size as the server states it, or null until known. */
  total: number | null;
}

export interface DownloadOptions {
  url: string;
  part: string;
  /** 'tar.bz2' expects bzip2's `BZh`; 'file' a GGUF's `GGUF` when the name ends in .gguf; anything else is not checked. */
  magic: Buffer | null;
  connection: Connection;
  signal: AbortSignal;
  onProgress: (p: DownloadProgress) => void;
  stallMs: number;
  /** Attempts in a row that moved no byte before giving up. */
  maxAttempts?: number;
  /** Backoff of the first retry (doubling, capped at 30 s). */
  retryBaseMs?: number;
  /** Told of each failed attempt that will be retried. */
  log?: (m: string) => void;
}

export interface DownloadResult {
  bytes: number;
  sha256: string;
}

/** Received bytes between two young-generation collections (see scavenge). */
const SCAVENGE_EVERY_BYTES = 4 * 1024 * 1024;

let minorGc: ((o: { type: 'minor' }) => void) | null | undefined;
/**
 * A socket read arrives as a fresh Buffer whose bytes V8 counts as external
 * memory; nothing else makes V8 collect them, so a long download piles them up
 * until its external limit forces a full collection. A scavenge every few MiB
 * frees them as they go and keeps the process's memory flat.
 */
function scavenge(): void {
  if (minorGc === undefined) {
    try {
      setFlagsFromString('--expose-gc');
      minorGc = runInNewContext('gc') as (o: { type: 'minor' }) => void;
    } catch {
      minorGc = null;
    }
  }
  minorGc?.({ type: 'minor' });
}

async function sizeOf(path: string): Promise<number> {
  try {
    return (await stat(path)).size;
  } catch {
    return 0;
  }
}

/** Feeds the bytes already in the partial file to the hasher (so a resumed download still checks the whole archive). */
async function hashPartial(hasher: ThreadHasher, path: string, bytes: number): Promise<void> {
  if (bytes === 0) return;
  for await (const chunk of createReadStream(path, { end: bytes - 1, highWaterMark: 1 << 20 })) {
    if (!hasher.update(chunk as Buffer)) await hasher.drain();
  }
}

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const t = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => (clearTimeout(t), resolve()), { once: true });
  });

/** Download to `part`, resuming what is there; resolves when the whole file is on disk. */
export async function download(o: DownloadOptions): Promise<DownloadResult> {
  const maxAttempts = o.maxAttempts ?? 5;
  let idle = 0;
  for (;;) {
    const before = await sizeOf(o.part);
    try {
      return await attempt(o, before);
    } catch (err) {
      if (o.signal.aborted) throw new ModelError('canceled', 'The download was stopped.');
      const e = err instanceof ModelError ? err : classifyNetworkError(err, o.url, false);
      if (!e.transient) throw e;
      o.log?.(`${e.kind}: ${e.message}`);
      idle = (await sizeOf(o.part)) > before ? 1 : idle + 1;
      if (idle >= maxAttempts) throw e;
      await sleep(Math.min(30_000, (o.retryBaseMs ?? 1000) * 2 ** (idle - 1)), o.signal);
      if (o.signal.aborted) throw new ModelError('canceled', 'The download was stopped.');
    }
  }
}

/** Total size from a 200's Content-Length or a 206's Content-Range. */
function totalOf(res: IncomingMessage, from: number): number | null {
  if (res.statusCode === 206) {
    const m = /\/(\d+)\s*$/.exec(res.headers['content-range'] ?? '');
    return m ? Number(m[1]) : null;
  }
  const len = Number(res.headers['content-length']);
  return Number.isFinite(len) && res.headers['content-length'] !== undefined ? len + (res.statusCode === 206 ? from : 0) : null;
}

async function attempt(o: DownloadOptions, had: number): Promise<DownloadResult> {
  const inner = new AbortController();
  const abort = () => inner.abort();
  o.signal.addEventListener('abort', abort, { once: true });
  let stalled = false;
  let hasher: ThreadHasher | null = null;
  let timer: NodeJS.Timeout | null = null;
  const arm = () => {
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      stalled = true;
      inner.abort();
    }, o.stallMs);
  };
  try {
    arm();
    let { res } = await o.connection.get(o.url, had, inner.signal);
    let from = had;
    if (res.statusCode === 416) {
      // The partial file is as long as the file or longer than it: start again from nothing.
      res.resume();
      await unlink(o.part).catch(() => undefined);
      ({ res } = await o.connection.get(o.url, 0, inner.signal));
      from = 0;
    }
    if (res.statusCode === 200 && from > 0) from = 0; // Range ignored: the body is the whole file again.
    if (from === 0 && had > 0) await truncate(o.part, 0);
    const type = String(res.headers['content-type'] ?? '').toLowerCase();
    if (type.startsWith('text/html')) {
      res.resume();
      throw new ModelError(
        'not_archive',
        `${new URL(o.url).host} sent a web page instead of the model (often a login or captive-portal page). Open the address in a browser, or set a working mirror.`,
      );
    }
    const total = totalOf(res, from);
    hasher = new ThreadHasher();
    await hashPartial(hasher, o.part, from);
    const hash = hasher;
    let bytes = from;
    o.onProgress({ bytes, total });
    const out = createWriteStream(o.part, { flags: from > 0 ? 'a' : 'w', highWaterMark: 1 << 20 });
    let sinceGc = 0;
    let head = from === 0 && o.magic ? Buffer.alloc(0) : null;
    await new Promise<void>((resolve, reject) => {
      let failed = false;
      let waits = 0;
      const hold = (until: Promise<unknown>) => {
        waits++;
        res.pause();
        void until.then(() => {
          if (--waits === 0 && !failed) res.resume();
        });
      };
      // Bytes already received are flushed to the partial file before the attempt ends, so a resume starts after them.
      const fail = (err: unknown) => {
        if (failed) return;
        failed = true;
        res.destroy();
        if (out.destroyed || out.errored) reject(err);
        else {
          out.once('close', () => reject(err));
          out.end();
        }
      };
      res.on('data', (chunk: Buffer) => {
        arm();
        if (head && o.magic) {
          head = Buffer.concat([head, chunk.subarray(0, o.magic.length)]);
          if (head.length >= o.magic.length) {
            if (!head.subarray(0, o.magic.length).equals(o.magic)) {
              fail(
                new ModelError(
                  'not_archive',
                  `What ${new URL(o.url).host} sent is not the model archive (it does not start like one). Check the download mirror, or install from a file.`,
                ),
              );
              return;
            }
            head = null;
          }
        }
        bytes += chunk.length;
        sinceGc += chunk.length;
        if (sinceGc >= SCAVENGE_EVERY_BYTES) {
          sinceGc = 0;
          scavenge();
        }
        o.onProgress({ bytes, total });
        // Both the disk and the hashing thread may ask to wait; the socket resumes when neither does.
        if (!hash.update(chunk)) hold(hash.drain());
        if (!out.write(chunk)) hold(new Promise<void>((r) => out.once('drain', () => r())));
      });
      res.on('end', () => out.end());
      res.on('error', fail);
      res.on('close', () => {
        if (!res.complete) fail(new ModelError('network', 'The server closed the connection before the end of the file.'));
      });
      out.on('error', (err) => fail(classifyNetworkError(err, o.url, false)));
      out.on('finish', () => {
        if (!failed) resolve();
      });
    });
    if (total !== null && bytes !== total) throw new ModelError('network', `The download ended at ${bytes} of ${total} bytes; resuming.`);
    if (total === null && !res.complete) throw new ModelError('network', 'The server closed the connection before the end of the file.');
    const sha256 = await hash.digest();
    hasher = null;
    return { bytes, sha256 };
  } catch (err) {
    if (stalled)
      throw new ModelError(
        'stalled',
        `The download from ${new URL(o.url).host} stopped moving for ${o.stallMs >= 1000 ? `${Math.round(o.stallMs / 1000)} s` : `${o.stallMs} ms`}; retrying.`,
      );
    if (o.signal.aborted) throw new ModelError('canceled', 'The download was stopped.');
    throw err instanceof ModelError ? err : classifyNetworkError(err, o.url, false);
  } finally {
    hasher?.dispose();
    if (timer) clearTimeout(timer);
    o.signal.removeEventListener('abort', abort);
  }
}
