/** Long error messages (a service's or ffmpeg's) split into what to read first and the detail behind "Details". */

export interface SplitMessage {
  summary: string;
  detail: string | null;
}

/** The first sentence, and the rest; a short message stays whole. */
export function splitMessage(message: string, short = 90): SplitMessage {
  const text = message.trim();
  if (text.length <= short) return { summary: text, detail: null };
  const m = /^(.+?[.!?])\s+(\S[\s\S]*)$/.exec(text);
  if (m && m[1] && m[2]) return { summary: m[1], detail: m[2] };
  // One long sentence: cut at a colon or parenthesis where the technical part usually starts.
  const cut = text.search(/ \(|: /);
  if (cut > 20) return { summary: `${text.slice(0, cut)}.`, detail: text.slice(cut).replace(/^:\s*/, '').trim() };
  return { summary: text, detail: null };
}
