/**
 * What the command line and the MCP server ask of the library, read-only: search hits with the
 * speaker and the whole sentence, a transcript's speaker-labelled lines, the recordings, the people.
 * Every answer carries its citation: `title @ mm:ss` and the verbatim:// link to that moment.
 */
import type { Library } from '../services/library/library';
import { editedParagraphs } from '../services/library/exports';
import type { LibraryItem, Transcript } from '../../shared/library';
import { clockOf, recordingLink } from '../../shared/recording-link';

export interface Cited {
  recordingId: string;
  title: string;
  startMs: number;
  /** `title @ mm:ss` */
  cite: string;
  link: string;
}

export function cite(recordingId: string, title: string, startMs: number): Cited {
  return { recordingId, title, startMs, cite: `${title} @ ${clockOf(startMs)}`, link: recordingLink(recordingId, startMs) };
}

export interface Hit extends Cited {
  speaker: string | null;
  sentence: string;
  date: string;
}

export interface SearchInput {
  query: string;
  saidBy?: string;
  /** ISO dates, inclusive, on when the recording was made. */
  from?: string;
  to?: string;
  limit: number;
}

const same = (a: string, b: string) => a.localeCompare(b, undefined, { sensitivity: 'base' }) === 0;

/** Transcripts read once per call. */
class Reader {
  private readonly cache = new Map<string, Transcript | null>();
  constructor(private readonly library: Library) {}
  get(recordingId: string): Transcript | null {
    if (!this.cache.has(recordingId)) {
      let t: Transcript | null;
      try {
        t = this.library.transcripts.get(recordingId);
      } catch {
        t = null;
      }
      this.cache.set(recordingId, t);
    }
    return this.cache.get(recordingId)!;
  }
}

function speakerAt(t: Transcript, ms: number): { speaker: string | null; sentence: string } {
  const s = t.sentences.find((x) => x.start <= ms && ms <= x.end) ?? t.sentences.find((x) => x.start >= ms);
  const id = s?.speaker ?? null;
  const name = id === null ? null : (t.speakers.find((x) => x.id === id)?.name ?? `Speaker ${id}`);
  const text = s
    ? t.words
        .slice(s.firstWord, s.lastWord + 1)
        .map((w) => w.text)
        .join(' ') || s.text
    : '';
  return { speaker: name, sentence: text };
}

function inRange(date: string, from?: string, to?: string): boolean {
  const d = date.slice(0, 10);
  return (!from || d >= from.slice(0, 10)) && (!to || d <= to.slice(0, 10));
}

export function searchLibrary(library: Library, input: SearchInput): Hit[] {
  const reader = new Reader(library);
  const person = input.saidBy ? library.voices.people.list().find((p) => same(p.name, input.saidBy!)) : undefined;
  const filtered = input.saidBy !== undefined || input.from !== undefined || input.to !== undefined;
  const raw = library.search.search(input.query, { limit: filtered ? 1000 : input.limit, ...(person ? { voiceId: person.id } : {}) });
  const out: Hit[] = [];
  for (const h of raw) {
    const t = reader.get(h.recordingId);
    if (!t || !inRange(t.item.createdAt, input.from, input.to)) continue;
    const at = speakerAt(t, h.startMs);
    if (input.saidBy && !person && !(at.speaker && same(at.speaker, input.saidBy))) continue;
    out.push({
      ...cite(h.recordingId, h.title, h.startMs),
      speaker: at.speaker,
      sentence: at.sentence || h.snippet.map((p) => p.text).join(''),
      date: t.item.createdAt,
    });
    if (out.length >= input.limit) break;
  }
  return out;
}

export interface Line extends Cited {
  speaker: string | null;
  text: string;
}

/** A transcript's paragraphs as the user left them (names, corrections, edits), each cited, within [fromMs, toMs]. */
export function transcriptLines(library: Library, recordingId: string, fromMs = 0, toMs = Number.MAX_SAFE_INTEGER): { item: LibraryItem; lines: Line[] } {
  const t = library.transcripts.get(recordingId);
  const cues = t.cues ? library.subtitles.cues(recordingId, { transcriptId: t.transcriptId, words: t.words }).cues : [];
  const paras = t.paragraphs.length ? editedParagraphs(t, cues) : [{ speaker: null, start: t.words[0]?.start ?? 0, text: t.text }];
  const lines = paras
    .filter((p) => p.start >= fromMs && p.start <= toMs && p.text.trim())
    .map((p) => ({ ...cite(recordingId, t.item.title, p.start), speaker: p.speaker, text: p.text }));
  return { item: t.item, lines };
}

export function lineText(l: Line): string {
  return `[${clockOf(l.startMs)}] ${l.speaker ? `${l.speaker}: ` : ''}${l.text}`;
}
