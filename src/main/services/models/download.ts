/**
 * One resumable, bounded download to a `.part` file: HTTP Range from the
 * bytes already on disk (a server that ignores Range restarts the file, never
 * appends to it; a 206 whose Content-Range does not start at those bytes
 * restarts it once, then fails), never more bytes than the file's stated size
 * or the model's bound, a SHA-256 kept as the bytes arrive, a stall timer and
 * a minimum speed over a window, retries with backoff for what a retry can
 * cure, and the first bytes checked so a web page is never taken for an
 * archive.
 */
import { open, stat, truncate, unlink, type FileHandle } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import { createRequire } from 'node:module';
import type * as V8 from 'node:v8';
import { runInNewContext } from 'node:vm';
import { classifyNetworkError, formatBytes, gaveUp, ModelError } from './errors';
import { DownloadSink } from './hasher';
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
  /** The most bytes the file may have: a server stating more is refused, a body that runs past it is cut there (default: no bound). */
  maxBytes?: number;
  /** Fewer than `bytes` received over any `windowMs` aborts the attempt as too slow (default: 16 kB over 60 s). */
  minSpeed?: { bytes: number; windowMs: number };
  /** Attempts in a row that moved no byte (or moved too slowly) before giving up. */
  maxAttempts?: number;
  /** Backoff of the first retry (doubling, capped at 30 s). */
  retryBaseMs?: number;
  /** Told of each failed attempt that will be retried. */
  log?: (m: string) => void;
}

export interface DownloadResult {
  bytes: number;
  sha256: string;
  /** Some of the bytes came before this request (a resume): the file may span two releases of one name. */
  resumed: boolean;
}

/** A 206 that does not continue from the bytes held: the download restarts from nothing once. */
class RangeMismatch extends Error {}

/** Received bytes between two young-generation collections (see scavenge). */
const SCAVENGE_EVERY_BYTES = 4 * 1024 * 1024;
const DEFAULT_MIN_SPEED = { bytes: 16 * 1024, windowMs: 60_000 };
const PROGRESS_EVERY_MS = 100;

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
      // node:v8 on first need, not with the services (loading it took ~5 ms of every host-mode start).
      (createRequire(import.meta.url)('node:v8') as typeof V8).setFlagsFromString('--expose-gc');
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

const stopped = () => new ModelError('canceled', 'The download was stopped.');

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const t = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => (clearTimeout(t), resolve()), { once: true });
  });

/** Download to `part`, resuming what is there; resolves when the whole file is on disk. */
export async function download(o: DownloadOptions): Promise<DownloadResult> {
  const maxAttempts = o.maxAttempts ?? 5;
  let idle = 0;
  let restarted = false;
  for (;;) {
    if (o.signal.aborted) throw stopped();
    const before = await sizeOf(o.part);
    let slow = false;
    try {
      return await attempt(o, before, () => (slow = true));
    } catch (err) {
      if (o.signal.aborted) throw stopped();
      if (err instanceof RangeMismatch) {
        if (restarted)
          throw new ModelError(
            'http',
            `${new URL(o.url).host} answered a resumed download with the wrong part of the file twice (${err.message}). Try again later, or use another mirror.`,
          );
        restarted = true;
        o.log?.(`range mismatch: ${err.message}; starting again from the beginning`);
        await unlink(o.part).catch(() => undefined);
        continue;
      }
      const e = err instanceof ModelError ? err : classifyNetworkError(err, o.url, false);
      if (!e.transient) throw e;
      o.log?.(`${e.kind}: ${e.message}`);
      // A slow attempt counts as one that moved nothing: a drip would otherwise be retried forever.
      idle = !slow && (await sizeOf(o.part)) > before ? 1 : idle + 1;
      if (idle >= maxAttempts) throw gaveUp(e, idle);
      await sleep(Math.min(30_000, (o.retryBaseMs ?? 1000) * 2 ** (idle - 1)), o.signal);
    }
  }
}

/** The first byte, the last byte and the total a 206's Content-Range states, or null when it does not parse. */
function contentRange(res: IncomingMessage): { start: number; end: number; total: number | null } | null {
  const m = /^bytes (\d+)-(\d+)\/(\d+|\*)\s*$/.exec(res.headers['content-range'] ?? '');
  if (!m) return null;
  return { start: Number(m[1]), end: Number(m[2]), total: m[3] === '*' ? null : Number(m[3]) };
}

const lengthOf = (res: IncomingMessage): number | null => {
  const raw = res.headers['content-length'];
  const n = Number(raw);
  return raw !== undefined && Number.isSafeInteger(n) && n >= 0 ? n : null;
};

const tooLarge = (host: string, size: number, max: number) =>
  new ModelError(
    'size',
    `${host} offers a file of ${formatBytes(size)}, more than this model can be (at most ${formatBytes(max)}). Check the download mirror, or install from a file.`,
  );

async function attempt(o: DownloadOptions, had: number, markSlow: () => void): Promise<DownloadResult> {
  const host = new URL(o.url).host;
  const max = o.maxBytes ?? Number.MAX_SAFE_INTEGER;
  const inner = new AbortController();
  const abort = () => inner.abort();
  o.signal.addEventListener('abort', abort, { once: true });
  const checkAborted = () => {
    if (inner.signal.aborted) throw stopped();
  };
  let stalled = false;
  let slow = false;
  let sink: DownloadSink | null = null;
  let file: FileHandle | null = null;
  let timer: NodeJS.Timeout | null = null;
  let meter: NodeJS.Timeout | null = null;
  // The last bytes' progress follows within PROGRESS_EVERY_MS even when no more come.
  let trailing: NodeJS.Timeout | null = null;
  let res: IncomingMessage | null = null;
  // The stall timer: armed once, it looks at when the last byte came (a timer per socket read costs more than the read).
  let lastData = Date.now();
  const arm = (wait = o.stallMs) => {
    timer = setTimeout(() => {
      const idle = Date.now() - lastData;
      if (idle < o.stallMs) return arm(o.stallMs - idle);
      stalled = true;
      inner.abort();
    }, wait);
  };
  try {
    // The bytes held are hashed before the request, so nothing answers while no one listens (a pause here stops the reading).
    let from = had > max ? 0 : had;
    if (from === 0 && had > 0) await truncate(o.part, 0);
    sink = new DownloadSink();
    await sink.hashPrefix(o.part, from, inner.signal).catch((err: unknown) => {
      throw inner.signal.aborted ? stopped() : err;
    });
    checkAborted();
    arm();
    ({ res } = await o.connection.get(o.url, from, inner.signal));
    checkAborted();
    if (res.statusCode === 416) {
      // The partial file is as long as the file or longer than it: start again from nothing.
      res.resume();
      await unlink(o.part).catch(() => undefined);
      checkAborted();
      ({ res } = await o.connection.get(o.url, 0, inner.signal));
      checkAborted();
      from = 0;
    }
    let total: number | null;
    if (res.statusCode === 206) {
      const range = contentRange(res);
      if (!range || range.start !== from) {
        res.destroy();
        throw new RangeMismatch(`asked for bytes from ${from}, got ${res.headers['content-range'] ?? 'no Content-Range'}`);
      }
      total = range.total ?? (lengthOf(res) !== null ? from + lengthOf(res)! : null);
    } else {
      // 200: the Range was ignored (or none was asked), so the body is the whole file again.
      total = lengthOf(res);
      if (from > 0) {
        from = 0;
        await truncate(o.part, 0);
        checkAborted();
        sink.dispose();
        sink = new DownloadSink();
      }
    }
    const type = String(res.headers['content-type'] ?? '').toLowerCase();
    if (type.startsWith('text/html')) {
      res.resume();
      throw new ModelError(
        'not_archive',
        `${host} sent a web page instead of the model (often a login or captive-portal page). Open the address in a browser, or set a working mirror.`,
      );
    }
    if (total !== null && total > max) {
      res.destroy();
      throw tooLarge(host, total, max);
    }
    const limit = total ?? max;
    const out = sink;
    const body = res;
    let bytes = from;
    o.onProgress({ bytes, total });
    file = await open(o.part, from > 0 ? 'a' : 'w');
    checkAborted();
    out.start(file.fd);
    let sinceGc = 0;
    let head = from === 0 && o.magic ? Buffer.alloc(0) : null;
    // The minimum speed: fewer bytes than asked over a window ends the attempt (a drip never trips the stall timer).
    const min = o.minSpeed ?? DEFAULT_MIN_SPEED;
    let windowStart = bytes;
    meter = setInterval(() => {
      if (bytes - windowStart < min.bytes) {
        slow = true;
        markSlow();
        inner.abort();
      }
      windowStart = bytes;
    }, min.windowMs);
    let digest = '';
    await new Promise<void>((resolve, reject) => {
      let failed = false;
      let waits = 0;
      const hold = (until: Promise<unknown>) => {
        waits++;
        body.pause();
        void until.then(() => {
          if (--waits === 0 && !failed) body.resume();
        });
      };
      // Bytes already received are written to the partial file before the attempt ends, so a resume starts after them.
      const fail = (err: unknown) => {
        if (failed) return;
        failed = true;
        inner.signal.removeEventListener('abort', onAbort);
        body.destroy();
        // A failed write (a full disk) is the cause, whatever the socket did meanwhile.
        out.finish().then(
          () => reject(err),
          (e: unknown) => reject(classifyNetworkError(e, o.url, false)),
        );
      };
      // Whatever the response does after an abort (it may already have closed), the attempt settles.
      const onAbort = () => fail(stopped());
      inner.signal.addEventListener('abort', onAbort, { once: true });
      if (inner.signal.aborted) return onAbort();
      let reported = 0;
      body.on('data', (chunk: Buffer) => {
        if (failed) return;
        if (out.failed) return fail(new ModelError('disk', 'The partial file could not be written.'));
        const now = Date.now();
        lastData = now;
        if (head && o.magic) {
          head = Buffer.concat([head, chunk.subarray(0, o.magic.length)]);
          if (head.length >= o.magic.length) {
            if (!head.subarray(0, o.magic.length).equals(o.magic)) {
              fail(
                new ModelError(
                  'not_archive',
                  `What ${host} sent is not the model archive (it does not start like one). Check the download mirror, or install from a file.`,
                ),
              );
              return;
            }
            head = null;
          }
        }
        if (bytes + chunk.length > limit) {
          fail(
            total !== null
              ? new ModelError(
                  'size',
                  `${host} sent more than the ${formatBytes(total)} it announced, so the download was stopped. Try again, or use another mirror.`,
                )
              : tooLarge(host, bytes + chunk.length, max),
          );
          return;
        }
        bytes += chunk.length;
        sinceGc += chunk.length;
        if (sinceGc >= SCAVENGE_EVERY_BYTES) {
          sinceGc = 0;
          scavenge();
        }
        // Progress at most every 100 ms: a listener per socket read would cost as much as the read.
        if (now - reported >= PROGRESS_EVERY_MS) {
          reported = now;
          o.onProgress({ bytes, total });
        } else
          trailing ??= setTimeout(() => {
            trailing = null;
            reported = Date.now();
            if (!failed) o.onProgress({ bytes, total });
          }, PROGRESS_EVERY_MS);
        // The hashing and writing thread asks to wait when half its ring is full; the socket resumes when it has caught up.
        if (!out.push(chunk)) hold(out.drain());
      });
      body.on('end', () => {
        if (failed) return;
        out.finish().then(
          (sha256) => {
            if (failed) return;
            failed = true;
            digest = sha256;
            o.onProgress({ bytes, total });
            inner.signal.removeEventListener('abort', onAbort);
            resolve();
          },
          (e: unknown) => fail(classifyNetworkError(e, o.url, false)),
        );
      });
      body.on('error', fail);
      body.on('close', () => {
        if (!body.complete) fail(new ModelError('network', 'The server closed the connection before the end of the file.'));
      });
      if (body.destroyed && !body.complete) fail(new ModelError('network', 'The server closed the connection before the end of the file.'));
    });
    if (total !== null && bytes !== total) throw new ModelError('network', `The download ended at ${bytes} of ${total} bytes; resuming.`);
    return { bytes, sha256: digest, resumed: from > 0 };
  } catch (err) {
    res?.destroy();
    if (err instanceof RangeMismatch) throw err;
    if (o.signal.aborted) throw stopped();
    if (stalled)
      throw new ModelError(
        'stalled',
        `The download from ${host} stopped moving for ${o.stallMs >= 1000 ? `${Math.round(o.stallMs / 1000)} s` : `${o.stallMs} ms`}. Check the network, or try a mirror.`,
      );
    if (slow) {
      const min = o.minSpeed ?? DEFAULT_MIN_SPEED;
      throw new ModelError(
        'stalled',
        `The download from ${host} slowed to less than ${formatBytes(min.bytes)} in ${min.windowMs >= 1000 ? `${Math.round(min.windowMs / 1000)} s` : `${min.windowMs} ms`}. Check the network, or try a mirror.`,
      );
    }
    throw err instanceof ModelError ? err : classifyNetworkError(err, o.url, false);
  } finally {
    sink?.dispose();
    await file?.close().catch(() => undefined);
    if (timer) clearTimeout(timer);
    if (meter) clearInterval(meter);
    if (trailing) clearTimeout(trailing);
    o.signal.removeEventListener('abort', abort);
  }
}
