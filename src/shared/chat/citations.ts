/**
 * Citations in chat answers: the `[Title @ mm:ss]` form the prompts ask for,
 * found in an answer and mapped to the recording and moment they name. Main
 * stores what it found with the message; the renderer turns each into a link.
 */

/** A recording a prompt quoted, under the label its passages carried. */
export interface CitationSource {
  recordingId: string;
  label: string;
}

export interface FoundCitation {
  recordingId: string;
  label: string;
  atMs: number;
  /** Where the bracket starts in the text, and its length. */
  index: number;
  length: number;
}

/** mm:ss under an hour, h:mm:ss from there. */
export function clockLabel(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  const h = Math.floor(s / 3600);
  const mm = String(Math.floor((s % 3600) / 60)).padStart(2, '0');
  const ss = String(s % 60).padStart(2, '0');
  return h ? `${h}:${mm}:${ss}` : `${mm}:${ss}`;
}

/** "01:02" or "1:02:03" → ms; null when it is not a clock. */
export function parseClock(text: string): number | null {
  const m = /^(?:(\d{1,3}):)?(\d{1,3}):(\d{2})$/.exec(text.trim());
  if (!m) return null;
  const [h, mm, ss] = [Number(m[1] ?? 0), Number(m[2]), Number(m[3])];
  if (ss > 59 || (m[1] !== undefined && mm > 59)) return null;
  return ((h * 60 + mm) * 60 + ss) * 1000;
}

/**
 * A title as a citation label: no brackets, @, sentence punctuation or line
 * breaks (models copy labels back, and the offline model splits its passages
 * at . ! ?), at most 80 characters.
 */
export function labelOf(title: string): string {
  const clean = title
    .replace(/[[\]@.!?\n\r\t]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 80)
    .trim();
  return clean || 'Recording';
}

/** Labels for the recordings of one prompt, unique (a second “Standup” becomes “Standup (2)”). */
export function labelSources(recordings: { id: string; title: string }[]): CitationSource[] {
  const used = new Map<string, number>();
  return recordings.map((r) => {
    const base = labelOf(r.title);
    const n = (used.get(base.toLowerCase()) ?? 0) + 1;
    used.set(base.toLowerCase(), n);
    return { recordingId: r.id, label: n === 1 ? base : `${base} (${n})` };
  });
}

// [Label @ 01:02], [Label @ 1:02:03], and the offline model's [01:02] (one recording) forms.
const CITATION = /\[(?:([^[\]@\n]{1,120}?)\s*@\s*)?(\d{1,3}:\d{2}(?::\d{2})?)(?:\s+in\s+[^[\]\n]{1,120})?\]/g;

function norm(s: string): string {
  return s
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/**
 * Every citation in `text` that names one of `sources` (by label, ignoring case
 * and punctuation); a bare `[mm:ss]` counts when there is exactly one source.
 * Brackets that are part of a Markdown link are left alone.
 */
export function findCitations(text: string, sources: CitationSource[]): FoundCitation[] {
  const byLabel = new Map(sources.map((s) => [norm(s.label), s]));
  const out: FoundCitation[] = [];
  for (const m of text.matchAll(CITATION)) {
    const at = parseClock(m[2] ?? '');
    if (at === null || m.index === undefined) continue;
    if (text[m.index + m[0].length] === '(') continue;
    let source: CitationSource | undefined;
    if (m[1] !== undefined) {
      const key = norm(m[1]);
      source = byLabel.get(key) ?? sources.find((s) => norm(s.label).startsWith(key) || key.startsWith(norm(s.label)));
    } else if (sources.length === 1) source = sources[0];
    if (!source) continue;
    out.push({ recordingId: source.recordingId, label: source.label, atMs: at, index: m.index, length: m[0].length });
  }
  return out;
}

/** A passage a prompt gave the model: its recording and the moment its line was labelled with. */
export interface GivenPassage {
  recordingId: string;
  startMs: number;
}

/**
 * The citations that point at a passage the model was given (same recording,
 * same second as the passage's label), and the answer with every other one
 * (an invented moment, or a recording the prompt did not name) taken out, so
 * an invented citation is never shown, let alone as a link.
 */
export function checkCitations(text: string, sources: CitationSource[], given: GivenPassage[]): { text: string; citations: FoundCitation[]; dropped: number } {
  const seconds = new Set(given.map((p) => `${p.recordingId}\u0000${Math.floor(p.startMs / 1000)}`));
  const found = findCitations(text, sources);
  const kept = new Set(found.filter((c) => seconds.has(`${c.recordingId}\u0000${Math.floor(c.atMs / 1000)}`)));
  let out = '';
  let at = 0;
  const citations: FoundCitation[] = [];
  let dropped = 0;
  // Unknown labels and impossible clocks are not citations to findCitations; they are dropped here too.
  for (const m of text.matchAll(CITATION)) {
    if (m.index === undefined || text[m.index + m[0].length] === '(') continue;
    const c = found.find((f) => f.index === m.index);
    out += text.slice(at, m.index);
    at = m.index + m[0].length;
    if (c && kept.has(c)) {
      citations.push({ ...c, index: out.length });
      out += m[0];
    } else {
      dropped++;
      // "said [X @ 01:02]." loses the bracket and the space before it.
      if (out.endsWith(' ')) out = out.slice(0, -1);
    }
  }
  return { text: out + text.slice(at), citations, dropped };
}

/** The href a citation link carries: `#cite/<recording id>/<ms>`. */
export function citationHref(recordingId: string, atMs: number): string {
  return `#cite/${encodeURIComponent(recordingId)}/${Math.max(0, Math.round(atMs))}`;
}

export function parseCitationHref(href: string): { recordingId: string; atMs: number } | null {
  const m = /^#cite\/([^/]+)\/(\d+)$/.exec(href);
  if (!m) return null;
  try {
    return { recordingId: decodeURIComponent(m[1] as string), atMs: Number(m[2]) };
  } catch {
    return null;
  }
}

/**
 * The answer with each citation made a Markdown link to its moment. The link
 * reads "Title @ mm:ss" when `titleOf` names the recording (prompts may label
 * recordings #1, #2 or not at all), else the citation as written.
 */
export function linkCitations(
  text: string,
  citations: Pick<FoundCitation, 'recordingId' | 'atMs' | 'index' | 'length'>[],
  titleOf: (recordingId: string) => string | undefined = () => undefined,
): string {
  let out = '';
  let at = 0;
  for (const c of [...citations].sort((a, b) => a.index - b.index)) {
    if (c.index < at || c.index + c.length > text.length) continue;
    const title = titleOf(c.recordingId);
    const inner = (title ? `${labelOf(title)} @ ${clockLabel(c.atMs)}` : text.slice(c.index + 1, c.index + c.length - 1)).replace(/[[\]]/g, '');
    out += `${text.slice(at, c.index)}[${inner}](${citationHref(c.recordingId, c.atMs)})`;
    at = c.index + c.length;
  }
  return out + text.slice(at);
}
