/**
 * A tiny method + path router. Patterns use `:name` segments
 * (`/v2/transcript/:id/srt`). Handlers may be async; a thrown HttpError
 * becomes `{error}` with its status, anything else a 500.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

const BASE = 'http://127.0.0.1';

/**
 * The URL of a request target (origin-form `/path?q`, or absolute-form
 * `http://host/path`), or null when it is neither: `//a:b/` and `http://[`
 * must become a 400, never an exception in a listener.
 */
export function requestUrl(target: string | undefined): URL | null {
  const t = target ?? '/';
  try {
    if (t.startsWith('/') && !t.startsWith('//')) return new URL(t, BASE);
    if (/^https?:\/\//i.test(t)) {
      const abs = new URL(t);
      return new URL(`${abs.pathname}${abs.search}`, BASE);
    }
  } catch {
    // fall through: not a URL
  }
  return null;
}

export interface RouteRequest {
  req: IncomingMessage;
  res: ServerResponse;
  url: URL;
  params: Record<string, string>;
}

export type RouteHandler = (r: RouteRequest) => void | Promise<void>;

interface Route {
  method: string;
  parts: string[];
  handler: RouteHandler;
  /** When true the route runs without the API key (none of the engine's routes today; kept for /health). */
  public: boolean;
}

export class Router {
  private routes: Route[] = [];

  add(method: string, pattern: string, handler: RouteHandler, opts: { public?: boolean } = {}): void {
    this.routes.push({ method: method.toUpperCase(), parts: pattern.split('/').filter(Boolean), handler, public: opts.public ?? false });
  }

  get(pattern: string, handler: RouteHandler, opts?: { public?: boolean }): void {
    this.add('GET', pattern, handler, opts);
  }
  post(pattern: string, handler: RouteHandler, opts?: { public?: boolean }): void {
    this.add('POST', pattern, handler, opts);
  }
  delete(pattern: string, handler: RouteHandler, opts?: { public?: boolean }): void {
    this.add('DELETE', pattern, handler, opts);
  }

  /** Finds a route: `undefined` = no path matches; `null` = the path exists for another method. */
  match(method: string, pathname: string): { route: Route; params: Record<string, string> } | null | undefined {
    const segs = pathname.split('/').filter(Boolean);
    let pathMatched = false;
    for (const route of this.routes) {
      if (route.parts.length !== segs.length) continue;
      const params: Record<string, string> = {};
      let ok = true;
      for (let i = 0; i < segs.length; i++) {
        const p = route.parts[i] as string;
        const s = segs[i] as string;
        if (p.startsWith(':')) {
          try {
            params[p.slice(1)] = decodeURIComponent(s);
          } catch {
            ok = false;
            break;
          }
        } else if (p !== s) {
          ok = false;
          break;
        }
      }
      if (!ok) continue;
      pathMatched = true;
      if (route.method === method || (method === 'HEAD' && route.method === 'GET')) return { route, params };
    }
    return pathMatched ? null : undefined;
  }
}
