/** The `warnings` text for a request's keyterms: what the local recognizer did with them. */
import type { KeytermReport } from './types';

const list = (ws: string[]): string => ws.map((w) => `"${w}"`).join(', ');

/** One sentence for `metadata.warnings` / the transcript's `warnings`, or null when there were no keyterms. */
export function keytermWarning(r: KeytermReport | null): string | null {
  if (!r) return 'keyterms_prompt is not used by this recognizer; the terms were ignored.';
  const parts: string[] = [];
  if (r.added.length) parts.push(`added ${list(r.added)} to its vocabulary (pronounced as the dictionary words that spell them)`);
  if (r.known.length) parts.push(`already knew ${list(r.known)} (it cannot weight known words further)`);
  if (r.skipped.length) parts.push(`could not add ${list(r.skipped)}: no pronunciation could be built for them, so they will not be recognized`);
  if (!parts.length) return null;
  return `keyterms_prompt: the local recognizer ${parts.join('; ')}.`;
}
