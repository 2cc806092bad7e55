/**
 * The link back to a moment of a recording: `verbatim://recording/ID?t=SECONDS`. Markdown exports,
 * the notes folder and the MCP server's citations write it; the app opens it at that moment.
 */
const LINK = /^verbatim:\/\/recording\/([A-Za-z0-9_-]{1,80})\/?(?:\?t=(\d{1,7}(?:\.\d{1,3})?))?$/;

export function recordingLink(recordingId: string, ms?: number): string {
  const base = `verbatim://recording/${encodeURIComponent(recordingId)}`;
  return ms === undefined ? base : `${base}?t=${Math.max(0, Math.floor(ms / 1000))}`;
}

/** The recording and moment (ms) a link names, or null when it is not one of ours. */
export function parseRecordingLink(link: string): { recordingId: string; ms: number | null } | null {
  const m = LINK.exec(link.trim());
  if (!m) return null;
  return { recordingId: m[1]!, ms: m[2] === undefined ? null : Math.round(Number(m[2]) * 1000) };
}

/** mm:ss, or h:mm:ss from an hour on. */
export function clockOf(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  const h = Math.floor(s / 3600);
  const mm = String(Math.floor((s % 3600) / 60)).padStart(2, '0');
  const ss = String(s % 60).padStart(2, '0');
  return h ? `${h}:${mm}:${ss}` : `${mm}:${ss}`;
}
