/**
 * Host-mode routes for the library's bytes, both behind the launch token:
 * POST /upload stages a dropped file (the browser cannot give a path) for
 * `jobs.addFiles`, or a big subtitle file for `subtitles.importNew` and
 * replaceFrom (read once, off the event loop); GET /media/<recordingId> streams a recording's audio
 * with Range support so <audio> can seek: the library's copy, or else the file it came from, which
 * goes through the owner of the user's files (inside --folder, links resolved) and is read from the
 * descriptor that check opened.
 */
import { createReadStream, createWriteStream, statSync } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { rename, rm } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Core } from '../core';

const MAX_UPLOAD = 5 * 1024 ** 3;

const AUDIO_MIME: Record<string, string> = {
  '.mp3': 'audio/mpeg',
  '.wav': 'audio/wav',
  '.m4a': 'audio/mp4',
  '.mp4': 'video/mp4',
  '.ogg': 'audio/ogg',
  '.opus': 'audio/ogg',
  '.webm': 'audio/webm',
  '.flac': 'audio/flac',
  '.aac': 'audio/aac',
  '.mov': 'video/quicktime',
};

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' }).end(JSON.stringify(body));
}

export async function handleUpload(core: Core, req: IncomingMessage, res: ServerResponse): Promise<void> {
  if (req.method !== 'POST') {
    res.writeHead(405, { allow: 'POST' }).end();
    return;
  }
  const declared = Number(req.headers['content-length'] ?? NaN);
  if (declared > MAX_UPLOAD) {
    json(res, 413, { error: 'The file is larger than 5 GiB, the most Verbatim accepts.' });
    req.resume();
    return;
  }
  const { id, part, path } = core.files.staged.create();
  let bytes = 0;
  let tooLarge = false;
  req.on('data', (c: Buffer) => {
    bytes += c.length;
    if (bytes > MAX_UPLOAD && !tooLarge) {
      tooLarge = true;
      req.destroy();
    }
  });
  try {
    await pipeline(req, createWriteStream(part));
    await rename(part, path);
    json(res, 200, { uploadId: id, bytes });
  } catch {
    await rm(part, { force: true });
    if (!res.headersSent && !res.destroyed)
      json(res, tooLarge ? 413 : 400, { error: tooLarge ? 'The file is larger than 5 GiB.' : 'The upload was interrupted.' });
  }
}

export async function handleMedia(core: Core, req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.writeHead(405, { allow: 'GET, HEAD' }).end();
    return;
  }
  let id: string;
  try {
    id = decodeURIComponent(url.pathname.slice('/media/'.length));
  } catch {
    res.writeHead(400, { 'content-type': 'text/plain' }).end('The media address is not valid percent-encoding.');
    return;
  }
  const path = /^[0-9a-f-]{36}$/.test(id) ? core.library.audio.path(id, url.searchParams.get('redacted') === '1' ? 'redacted' : 'original') : null;
  if (!path) {
    res.writeHead(404, { 'content-type': 'text/plain' }).end('No audio for this recording');
    return;
  }
  // The original file (not the library's copy): checked again as any file the user names, then read from that descriptor only.
  let handle: FileHandle | null = null;
  let size: number;
  if (core.library.audio.isLibraryCopy(path)) {
    try {
      size = statSync(path).size;
    } catch {
      // Removed meanwhile (retention, a delete): as if it had never been.
      res.writeHead(404, { 'content-type': 'text/plain' }).end('No audio for this recording');
      return;
    }
  } else {
    try {
      const opened = await core.files.openPath(path);
      handle = opened.handle;
      size = opened.size;
    } catch (e) {
      const status = (e as { code?: string }).code === 'forbidden' ? 403 : 404;
      res.writeHead(status, { 'content-type': 'text/plain' }).end(e instanceof Error ? e.message : 'No audio for this recording');
      return;
    }
  }
  const stream = (range?: { start: number; end: number }) => {
    const s = handle ? handle.createReadStream({ ...range, autoClose: true }) : createReadStream(path, range ?? {});
    // A file removed or unreadable after the check above: the answer is cut short; an 'error' with no listener would end host mode.
    s.on('error', () => res.destroy());
    return s;
  };
  const done = () => void handle?.close().catch(() => undefined);
  const type = AUDIO_MIME[extname(path).toLowerCase()] ?? 'application/octet-stream';
  const headers: Record<string, string | number> = {
    'content-type': type,
    'accept-ranges': 'bytes',
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
  };
  const range = /^bytes=(\d*)-(\d*)$/.exec(req.headers.range ?? '');
  if (range && (range[1] || range[2])) {
    let start = range[1] ? Number(range[1]) : size - Number(range[2]);
    let end = range[1] && range[2] ? Number(range[2]) : size - 1;
    start = Math.max(0, start);
    end = Math.min(size - 1, end);
    if (start > end || start >= size) {
      done();
      res.writeHead(416, { 'content-range': `bytes */${size}` }).end();
      return;
    }
    res.writeHead(206, { ...headers, 'content-range': `bytes ${start}-${end}/${size}`, 'content-length': end - start + 1 });
    if (req.method === 'HEAD') {
      done();
      res.end();
    } else stream({ start, end }).pipe(res);
    return;
  }
  res.writeHead(200, { ...headers, 'content-length': size });
  if (req.method === 'HEAD') {
    done();
    res.end();
  } else stream().pipe(res);
}
