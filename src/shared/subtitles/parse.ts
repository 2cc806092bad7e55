/**
 * A tolerant SRT / WebVTT parser for files people actually have: BOM, CRLF or
 * CR line ends, a missing final blank line, comma or dot milliseconds, VTT
 * times without hours, cue settings, NOTE / STYLE / REGION blocks (kept, so a
 * round trip loses nothing) and simple tags (kept in the text). A cue that
 * cannot be read is reported with its line number, never dropped silently.
 */
import type { Cue, CueDoc, ParseProblem } from './types';

export interface ParsedSubtitles {
  format: 'srt' | 'vtt';
  doc: CueDoc;
  problems: ParseProblem[];
}

const TIME = /^(?:(\d{1,3}):)?(\d{1,2}):(\d{1,2})(?:[,.:](\d{1,3}))?$/;

/** Milliseconds of `01:02:03,004`, `02:03.004`, `1:02:03.4`; null when it is not a time. */
export function parseTime(s: string): number | null {
  const m = TIME.exec(s.trim());
  if (!m) return null;
  const [, h, mi, se, ms] = m;
  if (Number(se) > 59 || (h !== undefined && Number(mi) > 59)) return null;
  return Number(h ?? 0) * 3_600_000 + Number(mi) * 60_000 + Number(se) * 1000 + Number((ms ?? '0').padEnd(3, '0'));
}

interface Block {
  line: number;
  lines: string[];
}

function blocksOf(text: string): Block[] {
  const lines = text
    .replace(/^\uFEFF/, '')
    .replace(/\r\n?/g, '\n')
    .split('\n');
  const blocks: Block[] = [];
  let cur: Block | null = null;
  lines.forEach((l, i) => {
    if (l.trim() === '') {
      cur = null;
      return;
    }
    if (!cur) {
      cur = { line: i + 1, lines: [] };
      blocks.push(cur);
    }
    cur.lines.push(l);
  });
  return blocks;
}

export function detectFormat(text: string): 'srt' | 'vtt' {
  return /^\uFEFF?WEBVTT(?:[ \t].*)?(?:\r?\n|$)/.test(text) ? 'vtt' : 'srt';
}

export function parseSubtitles(text: string): ParsedSubtitles {
  const format = detectFormat(text);
  const blocks = blocksOf(text);
  const doc: CueDoc = { cues: [], header: [], trailer: [] };
  const problems: ParseProblem[] = [];
  let notes: string[] = [];
  blocks.forEach((b, bi) => {
    const raw = b.lines.join('\n');
    if (format === 'vtt') {
      if (bi === 0) {
        doc.header.push(raw);
        return;
      }
      if (/^NOTE(?:\s|$)/.test(b.lines[0]!)) {
        if (doc.cues.length === 0) doc.header.push(raw);
        else notes.push(raw);
        return;
      }
      if (/^(STYLE|REGION)\s*$/.test(b.lines[0]!)) {
        if (doc.cues.length === 0) doc.header.push(raw);
        else
          problems.push({
            line: b.line,
            message: `Line ${b.line}: a ${b.lines[0]!.trim()} block after the first cue is not allowed in WebVTT; it was kept before the cues.`,
          });
        if (doc.cues.length) doc.header.push(raw);
        return;
      }
    }
    const at = b.lines.findIndex((l) => l.includes('-->'));
    if (at < 0) {
      problems.push({ line: b.line, message: `Line ${b.line}: “${b.lines[0]!.slice(0, 40)}” has no timing line (start --> end), so it is not a cue.` });
      return;
    }
    if (at > 1) {
      problems.push({ line: b.line, message: `Line ${b.line}: text before the timing line on line ${b.line + at}.` });
      return;
    }
    const timing = b.lines[at]!;
    const [left, right = ''] = timing.split('-->');
    const rest = right.trim().split(/\s+/);
    const start = parseTime(left ?? '');
    const end = parseTime(rest[0] ?? '');
    const line = b.line + at;
    if (start === null || end === null) {
      problems.push({ line, message: `Line ${line}: “${timing.trim().slice(0, 60)}” is not a valid time range (like 00:00:01,000 --> 00:00:02,500).` });
      return;
    }
    if (end < start) {
      problems.push({ line, message: `Line ${line}: the cue ends (${rest[0]}) before it starts (${(left ?? '').trim()}).` });
      return;
    }
    const cue: Cue = { start, end, text: b.lines.slice(at + 1).join('\n') };
    const ident = at === 1 ? b.lines[0]!.trim() : '';
    if (format === 'vtt') {
      if (ident) cue.ident = ident;
      const settings = rest.slice(1).join(' ');
      if (settings) cue.settings = settings;
      if (notes.length) cue.notes = notes;
    }
    notes = [];
    doc.cues.push(cue);
  });
  if (notes.length) doc.trailer = notes;
  if (format === 'vtt' && doc.header.length === 0) doc.header.push('WEBVTT');
  return { format, doc, problems };
}
