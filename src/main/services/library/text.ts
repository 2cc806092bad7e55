/**
 * Pure text helpers of the library: compact word storage, spans (sentences,
 * paragraphs) from words, cues for subtitles, SRT/VTT/TXT rendering, and the
 * FTS5 query built from what the user typed.
 */
import { gunzipSync, gzipSync } from 'node:zlib';
import type { Span, Word } from '../../../shared/library';
import type { WordColumns } from '../../../shared/transcript-wire';

/** Words stored column-wise and gzipped: ~6 bytes a word instead of ~80 as JSON objects. */
export function packWords(words: Word[]): Buffer {
  const cols = {
    t: words.map((w) => w.text),
    s: words.map((w) => w.start),
    e: words.map((w) => w.end),
    c: words.map((w) => Math.round(w.confidence * 1000)),
    p: words.some((w) => w.speaker !== null) ? words.map((w) => w.speaker) : null,
  };
  return gzipSync(JSON.stringify(cols), { level: 6 });
}

type StoredColumns = { t: string[]; s: number[]; e: number[]; c: number[]; p: (string | null)[] | null };

export function unpackWords(blob: Buffer): Word[] {
  const cols = JSON.parse(gunzipSync(blob).toString('utf8')) as StoredColumns;
  return cols.t.map((text, i) => ({
    text,
    start: cols.s[i] ?? 0,
    end: cols.e[i] ?? 0,
    confidence: (cols.c[i] ?? 0) / 1000,
    speaker: cols.p?.[i] ?? null,
  }));
}

/** The stored words as the bridge carries them (transcript-wire.ts), without making an object per word; corrections are the caller's. */
export function wordColumns(blob: Buffer): Omit<WordColumns, 'original'> {
  const cols = JSON.parse(gunzipSync(blob).toString('utf8')) as StoredColumns;
  return { text: cols.t, start: cols.s, end: cols.e, confidence: cols.c.map((c) => c / 1000), speaker: cols.p ?? new Array<null>(cols.t.length).fill(null) };
}

const SENTENCE_END = /[.?!…]["')\]]*$/;

/** Sentences from words: ends at final punctuation, a speaker change, or a long pause. */
export function sentencesFromWords(words: Word[]): Span[] {
  const out: Span[] = [];
  let first = 0;
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    const next = words[i + 1];
    const end = next === undefined || SENTENCE_END.test(w.text) || next.speaker !== w.speaker || next.start - w.end > 1500 || i - first >= 60;
    if (end) {
      out.push(span(words, first, i));
      first = i + 1;
    }
  }
  return out;
}

/** Paragraphs from sentences: a speaker change, a pause over 2 s, or ~6 sentences. */
export function paragraphsFromSentences(words: Word[], sentences: Span[]): Span[] {
  const out: Span[] = [];
  let start: Span | undefined;
  let count = 0;
  for (let i = 0; i < sentences.length; i++) {
    const s = sentences[i]!;
    start ??= s;
    count++;
    const next = sentences[i + 1];
    if (next === undefined || next.speaker !== s.speaker || next.start - s.end > 2000 || count >= 6) {
      out.push(span(words, start.firstWord, s.lastWord));
      start = undefined;
      count = 0;
    }
  }
  return out;
}

export function span(words: Word[], first: number, last: number): Span {
  const slice = words.slice(first, last + 1);
  return {
    text: slice.map((w) => w.text).join(' '),
    start: slice[0]?.start ?? 0,
    end: slice[slice.length - 1]?.end ?? 0,
    firstWord: first,
    lastWord: last,
    speaker: slice[0]?.speaker ?? null,
  };
}

/** Map the service's sentence/paragraph view (each with its words) onto word indexes. */
export function spansFromView(words: Word[], view: { text: string; start: number; end: number; words: unknown[] }[]): Span[] | null {
  let cursor = 0;
  const out: Span[] = [];
  for (const v of view) {
    const n = v.words.length;
    if (n === 0) continue;
    const first = cursor;
    const last = cursor + n - 1;
    if (last >= words.length) return null;
    out.push({ text: v.text, start: v.start, end: v.end, firstWord: first, lastWord: last, speaker: words[first]?.speaker ?? null });
    cursor += n;
  }
  return cursor === words.length ? out : null;
}

/**
 * An FTS5 MATCH expression from free text: "quoted phrases" stay phrases,
 * other words are terms, and the last word (3+ letters) is a prefix (search
 * as you type: "transcr" finds "transcription"); everything is quoted so no user input is
 * read as FTS syntax. Returns null when nothing searchable is left.
 */
export function ftsQuery(input: string): string | null {
  const parts: string[] = [];
  let lastIsWord = false;
  const re = /"([^"]*)"?|(\S+)/g;
  for (const m of input.matchAll(re)) {
    if (m[1] !== undefined) {
      const words = tokens(m[1]);
      if (words.length) parts.push(`"${words.join(' ')}"`);
      lastIsWord = false;
    } else if (m[2] !== undefined) {
      const ts = tokens(m[2]);
      for (const t of ts) parts.push(`"${t}"`);
      if (ts.length) lastIsWord = true;
    }
  }
  // One or two letters as a prefix match a large share of all words: wait for a third.
  if (parts.length && lastIsWord && (parts[parts.length - 1]?.length ?? 0) >= 5) parts[parts.length - 1] += '*';
  return parts.length ? parts.join(' ') : null;
}

function tokens(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((t) => t.length > 0);
}

export const SNIPPET_OPEN = '\u0001';
export const SNIPPET_CLOSE = '\u0002';

export function snippetParts(snippet: string): { text: string; match: boolean }[] {
  const parts: { text: string; match: boolean }[] = [];
  const re = new RegExp(`${SNIPPET_OPEN}([^${SNIPPET_CLOSE}]*)${SNIPPET_CLOSE}`, 'g');
  let last = 0;
  for (const m of snippet.matchAll(re)) {
    if (m.index > last) parts.push({ text: snippet.slice(last, m.index), match: false });
    parts.push({ text: m[1] ?? '', match: true });
    last = m.index + m[0].length;
  }
  if (last < snippet.length) parts.push({ text: snippet.slice(last), match: false });
  // A cut through a marked phrase leaves a lone marker: drop it.
  const stray = new RegExp(`[${SNIPPET_OPEN}${SNIPPET_CLOSE}]`, 'g');
  return parts.map((p) => ({ ...p, text: p.text.replace(stray, '') })).filter((p) => p.text.length > 0);
}

/** A span as stored: its words' range and times; the text is rebuilt from the words when read. */
export type StoredSpan = Omit<Span, 'text'>;

export function stripSpan(s: Span): StoredSpan {
  return { start: s.start, end: s.end, firstWord: s.firstWord, lastWord: s.lastWord, speaker: s.speaker };
}

export function expandSpans(words: Word[], spans: StoredSpan[]): Span[] {
  return spans.map((s) => ({ ...span(words, s.firstWord, s.lastWord), start: s.start, end: s.end, speaker: s.speaker }));
}
