/**
 * Captions: cue building from timed words, SRT/VTT serialize and parse, and
 * cue edits (split, merge, shift). Used by the engine's /srt and /vtt and by
 * the app's subtitle editor. Pure TypeScript.
 */

export interface TimedWord {
  text: string;
  start: number;
  end: number;
  /** Diarised speaker ("A", "B", …), when known. */
  speaker?: string | null;
}

export interface Cue {
  /** Milliseconds. */
  start: number;
  end: number;
  text: string;
}

export interface CueOptions {
  /** Longest caption in characters (default 80 — about two lines of 40). */
  charsPerCaption?: number;
  /** A pause at least this long starts a new cue (ms, default 1000). */
  pauseMs?: number;
  /** Longest cue duration (ms, default 7000). */
  maxDurationMs?: number;
  /**
   * With speakers: a cue never spans two of them, and a cue whose speaker
   * differs from the previous cue's opens with "<label>: " (the user's name
   * for them, or "Speaker A"). Without it, speakers are ignored.
   */
  speakerLabel?: (speaker: string) => string;
}

/** Groups words into cues of at most `charsPerCaption` characters, breaking after sentence ends and at pauses. */
export function buildCues(words: readonly TimedWord[], opts: CueOptions = {}): Cue[] {
  const maxChars = Math.max(1, opts.charsPerCaption ?? 80);
  const pause = opts.pauseMs ?? 1000;
  const maxDur = opts.maxDurationMs ?? 7000;
  const label = opts.speakerLabel;
  const cues: Cue[] = [];
  let cur: TimedWord[] = [];
  let len = 0;
  let lastSpeaker: string | null = null;
  const flush = (): void => {
    if (!cur.length) return;
    const speaker = label ? (cur[0]!.speaker ?? null) : null;
    const text = cur.map((w) => w.text).join(' ');
    const prefix = speaker !== null && speaker !== lastSpeaker ? `${label!(speaker)}: ` : '';
    cues.push({ start: cur[0]!.start, end: cur[cur.length - 1]!.end, text: prefix + text });
    lastSpeaker = speaker;
    cur = [];
    len = 0;
  };
  for (const w of words) {
    const prev = cur[cur.length - 1];
    const added = (cur.length ? 1 : 0) + w.text.length;
    const turn = label !== undefined && prev !== undefined && (prev.speaker ?? null) !== (w.speaker ?? null);
    if (prev && (turn || len + added > maxChars || w.start - prev.end >= pause || w.end - cur[0]!.start > maxDur)) flush();
    cur.push(w);
    len += (cur.length > 1 ? 1 : 0) + w.text.length;
    // End a cue after a sentence end when it is already half full.
    if (/[.?!]$/.test(w.text) && len >= maxChars / 2) flush();
  }
  flush();
  return cues;
}

function pad(n: number, width = 2): string {
  return String(Math.floor(n)).padStart(width, '0');
}

/** `00:00:00,320` */
export function srtTime(ms: number): string {
  const t = Math.max(0, Math.round(ms));
  return `${pad(t / 3_600_000)}:${pad((t / 60_000) % 60)}:${pad((t / 1000) % 60)},${pad(t % 1000, 3)}`;
}

/** `00:00.320`, or `01:00:00.320` when hours are needed. */
export function vttTime(ms: number): string {
  const t = Math.max(0, Math.round(ms));
  const h = Math.floor(t / 3_600_000);
  const rest = `${pad((t / 60_000) % 60)}:${pad((t / 1000) % 60)}.${pad(t % 1000, 3)}`;
  return h > 0 ? `${pad(h)}:${rest}` : rest;
}

export function toSrt(cues: readonly Cue[]): string {
  return cues.map((c, i) => `${i + 1}\n${srtTime(c.start)} --> ${srtTime(c.end)}\n${c.text}\n\n`).join('');
}

export function toVtt(cues: readonly Cue[]): string {
  return `WEBVTT\n\n${cues.map((c) => `${vttTime(c.start)} --> ${vttTime(c.end)}\n${c.text}\n\n`).join('')}`;
}

function parseTime(s: string): number | null {
  const m = /^(?:(\d+):)?(\d{1,2}):(\d{2})[,.](\d{1,3})$/.exec(s.trim());
  if (!m) return null;
  const [, h, mi, se, ms] = m;
  return Number(h ?? 0) * 3_600_000 + Number(mi) * 60_000 + Number(se) * 1000 + Number((ms ?? '0').padEnd(3, '0'));
}

/** Parses SRT or WebVTT text into cues (cue settings, notes and styles are dropped). */
export function parseCaptions(text: string): Cue[] {
  const blocks = text.replace(/\r\n?/g, '\n').replace(/^\uFEFF/, '').split(/\n{2,}/);
  const cues: Cue[] = [];
  for (const block of blocks) {
    const lines = block.split('\n').filter((l) => l.length);
    const at = lines.findIndex((l) => l.includes('-->'));
    if (at < 0) continue;
    const [a, b] = (lines[at] as string).split('-->');
    const start = parseTime(a ?? '');
    const end = parseTime((b ?? '').trim().split(/\s+/)[0] ?? '');
    if (start === null || end === null) continue;
    cues.push({ start, end, text: lines.slice(at + 1).join('\n') });
  }
  return cues;
}

/** Splits a cue at a character index (word boundary nearest), timing by character share. */
export function splitCue(cue: Cue, at: number): [Cue, Cue] {
  const i = Math.max(1, Math.min(cue.text.length - 1, at));
  const left = cue.text.slice(0, i).trimEnd();
  const right = cue.text.slice(i).trimStart();
  const mid = Math.round(cue.start + ((cue.end - cue.start) * left.length) / Math.max(1, left.length + right.length));
  return [
    { start: cue.start, end: mid, text: left },
    { start: mid, end: cue.end, text: right },
  ];
}

export function mergeCues(a: Cue, b: Cue): Cue {
  return { start: Math.min(a.start, b.start), end: Math.max(a.end, b.end), text: `${a.text} ${b.text}` };
}

/** Shifts cues by `ms` (clamped at 0). */
export function shiftCues(cues: readonly Cue[], ms: number): Cue[] {
  return cues.map((c) => ({ ...c, start: Math.max(0, c.start + ms), end: Math.max(0, c.end + ms) }));
}
