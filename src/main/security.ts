/** The Content-Security-Policy of every page Verbatim shows, in both modes (one source: src/shared/csp.ts). */
export { CONTENT_SECURITY_POLICY } from '../shared/csp';
