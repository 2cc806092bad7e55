/** `Authorization: <key>` checks, in constant time. */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

export const AUTH_ERROR = 'Authentication error, API token missing/invalid';

function digest(s: string): Buffer {
  return createHash('sha256').update(s).digest();
}

export function keyMatches(given: string | undefined | null, apiKey: string): boolean {
  if (!given) return false;
  const g = given.startsWith('Bearer ') ? given.slice(7) : given;
  return timingSafeEqual(digest(g), digest(apiKey));
}

export function isAuthorized(req: IncomingMessage, apiKey: string): boolean {
  const h = req.headers.authorization;
  return keyMatches(Array.isArray(h) ? h[0] : h, apiKey);
}
