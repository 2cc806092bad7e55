/**
 * The checks every host-mode request passes (a loopback Host, a target of
 * ours) and the routes that serve user data (uploads, media), reachable only
 * with the launch token and once the services are up.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

/** A route that serves user data: reachable only with the launch token. */
export type TokenRoute = (req: IncomingMessage, res: ServerResponse, url: URL) => void | Promise<void>;

/**
 * Whether a Host header names this machine's loopback: `127.0.0.1`,
 * `localhost` or `[::1]`, with an optional port. Anything else is refused, so
 * a page on a rebinding name (evil.example → 127.0.0.1) cannot read our
 * responses as same-origin.
 */
export function isLoopbackHost(header: string | undefined): boolean {
  if (!header) return false;
  const m = /^(127\.0\.0\.1|localhost|\[::1\])(?::(\d{1,5}))?$/i.exec(header);
  return m !== null && (m[2] === undefined || Number(m[2]) <= 65535);
}

/**
 * Parses a request target; null when it is not a path of ours or cannot be
 * read: `//a:b/` and `http://[` (which `new URL` throws on), absolute-form,
 * `*`, or a path whose percent-escapes do not decode (`/media/%E0`).
 */
export function parseTarget(raw: string | undefined): URL | null {
  const target = raw ?? '/';
  if (!target.startsWith('/') || target.startsWith('//')) return null;
  try {
    const url = new URL(target, 'http://127.0.0.1');
    decodeURIComponent(url.pathname);
    return url;
  } catch {
    return null;
  }
}

export function newToken(): string {
  return randomBytes(24).toString('base64url');
}

export function tokenMatches(expected: string, given: string | null | undefined): boolean {
  if (!given) return false;
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}

export class TokenRoutes {
  private readonly routes = new Map<string, TokenRoute>();

  /** `ready`: starts the services if nothing has yet, and answers whether they are up. */
  constructor(
    private readonly token: string,
    private readonly ready: () => Promise<boolean>,
  ) {}

  add(prefix: string, route: TokenRoute): void {
    this.routes.set(prefix, route);
  }

  /** Answers the request when one of the routes owns its path (401 without the token, 503 when the services failed); false when none does. */
  async handle(req: IncomingMessage, res: ServerResponse, url: URL): Promise<boolean> {
    for (const [prefix, route] of this.routes) {
      if (!url.pathname.startsWith(prefix)) continue;
      const given = url.searchParams.get('token') ?? bearer(req);
      if (!tokenMatches(this.token, given)) res.writeHead(401, { 'content-type': 'text/plain' }).end('Missing or wrong token');
      else if (!(await this.ready())) res.writeHead(503, { 'content-type': 'text/plain' }).end('Verbatim could not start its services');
      else await route(req, res, url);
      return true;
    }
    return false;
  }
}

function bearer(req: IncomingMessage): string | undefined {
  const h = req.headers.authorization;
  return h?.startsWith('Bearer ') ? h.slice(7) : undefined;
}
