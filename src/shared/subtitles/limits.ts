/**
 * The limits a stored subtitle document must keep (the same as the IPC
 * output schema in schema.ts), and the repairs that bring an imported or
 * already-stored cue within them: nothing is stored that cannot be read back.
 */
import type { Cue } from './types';

export const CUE_LIMITS = {
  /** Cues in one document (a splice's contract). */
  cues: 200_000,
  textChars: 2000,
  /** 100 h in milliseconds. */
  maxMs: 360_000_000,
  speakerChars: 100,
  identChars: 500,
  settingsChars: 500,
  notes: 50,
  noteChars: 20_000,
  /** A line of an imported file longer than this cannot be any of the above: it is cut before parsing. */
  lineChars: 20_000,
  /** Header and trailer blocks, as an edit stores them. */
  blocks: 100,
  blockChars: 100_000,
  /** A subtitle file's text sent inline (subtitles.importNew `content`, replaceFrom); a bigger file is sent as a file, which main reads off its event loop. */
  inlineChars: 2_000_000,
} as const;

const L = CUE_LIMITS;

function cut(s: string | undefined | null, n: number): string | undefined | null {
  return typeof s === 'string' && s.length > n ? s.slice(0, n) : s;
}

function ms(v: unknown): number {
  return typeof v === 'number' && Number.isFinite(v) ? Math.max(0, Math.round(v)) : 0;
}

/**
 * The cue within the limits: text and fields cut to their lengths, times
 * whole, non-negative and ending by 100 h; null when it starts at or after
 * 100 h (there is no time left to show it). The same object when it fits.
 */
export function fitCue(c: Cue): Cue | null {
  const start = ms(c.start);
  if (start >= L.maxMs) return null;
  const end = Math.min(L.maxMs, Math.max(start, ms(c.end)));
  const text = typeof c.text === 'string' ? c.text : String(c.text ?? '');
  const notes = Array.isArray(c.notes) ? c.notes.slice(0, L.notes).map((n) => cut(String(n), L.noteChars) as string) : c.notes;
  const fits =
    start === c.start &&
    end === c.end &&
    text === c.text &&
    text.length <= L.textChars &&
    (c.speaker ?? '').length <= L.speakerChars &&
    (c.ident ?? '').length <= L.identChars &&
    (c.settings ?? '').length <= L.settingsChars &&
    (!Array.isArray(c.notes) || (c.notes.length <= L.notes && c.notes.every((n) => typeof n === 'string' && n.length <= L.noteChars)));
  if (fits) return c;
  const out: Cue = { ...c, start, end, text: cut(text, L.textChars) as string };
  if (c.speaker !== undefined) out.speaker = cut(c.speaker, L.speakerChars);
  if (c.ident !== undefined) out.ident = cut(c.ident, L.identChars) as string;
  if (c.settings !== undefined) out.settings = cut(c.settings, L.settingsChars) as string;
  if (c.notes !== undefined) out.notes = notes;
  return out;
}

/** Every cue fitted (those past 100 h left out), with what was changed in words a user can act on. */
export function fitCues(cues: readonly Cue[]): { cues: Cue[]; changed: number; dropped: number; messages: string[] } {
  const out: Cue[] = [];
  let changed = 0;
  let dropped = 0;
  const messages: string[] = [];
  for (let i = 0; i < cues.length; i++) {
    const c = cues[i]!;
    const f = fitCue(c);
    if (f === null) {
      dropped++;
      if (messages.length < 20) messages.push(`Cue ${i + 1} starts at or after 100 hours, the longest time Verbatim keeps; it was left out.`);
      continue;
    }
    if (f !== c) {
      changed++;
      if (messages.length < 20)
        messages.push(
          c.text.length > L.textChars
            ? `Cue ${i + 1} has ${c.text.length.toLocaleString('en')} characters; it was cut to ${L.textChars.toLocaleString('en')}.`
            : `Cue ${i + 1} had times or fields out of range (times end by 100 hours); they were brought within range.`,
        );
    }
    out.push(f);
  }
  if (changed + dropped > messages.length) messages.push(`${changed + dropped - messages.length} more cues were changed or left out the same way.`);
  return { cues: out, changed, dropped, messages };
}

/** Header or trailer blocks as commit accepts them: at most 100, each cut to 100,000 characters. */
export function fitBlocks(blocks: readonly string[]): string[] {
  return blocks.slice(0, L.blocks).map((b) => (b.length > L.blockChars ? b.slice(0, L.blockChars) : b));
}

/**
 * Lines longer than CUE_LIMITS.lineChars cut to it, in one pass with
 * indexOf (a 10 MB single line takes milliseconds), and where it happened.
 */
export function cutLongLines(content: string): { content: string; cut: { line: number; chars: number }[] } {
  const cutAt: { line: number; chars: number }[] = [];
  const parts: string[] = [];
  let from = 0;
  let line = 1;
  let last = 0;
  // A line ends at LF, CR or CRLF, as the parser reads it: a file whose lines end in CR alone is many lines, not one.
  let lf = content.indexOf('\n');
  let cr = content.indexOf('\r');
  while (from <= content.length) {
    if (lf >= 0 && lf < from) lf = content.indexOf('\n', from);
    if (cr >= 0 && cr < from) cr = content.indexOf('\r', from);
    const nl = Math.min(lf < 0 ? content.length : lf, cr < 0 ? content.length : cr);
    if (nl - from > L.lineChars) {
      cutAt.push({ line, chars: nl - from });
      parts.push(content.slice(last, from + L.lineChars));
      last = nl;
    }
    from = nl + (content[nl] === '\r' && content[nl + 1] === '\n' ? 2 : 1);
    line++;
  }
  if (!cutAt.length) return { content, cut: [] };
  parts.push(content.slice(last));
  return { content: parts.join(''), cut: cutAt };
}
