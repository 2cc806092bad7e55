/**
 * POST /v2/upload: the raw body streamed to disk (never buffered whole), up
 * to the configured limit (413 beyond). GET /v2/files/:id serves it back.
 */
import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import { Transform } from 'node:stream';
import type { UploadResponse } from '../../shared/api/transcript';
import type { EngineContext } from '../context';
import { releaseStreamGarbage } from '../memory';
import { sendJson } from './respond';
import { HttpError, type Router } from './router';

/** Received bytes between two young-generation collections: bounds the upload's garbage at about this much. */
const SCAVENGE_EVERY_BYTES = 8 * 1024 * 1024;

export function registerUpload(ctx: EngineContext, router: Router): void {
  router.post('/v2/upload', async ({ req, res }) => {
    const limit = ctx.opts.maxUploadBytes;
    const tooLarge = `The upload is larger than this engine's limit of ${limit} bytes (${(limit / 1024 ** 3).toFixed(1)} GiB).`;
    const declared = Number(req.headers['content-length'] ?? NaN);
    if (Number.isFinite(declared) && declared > limit) {
      res.setHeader('connection', 'close');
      req.resume();
      throw new HttpError(413, tooLarge);
    }
    const id = randomUUID();
    const final = ctx.store.uploadPath(id);
    const part = `${final}.part`;
    let size = 0;
    let sinceScavenge = 0;
    const counter = new Transform({
      transform(chunk: Buffer, _enc, cb) {
        size += chunk.length;
        sinceScavenge += chunk.length;
        // Keep the engine's memory flat for any body size (see releaseStreamGarbage).
        if (sinceScavenge >= SCAVENGE_EVERY_BYTES) {
          sinceScavenge = 0;
          releaseStreamGarbage();
        }
        if (size > limit) cb(new HttpError(413, tooLarge));
        else cb(null, chunk);
      },
    });
    try {
      await pipeline(req, counter, createWriteStream(part, { highWaterMark: 1024 * 1024, mode: 0o600 }));
    } catch (err) {
      await rm(part, { force: true });
      if (err instanceof HttpError) {
        res.setHeader('connection', 'close');
        throw err;
      }
      throw new HttpError(400, 'The upload was interrupted before the whole body arrived; send it again.');
    }
    if (size === 0) {
      await rm(part, { force: true });
      throw new HttpError(400, 'The upload body is empty; send the file bytes as the request body.');
    }
    await rename(part, final);
    ctx.store.insertUpload(id, size);
    sendJson(res, 200, { upload_url: `${ctx.baseUrl()}/v2/files/${id}` } satisfies UploadResponse);
  });

  router.get('/v2/files/:id', async ({ res, params }) => {
    const up = ctx.store.getUpload(params.id ?? '');
    if (!up) throw new HttpError(404, 'Upload not found');
    res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': up.size });
    await pipeline(createReadStream(up.path), res);
  });
}
