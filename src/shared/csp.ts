/**
 * The one Content-Security-Policy of every page Verbatim shows: sent as a
 * header by Electron's session and by host mode, and written into the
 * renderer's index.html `<meta>` at build time (a `file://` load in the
 * packaged app gets only the meta tag).
 */
const DIRECTIVES = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "media-src 'self' blob: verbatim-media:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
  "form-action 'none'",
];

/** The header form. */
export const CONTENT_SECURITY_POLICY = DIRECTIVES.join('; ');

/** The `<meta>` form: the same policy without `frame-ancestors`, which browsers ignore in a meta tag (and warn about). */
export const META_CONTENT_SECURITY_POLICY = DIRECTIVES.filter((d) => !d.startsWith('frame-ancestors')).join('; ');

/** The placeholder in src/renderer/index.html that the build replaces with the meta form. */
export const CSP_PLACEHOLDER = '__VERBATIM_CSP__';
