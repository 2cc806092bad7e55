/**
 * The REST client of the pre-recorded API (API.md §2–6): upload streamed from
 * disk with progress and cancel, create, get, views, list, delete, and the
 * redacted audio download. Every call goes through the typed errors of http.ts;
 * retries are the caller's choice (jobs decide what is safe to repeat).
 */
import { createWriteStream, statSync } from 'node:fs';
import { open, rename, rm, type FileHandle } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import type { z } from 'zod';
import {
  RedactedAudioLooseSchema,
  SpansResponseSchema,
  TranscriptListLooseSchema,
  TranscriptResponseSchema,
  UploadLooseSchema,
  WordSearchLooseSchema,
  type LooseWord,
  type SpansResponse,
  type TranscriptListLoose,
  type TranscriptRequest,
  type TranscriptResponse,
} from '../../../shared/api/transcript';
import { AppError } from '../../../shared/errors';
import { httpError, openStream, send, type BodyWriter, type HttpResponse } from './http';

/** Read size for uploads: big enough for throughput, small enough for a flat RSS. */
const UPLOAD_CHUNK = Number(process.env.VERBATIM_UPLOAD_CHUNK ?? 256 * 1024);

/** Wire shapes, from the one schema in src/shared/api (parsed leniently: a newer service's extra fields pass). */
export type WireTranscript = TranscriptResponse;
export type WireWord = LooseWord;
export type WireSpanView = SpansResponse;
export type ListPage = TranscriptListLoose;

export interface UploadProgress {
  bytes: number;
  total: number;
}

export class RestClient {
  constructor(
    readonly baseUrl: string,
    private readonly key: string,
  ) {}

  private url(path: string): string {
    return `${this.baseUrl.replace(/\/+$/, '')}${path}`;
  }

  private auth(): Record<string, string> {
    return { authorization: this.key };
  }

  private async json<S extends z.ZodType>(schema: S, method: string, path: string, what: string, body?: unknown, signal?: AbortSignal): Promise<z.infer<S>> {
    const res = await send({ method, url: this.url(path), headers: this.auth(), json: body, signal });
    if (res.status < 200 || res.status >= 300) throw httpError(res, what);
    return parseWith(schema, res, what);
  }

  /**
   * POST /v2/upload with the file streamed from disk. Never holds the file in memory. `source`: a path, or a
   * file main already opened and checked (services/files), read from its descriptor only and left open.
   */
  async upload(
    source: string | { name: string; size: number; handle: FileHandle },
    opts: { signal?: AbortSignal; onProgress?: (p: UploadProgress) => void } = {},
  ): Promise<string> {
    const path = typeof source === 'string' ? source : source.name;
    let total: number;
    try {
      if (typeof source !== 'string') total = source.size;
      else {
        const st = statSync(path);
        if (!st.isFile()) throw new Error('not a file');
        total = st.size;
      }
    } catch (e) {
      throw new AppError('file_unreadable', `Verbatim cannot read ${path}: it was moved, deleted, or is not a file.`, { cause: e });
    }
    // Two fixed buffers in turn: read one while the other is on the wire, reuse
    // a buffer only once the socket has taken it. No garbage per chunk, so the
    // client's memory stays flat whatever the file size.
    const writer: BodyWriter = async (req) => {
      let fh: FileHandle;
      try {
        fh = typeof source === 'string' ? await open(path, 'r') : source.handle;
      } catch (e) {
        throw new AppError('file_unreadable', `Verbatim could not open ${path} to upload it.`, { cause: e });
      }
      try {
        const bufs = [Buffer.allocUnsafe(UPLOAD_CHUNK), Buffer.allocUnsafe(UPLOAD_CHUNK)];
        const inFlight: Promise<void>[] = [Promise.resolve(), Promise.resolve()];
        let pos = 0;
        let i = 0;
        while (pos < total) {
          await inFlight[i];
          if (opts.signal?.aborted || req.destroyed) return;
          const buf = bufs[i]!;
          const { bytesRead } = await fh.read(buf, 0, Math.min(UPLOAD_CHUNK, total - pos), pos).catch((e: unknown) => {
            throw new AppError('file_unreadable', `Verbatim could not read ${path} while uploading it.`, { cause: e });
          });
          if (bytesRead === 0) throw new AppError('file_unreadable', `${path} became shorter while it was being uploaded.`);
          inFlight[i] = new Promise<void>((resolve, reject) => req.write(buf.subarray(0, bytesRead), (err) => (err ? reject(err) : resolve())));
          inFlight[i]!.catch(() => undefined);
          pos += bytesRead;
          opts.onProgress?.({ bytes: pos, total });
          i ^= 1;
        }
        await Promise.all(inFlight);
      } finally {
        if (typeof source === 'string') await fh.close();
      }
    };
    const res = await send({
      method: 'POST',
      url: this.url('/v2/upload'),
      headers: { ...this.auth(), 'content-type': 'application/octet-stream', 'content-length': total },
      body: writer,
      signal: opts.signal,
    });
    if (res.status !== 200) throw httpError(res, 'the upload');
    return parseWith(UploadLooseSchema, res, 'the upload').upload_url;
  }

  create(params: TranscriptRequest, signal?: AbortSignal): Promise<WireTranscript> {
    return this.json(TranscriptResponseSchema, 'POST', '/v2/transcript', 'creating the transcript', params, signal);
  }

  get(id: string, signal?: AbortSignal): Promise<WireTranscript> {
    return this.json(TranscriptResponseSchema, 'GET', `/v2/transcript/${encodeURIComponent(id)}`, 'reading the transcript', undefined, signal);
  }

  sentences(id: string, signal?: AbortSignal): Promise<WireSpanView> {
    return this.json(SpansResponseSchema, 'GET', `/v2/transcript/${encodeURIComponent(id)}/sentences`, 'reading sentences', undefined, signal);
  }

  paragraphs(id: string, signal?: AbortSignal): Promise<WireSpanView> {
    return this.json(SpansResponseSchema, 'GET', `/v2/transcript/${encodeURIComponent(id)}/paragraphs`, 'reading paragraphs', undefined, signal);
  }

  async subtitles(id: string, format: 'srt' | 'vtt', charsPerCaption?: number): Promise<string> {
    const q = charsPerCaption ? `?chars_per_caption=${charsPerCaption}` : '';
    const res = await send({ method: 'GET', url: this.url(`/v2/transcript/${encodeURIComponent(id)}/${format}${q}`), headers: this.auth() });
    if (res.status !== 200) throw httpError(res, `reading ${format.toUpperCase()}`);
    return res.body.toString('utf8');
  }

  wordSearch(id: string, words: string[]): Promise<z.infer<typeof WordSearchLooseSchema>> {
    return this.json(
      WordSearchLooseSchema,
      'GET',
      `/v2/transcript/${encodeURIComponent(id)}/word-search?words=${encodeURIComponent(words.join(','))}`,
      'searching words',
    );
  }

  redactedAudio(id: string): Promise<z.infer<typeof RedactedAudioLooseSchema>> {
    return this.json(RedactedAudioLooseSchema, 'GET', `/v2/transcript/${encodeURIComponent(id)}/redacted-audio`, 'reading the redacted audio');
  }

  list(query: { limit?: number; status?: string; before_id?: string; after_id?: string } = {}): Promise<ListPage> {
    const q = new URLSearchParams(
      Object.entries(query)
        .filter(([, v]) => v !== undefined)
        .map(([k, v]) => [k, String(v)]),
    );
    return this.json(TranscriptListLooseSchema, 'GET', `/v2/transcript${q.size ? `?${q}` : ''}`, 'listing transcripts');
  }

  delete(id: string): Promise<WireTranscript> {
    return this.json(TranscriptResponseSchema, 'DELETE', `/v2/transcript/${encodeURIComponent(id)}`, 'deleting the transcript');
  }

  /** The cheap authenticated call used to verify a key. */
  async verifyKey(signal?: AbortSignal): Promise<void> {
    await this.json(TranscriptListLooseSchema, 'GET', '/v2/transcript?limit=1', 'checking the API key', undefined, signal);
  }

  /**
   * Find a transcript already created for this audio URL (newest 200):
   * what makes "never submit twice" hold when a create's answer was lost.
   */
  async findByAudioUrl(audioUrl: string, signal?: AbortSignal, createdSinceMs?: number): Promise<string | null> {
    const page = await this.json(TranscriptListLooseSchema, 'GET', '/v2/transcript?limit=200', 'listing transcripts', undefined, signal);
    // A failed one is not adopted: a retry after a failure must make a new transcript.
    const recent = (created: string) =>
      createdSinceMs === undefined || Date.parse(/[zZ]|[+-]\d\d:?\d\d$/.test(created) ? created : `${created}Z`) >= createdSinceMs;
    return page.transcripts.find((t) => t.audio_url === audioUrl && t.status !== 'error' && recent(t.created))?.id ?? null;
  }

  /** Download a file (redacted audio) to `dest` atomically; sends the key only to the service's own host. */
  async download(url: string, dest: string, signal?: AbortSignal): Promise<void> {
    const sameHost = new URL(url).host === new URL(this.baseUrl).host;
    const res = await openStream({ method: 'GET', url, headers: sameHost ? this.auth() : {}, signal });
    if (res.statusCode !== 200) {
      const chunks: Buffer[] = [];
      for await (const c of res) chunks.push(c as Buffer);
      throw httpError({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }, 'downloading the file');
    }
    const tmp = `${dest}.part`;
    try {
      await pipeline(res, createWriteStream(tmp), { signal });
      await rename(tmp, dest);
    } catch (e) {
      await rm(tmp, { force: true });
      throw e;
    }
  }
}

/** The answer's JSON checked with a lenient wire schema; what it cannot read is a typed error, never a half-read object. */
function parseWith<S extends z.ZodType>(schema: S, res: HttpResponse, what: string): z.infer<S> {
  let body: unknown;
  try {
    body = JSON.parse(res.body.toString('utf8'));
  } catch {
    throw new AppError('server_error_retryable', `The service sent an unreadable answer during ${what}. Try again in a moment.`);
  }
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const where = issue?.path.length ? issue.path.join('.') : 'the answer';
  throw new AppError(
    'server_error',
    `The service's answer during ${what} is not in the expected shape (${where}: ${issue?.message ?? 'invalid'}). Check the service address in Settings.`,
  );
}
