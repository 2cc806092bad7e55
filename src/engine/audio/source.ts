/**
 * Resolves a transcript's `audio_url` to a local file: an `upload_url` of
 * this engine, an http(s) URL (downloaded with a timeout and a size limit),
 * or a `file://` path when the engine allows it.
 */
import { createWriteStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { Readable } from 'node:stream';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import { fileURLToPath } from 'node:url';
import type { Store } from '../store';

export class SourceError extends Error {}

export interface SourceOptions {
  store: Store;
  baseUrl: string;
  allowFileUrls: boolean;
  maxFetchBytes: number;
  fetchTimeoutMs: number;
  signal?: AbortSignal;
}

export interface ResolvedSource {
  path: string;
  /** True when the file is a temporary download the caller removes. */
  temporary: boolean;
}

/**
 * The upload id when `url` is an upload_url of this engine: its own host, or
 * a loopback address on any port (the engine may have restarted on another
 * port; the id is then looked up in the store).
 */
export function uploadIdOf(url: string, baseUrl: string): string | null {
  try {
    const u = new URL(url);
    const b = new URL(baseUrl);
    const m = /^\/v2\/files\/([A-Za-z0-9-]+)$/.exec(u.pathname);
    if (!m) return null;
    const loopback = ['127.0.0.1', 'localhost', '[::1]'].includes(u.hostname);
    return u.host === b.host || loopback ? (m[1] as string) : null;
  } catch {
    return null;
  }
}

function downloadError(url: string, reason: string): SourceError {
  return new SourceError(`Download error, unable to download ${url}. ${reason}`);
}

export async function resolveSource(audioUrl: string, dest: string, o: SourceOptions): Promise<ResolvedSource> {
  const uploadId = uploadIdOf(audioUrl, o.baseUrl);
  const known = uploadId ? o.store.getUpload(uploadId) : null;
  if (uploadId && (known || new URL(audioUrl).host === new URL(o.baseUrl).host)) {
    const up = known;
    if (!up || !(await stat(up.path).catch(() => null))) {
      throw new SourceError(`The uploaded file ${audioUrl} no longer exists on this engine (it was deleted or never finished uploading). Upload the file again.`);
    }
    return { path: up.path, temporary: false };
  }
  const u = new URL(audioUrl);
  if (u.protocol === 'file:') {
    if (!o.allowFileUrls) throw new SourceError('file:// audio URLs are disabled on this engine; start it with --allow-file-urls or upload the file.');
    const path = fileURLToPath(u);
    const st = await stat(path).catch(() => null);
    if (!st?.isFile()) throw new SourceError(`The file ${path} does not exist or is not a regular file.`);
    return { path, temporary: false };
  }
  // http(s): stream to disk with an inactivity timeout and a size limit.
  const ac = new AbortController();
  const onAbort = () => ac.abort();
  o.signal?.addEventListener('abort', onAbort, { once: true });
  let timer = setTimeout(() => ac.abort(), o.fetchTimeoutMs);
  const touch = () => {
    clearTimeout(timer);
    timer = setTimeout(() => ac.abort(), o.fetchTimeoutMs);
  };
  try {
    let res: Response;
    try {
      res = await fetch(audioUrl, { signal: ac.signal, redirect: 'follow' });
    } catch (err) {
      if (o.signal?.aborted) throw err;
      const cause = (err as { cause?: { code?: string; message?: string } }).cause;
      const why = ac.signal.aborted ? `No answer within ${Math.round(o.fetchTimeoutMs / 1000)} s.` : `The server could not be reached (${cause?.code ?? cause?.message ?? (err instanceof Error ? err.message : String(err))}).`;
      throw downloadError(audioUrl, `${why} Check that the URL is correct and reachable from the engine.`);
    }
    if (!res.ok) {
      await res.body?.cancel().catch(() => undefined);
      throw downloadError(audioUrl, `The server answered HTTP ${res.status}. Check that the URL is public and points at the file itself.`);
    }
    const type = res.headers.get('content-type') ?? '';
    if (/text\/html|application\/xhtml/i.test(type)) {
      await res.body?.cancel().catch(() => undefined);
      throw new SourceError(`The URL ${audioUrl} answered a web page (HTML) instead of audio or video. Use a direct link to the media file, not to a page that shows it.`);
    }
    const declared = Number(res.headers.get('content-length') ?? '0');
    if (declared > o.maxFetchBytes) {
      await res.body?.cancel().catch(() => undefined);
      throw downloadError(audioUrl, `The file is larger than this engine's limit of ${o.maxFetchBytes} bytes.`);
    }
    const out = createWriteStream(dest);
    let size = 0;
    try {
      if (!res.body) throw downloadError(audioUrl, 'The server sent no data.');
      for await (const chunk of Readable.fromWeb(res.body as unknown as NodeReadableStream<Uint8Array>)) {
        touch();
        size += (chunk as Uint8Array).byteLength;
        if (size > o.maxFetchBytes) throw downloadError(audioUrl, `The file is larger than this engine's limit of ${o.maxFetchBytes} bytes.`);
        if (!out.write(chunk)) await new Promise<void>((r) => out.once('drain', r));
      }
    } catch (err) {
      if (err instanceof SourceError || o.signal?.aborted) throw err;
      throw downloadError(audioUrl, `The transfer broke off (${ac.signal.aborted ? 'timed out' : err instanceof Error ? err.message : String(err)}). It may be submitted again.`);
    } finally {
      await new Promise<void>((r) => out.end(() => r()));
    }
    if (size === 0) throw downloadError(audioUrl, 'The server sent an empty file.');
    return { path: dest, temporary: true };
  } finally {
    clearTimeout(timer);
    o.signal?.removeEventListener('abort', onAbort);
  }
}
