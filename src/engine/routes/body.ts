/** Request body helpers. */
import type { IncomingMessage } from 'node:http';
import { HttpError } from './router';

function size(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${Math.round((bytes / 1024 / 1024) * 10) / 10} MB` : `${Math.round(bytes / 1024)} KB`;
}

/**
 * Reads a JSON body of at most `limit` bytes. Larger bodies answer 413 at
 * once (by Content-Length) or as soon as the limit is passed, without
 * buffering the rest; `hint` says what to send instead.
 */
export async function readJson(req: IncomingMessage, limit = 1024 * 1024, hint = ''): Promise<unknown> {
  const tooLarge = () => new HttpError(413, `The request body is larger than ${size(limit)}, the most this endpoint accepts.${hint ? ` ${hint}` : ''}`);
  if (Number(req.headers['content-length']) > limit) throw tooLarge();
  const chunks: Buffer[] = [];
  let received = 0;
  await new Promise<void>((resolve, reject) => {
    const onData = (c: Buffer) => {
      received += c.length;
      if (received <= limit) {
        chunks.push(c);
        return;
      }
      // Stop keeping bytes; the rest is read and dropped so the 413 can still be answered.
      req.off('data', onData);
      chunks.length = 0;
      req.resume();
      reject(tooLarge());
    };
    req.on('data', onData);
    req.once('end', () => resolve());
    req.once('error', reject);
  });
  const text = Buffer.concat(chunks).toString('utf8');
  if (!text.trim()) throw new HttpError(400, 'The request body is empty; send a JSON object.');
  try {
    return JSON.parse(text);
  } catch {
    throw new HttpError(400, 'The request body is not valid JSON.');
  }
}
