/**
 * The Sync and Dictation APIs' request body (POST /v1/transcribe/live): multipart/form-data, a `config` part
 * (JSON, always first) then an `audio` part, as the SDK frames it (chunked while the audio is still being
 * recorded). The body is read whole, up to a cap: 120 s of audio is at most a few tens of MB.
 */
import type { IncomingMessage } from 'node:http';
import { HttpError } from '../routes/router';
import { SyncError } from './audio';

/** The largest file taken (AssemblyAI's "Audio requirements": 40 MB), and a little for the framing and config. */
export const MAX_SYNC_FILE_BYTES = 40 * 1000 * 1000;
export const MAX_SYNC_BODY_BYTES = MAX_SYNC_FILE_BYTES + 64 * 1024;

export interface SyncParts {
  config: unknown;
  audio: { contentType: string; filename: string; bytes: Buffer };
}

async function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  const tooLarge = () =>
    new SyncError(413, 'audio_too_large', 'The audio file is larger than 40 MB; the sync API takes at most 40 MB and 120 s of WAV or PCM audio.');
  if (Number(req.headers['content-length']) > limit) throw tooLarge();
  const chunks: Buffer[] = [];
  let received = 0;
  await new Promise<void>((resolve, reject) => {
    const onData = (c: Buffer) => {
      received += c.length;
      if (received <= limit) return void chunks.push(c);
      req.off('data', onData);
      chunks.length = 0;
      req.resume();
      reject(tooLarge());
    };
    req.on('data', onData);
    req.once('end', () => resolve());
    req.once('error', reject);
    req.once('aborted', () => reject(new HttpError(400, 'The upload was cut off before it ended.')));
  });
  return Buffer.concat(chunks);
}

/** A part's headers, lower-cased names. */
function headersOf(block: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const line of block.split('\r\n')) {
    const at = line.indexOf(':');
    if (at > 0) out.set(line.slice(0, at).trim().toLowerCase(), line.slice(at + 1).trim());
  }
  return out;
}

function param(disposition: string, name: string): string | null {
  const m = new RegExp(`;\\s*${name}="((?:[^"\\\\]|\\\\.)*)"`, 'i').exec(disposition) ?? new RegExp(`;\\s*${name}=([^;\\s]+)`, 'i').exec(disposition);
  return m ? (m[1] as string) : null;
}

/** Reads and splits the body; a body that is not the SDK's framing is a 400 saying what it lacks. */
export async function readSyncParts(req: IncomingMessage): Promise<SyncParts> {
  const type = String(req.headers['content-type'] ?? '');
  const boundary = /^multipart\/form-data\s*;.*boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(type);
  if (!boundary)
    throw new HttpError(
      400,
      'The body must be multipart/form-data with a `config` part (JSON) and then an `audio` part (WAV, or raw PCM with sample_rate and channels).',
    );
  const body = await readBody(req, MAX_SYNC_BODY_BYTES);
  const delimiter = Buffer.from(`--${boundary[1] ?? boundary[2]}`);
  const parts: { headers: Map<string, string>; data: Buffer }[] = [];
  let at = body.indexOf(delimiter);
  while (at >= 0) {
    const start = at + delimiter.length;
    if (body.subarray(start, start + 2).toString() === '--') break;
    const headEnd = body.indexOf('\r\n\r\n', start);
    if (headEnd < 0) break;
    const next = body.indexOf(Buffer.concat([Buffer.from('\r\n'), delimiter]), headEnd + 4);
    const end = next < 0 ? body.length : next;
    parts.push({ headers: headersOf(body.subarray(start + 2, headEnd).toString('utf8')), data: body.subarray(headEnd + 4, end) });
    if (next < 0) break;
    at = next + 2;
  }
  const named = (name: string) => parts.find((p) => param(p.headers.get('content-disposition') ?? '', 'name') === name);
  const configPart = named('config');
  const audioPart = named('audio');
  if (!audioPart) throw new HttpError(400, 'The body has no `audio` part; send the audio (WAV, or raw PCM with sample_rate and channels in a `config` part).');
  // The live upload decodes as audio lands, so its config must come first; a one-shot upload may leave it out.
  if (configPart && parts.indexOf(configPart) > parts.indexOf(audioPart)) throw new HttpError(400, 'The `config` part must come before the `audio` part.');
  let config: unknown = {};
  try {
    if (configPart) config = JSON.parse(configPart.data.toString('utf8') || '{}');
  } catch {
    throw new HttpError(400, 'The `config` part is not valid JSON.');
  }
  return {
    config,
    audio: {
      contentType: (audioPart.headers.get('content-type') ?? 'application/octet-stream').toLowerCase(),
      filename: param(audioPart.headers.get('content-disposition') ?? '', 'filename') ?? '',
      bytes: audioPart.data,
    },
  };
}
