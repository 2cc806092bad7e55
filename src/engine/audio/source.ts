/**
 * Resolves a transcript's `audio_url` to a local file: an `upload_url` of
 * this engine, an http(s) URL (downloaded within the limits and address
 * policy of download.ts), or a `file://` path when the engine allows it.
 */
import { rm, stat } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { Store } from '../store';
import { download, DOWNLOAD_DEFAULTS, DownloadError, type DownloadLimits } from './download';

export class SourceError extends Error {}

export interface SourceOptions {
  store: Store;
  baseUrl: string;
  allowFileUrls: boolean;
  /** Fetch loopback and private addresses (true when the engine listens on loopback). */
  allowPrivateUrls: boolean;
  maxFetchBytes: number;
  fetchTimeoutMs: number;
  /** Deadline, minimum rate, redirects (defaults: DOWNLOAD_DEFAULTS). */
  limits?: Partial<DownloadLimits>;
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
      throw new SourceError(
        `The uploaded file ${audioUrl} no longer exists on this engine (it was deleted or never finished uploading). Upload the file again.`,
      );
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
  try {
    await download(
      audioUrl,
      dest,
      {
        maxBytes: o.maxFetchBytes,
        idleTimeoutMs: o.fetchTimeoutMs,
        allowPrivate: o.allowPrivateUrls,
        ...DOWNLOAD_DEFAULTS,
        ...o.limits,
      },
      o.signal,
    );
  } catch (err) {
    await rm(dest, { force: true });
    if (!(err instanceof DownloadError)) throw err;
    if (err.kind === 'html')
      throw new SourceError(
        `The URL ${audioUrl} answered a web page (HTML) instead of audio or video. Use a direct link to the media file, not to a page that shows it.`,
      );
    throw downloadError(audioUrl, err.message);
  }
  return { path: dest, temporary: true };
}
