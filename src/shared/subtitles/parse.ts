/**
 * A tolerant SRT / WebVTT parser for files people actually have: BOM, CRLF or
 * CR-only line ends, a missing final blank line, a timing line with no blank
 * line before it (it starts a new cue wherever it stands, as browsers read
 * WebVTT), comma or dot milliseconds, VTT times without hours, cue settings,
 * NOTE / STYLE / REGION blocks (kept, so a round trip loses nothing) and tags
 * and HTML character references (kept in the text; see display.ts for how
 * they are shown). WebVTT follows the WHATWG parser where a browser would
 * read the file differently: NUL becomes U+FFFD, one byte-order mark is
 * dropped (a second one means the file is not WebVTT), a cue's identifier
 * keeps its spaces, and any line holding "-->" ends the cue above it, so a
 * broken timing line takes its lines out with it as players leave them out.
 * A cue that cannot be read is reported with its line number, never dropped
 * silently; what was fixed up on the way is said in `fixes`.
 */
import { hasAssTags, hasEntities } from './display';
import type { Cue, CueDoc, ParseProblem } from './types';

export interface ParsedSubtitles {
  format: 'srt' | 'vtt';
  doc: CueDoc;
  problems: ParseProblem[];
  /** What was read leniently, one sentence each, for the import summary. */
  fixes: string[];
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
  timed: boolean;
  /** Started by a "-->" line with no blank line before it. */
  cut?: boolean;
}

/** A line that is a whole, valid timing line (start --> end, settings after). */
function isTimingLine(l: string): boolean {
  const at = l.indexOf('-->');
  if (at < 0) return false;
  return (
    parseTime(l.slice(0, at)) !== null &&
    parseTime(
      l
        .slice(at + 3)
        .trim()
        .split(/\s+/)[0] ?? '',
    ) !== null
  );
}

/**
 * Blocks between blank lines. SRT: a valid timing line also starts one when
 * its block already has a timing line, and the cue number just above it goes
 * with it. WebVTT, as the WHATWG parser collects a block: a line holding
 * "-->" is the block's timing line when it is the first line, or the second
 * after an identifier; anywhere else (the header included) it starts a new
 * block, valid or not.
 */
function blocksOf(lines: readonly string[], format: 'srt' | 'vtt'): { blocks: Block[]; splits: number } {
  const blocks: Block[] = [];
  let cur: Block | null = null;
  let splits = 0;
  lines.forEach((l, i) => {
    if (l.trim() === '') {
      cur = null;
      return;
    }
    const arrow = format === 'vtt' ? l.includes('-->') : isTimingLine(l);
    if (cur && arrow && (cur.timed || (format === 'vtt' && (blocks.length === 1 || cur.lines.length >= 2)))) {
      const carry = format === 'srt' && cur.lines.length > 2 && /^\d+$/.test(cur.lines[cur.lines.length - 1]!.trim()) ? [cur.lines.pop()!] : [];
      cur = { line: i + 1 - carry.length, lines: carry, timed: false, cut: true };
      blocks.push(cur);
      // A broken timing line is reported as such; only a good one is a fix-up.
      if (format === 'srt' || isTimingLine(l)) splits++;
    }
    if (!cur) {
      cur = { line: i + 1, lines: [], timed: false };
      blocks.push(cur);
    }
    cur.lines.push(l);
    if (arrow) cur.timed = true;
  });
  return { blocks, splits };
}

/** The text as the parser reads it: one byte-order mark dropped, NUL as U+FFFD, every line end as LF. */
function linesOf(text: string): string[] {
  return text
    .replace(/^\uFEFF/, '')
    .replace(/\0/g, '\uFFFD')
    .replace(/\r\n?/g, '\n')
    .split('\n');
}

/** WebVTT when, after one byte-order mark, the text starts with the WEBVTT signature (a second mark breaks it, as in browsers). */
export function detectFormat(text: string): 'srt' | 'vtt' {
  return /^\uFEFF?WEBVTT(?:[ \t][^\r\n]*)?(?:\r\n|\r|\n|$)/.test(text) ? 'vtt' : 'srt';
}

export function parseSubtitles(text: string): ParsedSubtitles {
  const format = detectFormat(text);
  const { blocks, splits } = blocksOf(linesOf(text), format);
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
    if (at < 0 && bi === 0 && b.lines[0]!.startsWith('\uFEFFWEBVTT')) {
      problems.push({
        line: 1,
        message:
          'Line 1: the file starts with two byte-order marks, so players do not read it as WebVTT (they show none of its cues). Its cues were read as plain timed text; export it to write a clean file.',
      });
      return;
    }
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
    if ((start === null || end === null) && format === 'vtt' && b.cut) {
      problems.push({
        line,
        message: `Line ${line}: “${timing.trim().slice(0, 60)}” holds “-->”, which ends the cue above it in WebVTT; players skip it and the lines under it up to the next blank line, and so did the import.`,
      });
      return;
    }
    if (start === null || end === null) {
      problems.push({ line, message: `Line ${line}: “${timing.trim().slice(0, 60)}” is not a valid time range (like 00:00:01,000 --> 00:00:02,500).` });
      return;
    }
    if (end < start) {
      problems.push({ line, message: `Line ${line}: the cue ends (${rest[0]}) before it starts (${(left ?? '').trim()}).` });
      return;
    }
    const cue: Cue = { start, end, text: b.lines.slice(at + 1).join('\n') };
    // WebVTT keeps the identifier line as it stands, spaces included (SRT's cue number is not kept).
    const ident = at === 1 ? b.lines[0]! : '';
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
  const fixes: string[] = [];
  if (text.includes('\0')) fixes.push('Its NUL characters were replaced with \uFFFD, as players show them.');
  if (/\r(?!\n)/.test(text) && !text.includes('\n')) fixes.push('Its old Mac line ends (CR only) were read as line breaks.');
  if (splits === 1) fixes.push('A timing line with no blank line before it started a new cue.');
  if (splits > 1) fixes.push(`${splits} timing lines with no blank line before them started new cues.`);
  if (doc.cues.some((c) => hasEntities(c.text))) fixes.push('HTML entities such as &amp; are shown as the characters they stand for; the file’s text is kept.');
  if (doc.cues.some((c) => hasAssTags(c.text))) fixes.push('ASS tags such as {\\an8} are hidden when shown and kept in the file.');
  return { format, doc, problems, fixes };
}
