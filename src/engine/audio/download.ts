/**
 * Downloads an http(s) `audio_url` to a file for a job, within limits that
 * keep one URL from holding a worker: a size limit, an idle timeout, an
 * overall deadline and a minimum rate (a source dripping a byte every 40 s
 * fails in one rate window), and redirects followed by hand so every hop is
 * checked against the address policy of fetch-guard.ts. Failures are
 * `DownloadError`s whose text says what the user can do, never socket
 * details (no "ECONNREFUSED 10.0.0.3:22": the texts must not work as a port scanner).
 */
import { createWriteStream } from 'node:fs';
import { get as httpGet, type IncomingMessage } from 'node:http';
import { get as httpsGet } from 'node:https';
import { BlockedAddressError, guardedLookup, isPrivateAddress } from './fetch-guard';

export interface DownloadLimits {
  maxBytes: number;
  /** Waiting this long for an answer, or between two chunks, fails. */
  idleTimeoutMs: number;
  /** The whole download, redirects included. */
  deadlineMs: number;
  /** Below this average over any `rateWindowMs` (after the first), the download fails. */
  minBytesPerSecond: number;
  rateWindowMs: number;
  maxRedirects: number;
  /** Fetch loopback, private and link-local addresses (an engine on loopback, or --allow-private-urls). */
  allowPrivate: boolean;
  /** Which resolved addresses are refused when `allowPrivate` is false (default isPrivateAddress; tests narrow it). */
  blockedAddress?: (ip: string) => boolean;
}

export const DOWNLOAD_DEFAULTS: Omit<DownloadLimits, 'maxBytes' | 'idleTimeoutMs' | 'allowPrivate'> = {
  deadlineMs: 2 * 60 * 60_000,
  minBytesPerSecond: 4 * 1024,
  rateWindowMs: 30_000,
  maxRedirects: 5,
};

export class DownloadError extends Error {
  constructor(
    message: string,
    /** `blocked`: refused by this engine's address policy; `html`: the URL answered a web page. */
    readonly kind: 'blocked' | 'html' | 'other' = 'other',
  ) {
    super(message);
  }
}

export const BLOCKED_MESSAGE =
  'It points at a loopback, private or link-local network address (directly, through its DNS name or through a redirect), which this engine does not fetch because it listens on a network interface. Upload the file with POST /v2/upload instead, or start the engine with --allow-private-urls if it may reach your private network.';

function seconds(ms: number): string {
  return ms >= 120_000 ? `${Math.round(ms / 60_000)} min` : `${Math.round(ms / 1000)} s`;
}

/** What went wrong in words a user can act on; the error's own text (addresses, ports, codes) is never shown. */
function describeNetworkError(err: unknown): DownloadError {
  if (err instanceof BlockedAddressError || (err as { cause?: unknown }).cause instanceof BlockedAddressError)
    return new DownloadError(BLOCKED_MESSAGE, 'blocked');
  const code = (err as NodeJS.ErrnoException).code ?? '';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'EAI_NODATA')
    return new DownloadError('Its host name does not resolve. Check the spelling of the URL.');
  if (/^ERR_TLS|CERT|SSL|^EPROTO$/.test(code))
    return new DownloadError('The secure connection to the server failed (its certificate or TLS setup was refused). Use a URL with a valid certificate.');
  return new DownloadError('The server could not be reached. Check that the URL is correct and reachable from the engine.');
}

/** Downloads `url` into `dest`; answers the byte count. Throws DownloadError (or the caller's abort reason). */
export async function download(url: string, dest: string, limits: DownloadLimits, signal?: AbortSignal): Promise<number> {
  const blocked = limits.allowPrivate ? null : (limits.blockedAddress ?? isPrivateAddress);
  const ac = new AbortController();
  let why: DownloadError | null = null;
  const stop = (e: DownloadError) => {
    why ??= e;
    ac.abort(e);
  };
  const onOuterAbort = () => ac.abort(signal?.reason);
  signal?.addEventListener('abort', onOuterAbort, { once: true });
  const deadline = setTimeout(
    () =>
      stop(
        new DownloadError(`The download did not finish within ${seconds(limits.deadlineMs)}. Use a faster source, or upload the file with POST /v2/upload.`),
      ),
    limits.deadlineMs,
  );
  let idle: NodeJS.Timeout | undefined;
  const touch = () => {
    clearTimeout(idle);
    idle = setTimeout(
      () =>
        stop(
          new DownloadError(
            `The server sent nothing for ${seconds(limits.idleTimeoutMs)}. Check that the URL is reachable from the engine, or upload the file.`,
          ),
        ),
      limits.idleTimeoutMs,
    );
  };
  let bytes = 0;
  let windowStart = 0;
  let rateTimer: NodeJS.Timeout | undefined;
  const minPerWindow = (limits.minBytesPerSecond * limits.rateWindowMs) / 1000;
  const fail = (err: unknown): never => {
    if (signal?.aborted) throw signal.reason;
    if (why) throw why;
    if (err instanceof DownloadError) throw err;
    throw describeNetworkError(err);
  };
  try {
    touch();
    let current: URL;
    try {
      current = new URL(url);
    } catch {
      throw new DownloadError('It is not a valid URL.');
    }
    let res: IncomingMessage;
    for (let hop = 0; ; hop++) {
      if (current.protocol !== 'http:' && current.protocol !== 'https:') throw new DownloadError('It redirects to an address that is not http(s).');
      if (blocked?.(current.hostname)) throw new DownloadError(BLOCKED_MESSAGE, 'blocked');
      const getter = current.protocol === 'https:' ? httpsGet : httpGet;
      res = await new Promise<IncomingMessage>((resolve, reject) => {
        const req = getter(
          current,
          { lookup: guardedLookup(blocked), signal: ac.signal, headers: { 'user-agent': 'verbatim-engine', accept: '*/*' } },
          resolve,
        );
        req.on('error', reject);
      }).catch(fail);
      touch();
      const location = res.headers.location;
      if (res.statusCode && res.statusCode >= 300 && res.statusCode < 400 && location) {
        res.resume();
        if (hop >= limits.maxRedirects) throw new DownloadError(`It redirects more than ${limits.maxRedirects} times.`);
        try {
          current = new URL(location, current);
        } catch {
          throw new DownloadError('It redirects to an address that is not a valid URL.');
        }
        continue;
      }
      break;
    }
    const status = res.statusCode ?? 0;
    if (status < 200 || status > 299) {
      res.resume();
      throw new DownloadError(`The server answered HTTP ${status}. Check that the URL is public and points at the file itself.`);
    }
    const type = res.headers['content-type'] ?? '';
    if (/text\/html|application\/xhtml/i.test(type)) {
      res.destroy();
      throw new DownloadError('It answered a web page (HTML) instead of audio or video.', 'html');
    }
    const tooLarge = `The file is larger than this engine's limit of ${limits.maxBytes} bytes.`;
    if (Number(res.headers['content-length'] ?? '0') > limits.maxBytes) {
      res.destroy();
      throw new DownloadError(tooLarge);
    }
    rateTimer = setInterval(() => {
      if (bytes - windowStart < minPerWindow)
        stop(
          new DownloadError(
            `The server sent less than ${Math.max(1, Math.round(limits.minBytesPerSecond / 1024))} KB/s over ${seconds(limits.rateWindowMs)}, too slow to transcribe from. Use a faster source, or upload the file with POST /v2/upload.`,
          ),
        );
      windowStart = bytes;
    }, limits.rateWindowMs);
    const out = createWriteStream(dest, { mode: 0o600 });
    const outError = new Promise<never>((_, reject) => out.once('error', reject));
    outError.catch(() => undefined);
    try {
      for await (const chunk of res) {
        touch();
        bytes += (chunk as Buffer).length;
        if (bytes > limits.maxBytes) throw new DownloadError(tooLarge);
        if (!out.write(chunk)) await Promise.race([new Promise<void>((r) => out.once('drain', r)), outError]);
      }
      if (!res.complete) throw new DownloadError('The transfer broke off before the end of the file. It may be submitted again.');
    } catch (err) {
      res.destroy();
      if (err instanceof DownloadError || signal?.aborted || why) fail(err);
      throw new DownloadError('The transfer broke off before the end of the file. It may be submitted again.');
    } finally {
      await new Promise<void>((r) => out.end(() => r()));
    }
    if (bytes === 0) throw new DownloadError('The server sent an empty file.');
    return bytes;
  } finally {
    clearTimeout(deadline);
    clearTimeout(idle);
    clearInterval(rateTimer);
    signal?.removeEventListener('abort', onOuterAbort);
  }
}
