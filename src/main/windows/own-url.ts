/** Whether a URL is the app's own page (the built index.html's exact file URL, no query, any #route; or the dev server's exact origin), and which links may open in the browser. No Electron here, so it is unit-tested. */
import { pathToFileURL } from 'node:url';

export interface RendererEntry {
  /** The dev server (ELECTRON_RENDERER_URL), when running under it. */
  url?: string;
  /** The built renderer's index.html, otherwise. */
  file?: string;
}

function parse(u: string): URL | null {
  try {
    return new URL(u);
  } catch {
    return null;
  }
}

/**
 * Parses `target` and compares it exactly: for the built app, protocol
 * file:, no host, no query and the very path of index.html (a hash route is
 * the app's own); for the dev server, the same origin (scheme, host and port).
 * Anything unparsable, a prefix, a look-alike folder or a `#/renderer/...`
 * trick is not ours.
 */
export function isOwnUrlFor(target: string, entry: RendererEntry): boolean {
  const t = parse(target);
  if (!t) return false;
  if (entry.url) {
    const own = parse(entry.url);
    return own !== null && (own.protocol === 'http:' || own.protocol === 'https:') && t.origin === own.origin && t.username === '' && t.password === '';
  }
  if (!entry.file) return false;
  const own = pathToFileURL(entry.file);
  return t.protocol === 'file:' && t.host === '' && t.search === '' && t.pathname === own.pathname;
}

/** The link as the system browser should get it: https only, no user or password in it, re-serialised by the URL parser; null for anything else. */
export function safeExternalUrl(url: string): string | null {
  const u = parse(url);
  if (!u || u.protocol !== 'https:' || u.username !== '' || u.password !== '' || u.hostname === '') return null;
  return u.href;
}
