/**
 * Text formatting of recognised words (PocketSphinx gives lower-case words
 * with no punctuation): sentence breaks from pauses, capitalised sentence
 * starts and "I", final punctuation, numbers as digits where safe; then
 * sentences and paragraphs.
 */
import type { Paragraph, Sentence, Word } from '../../shared/api/transcript';

export interface RawWord {
  text: string;
  start: number;
  end: number;
  confidence: number;
}

export interface FormatOptions {
  punctuate: boolean;
  formatText: boolean;
  /** A pause at least this long ends a sentence (ms). */
  sentencePauseMs?: number;
  /** Sentences longer than this many words are cut at their longest pause. */
  maxSentenceWords?: number;
}

const UNITS: Record<string, number> = {
  zero: 0, oh: 0, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10,
  eleven: 11, twelve: 12, thirteen: 13, fourteen: 14, fifteen: 15, sixteen: 16, seventeen: 17, eighteen: 18, nineteen: 19,
};
const TENS: Record<string, number> = { twenty: 20, thirty: 30, forty: 40, fifty: 50, sixty: 60, seventy: 70, eighty: 80, ninety: 90 };
const SCALES: Record<string, number> = { hundred: 100, thousand: 1000, million: 1_000_000, billion: 1_000_000_000 };
const DIGIT_WORDS = new Set(['zero', 'oh', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine']);
const QUESTION_STARTS = new Set(['what', 'why', 'how', 'who', 'whom', 'whose', 'where', 'when', 'which', 'is', 'are', 'do', 'does', 'did', 'can', 'could', 'would', 'will', 'shall', 'should', 'have', 'has']);

function isNumberWord(w: string): boolean {
  return w in UNITS || w in TENS || w in SCALES;
}

/** Parses a run of number words; null when it is not a well-formed number. */
export function parseNumberWords(ws: string[]): number | null {
  let total = 0;
  let current = 0;
  let lastKind: 'unit' | 'ten' | 'scale' | null = null;
  for (const w of ws) {
    if (w in UNITS) {
      if (lastKind === 'unit' || (lastKind === 'ten' && (UNITS[w] as number) >= 10)) return null;
      if (w === 'oh') return null;
      current += UNITS[w] as number;
      lastKind = 'unit';
    } else if (w in TENS) {
      if (lastKind === 'unit' || lastKind === 'ten') return null;
      current += TENS[w] as number;
      lastKind = 'ten';
    } else if (w in SCALES) {
      const s = SCALES[w] as number;
      if (lastKind === null) return null;
      if (s === 100) {
        if (current === 0 || current >= 100) return null;
        current *= 100;
      } else {
        total += Math.max(1, current) * s;
        current = 0;
      }
      lastKind = 'scale';
    } else return null;
  }
  return total + current;
}

/** Joins runs of number words into one digit word where safe (not a lone zero–nine). */
export function numbersToDigits(words: RawWord[]): RawWord[] {
  const out: RawWord[] = [];
  let i = 0;
  while (i < words.length) {
    const w = words[i] as RawWord;
    if (!isNumberWord(w.text.toLowerCase())) {
      out.push(w);
      i++;
      continue;
    }
    // Three or more spoken single digits ("five five five one two") are a digit string (phone, code).
    let d = i;
    while (d < words.length && DIGIT_WORDS.has((words[d] as RawWord).text.toLowerCase())) d++;
    if (d - i >= 3) {
      const span = words.slice(i, d);
      out.push({
        text: span.map((x) => String(UNITS[x.text.toLowerCase()] ?? 0)).join(''),
        start: w.start,
        end: (words[d - 1] as RawWord).end,
        confidence: Math.min(...span.map((x) => x.confidence)),
      });
      i = d;
      continue;
    }
    // Longest run that parses, "and" allowed after a scale ("one hundred and five").
    let j = i;
    const run: string[] = [];
    let best = -1;
    let bestVal = 0;
    while (j < words.length) {
      const t = (words[j] as RawWord).text.toLowerCase();
      if (t === 'and' && run.length && (run[run.length - 1] as string) in SCALES && j + 1 < words.length && isNumberWord((words[j + 1] as RawWord).text.toLowerCase())) {
        j++;
        continue;
      }
      if (!isNumberWord(t)) break;
      run.push(t);
      const v = parseNumberWords(run);
      if (v === null) break;
      best = j;
      bestVal = v;
      j++;
    }
    if (best < 0) {
      out.push(w);
      i++;
      continue;
    }
    const span = words.slice(i, best + 1);
    const single = span.length === 1;
    if (single && bestVal < 10) {
      out.push(w);
    } else {
      out.push({
        text: String(bestVal),
        start: w.start,
        end: (words[best] as RawWord).end,
        confidence: Math.min(...span.map((x) => x.confidence)),
      });
    }
    i = best + 1;
  }
  return out;
}

function capitalise(s: string): string {
  return s.length ? s[0]!.toUpperCase() + s.slice(1) : s;
}

/** Splits words into sentence groups at pauses (and very long runs at their longest pause). */
export function splitSentences(words: RawWord[], pauseMs = 400, maxWords = 40): RawWord[][] {
  const groups: RawWord[][] = [];
  let cur: RawWord[] = [];
  for (let i = 0; i < words.length; i++) {
    const w = words[i] as RawWord;
    const prev = words[i - 1];
    if (prev && cur.length && w.start - prev.end >= pauseMs) {
      groups.push(cur);
      cur = [];
    }
    cur.push(w);
  }
  if (cur.length) groups.push(cur);
  const out: RawWord[][] = [];
  const cut = (g: RawWord[]): void => {
    if (g.length <= maxWords) {
      out.push(g);
      return;
    }
    let at = Math.floor(g.length / 2);
    let gap = -1;
    for (let i = Math.floor(g.length / 4); i < Math.ceil((g.length * 3) / 4); i++) {
      const d = (g[i] as RawWord).start - (g[i - 1] as RawWord).end;
      if (d > gap) {
        gap = d;
        at = i;
      }
    }
    cut(g.slice(0, at));
    cut(g.slice(at));
  };
  groups.forEach(cut);
  return out;
}

function toWord(w: RawWord): Word {
  return { text: w.text, start: w.start, end: w.end, confidence: w.confidence, speaker: null, channel: null };
}

export interface Formatted {
  words: Word[];
  sentences: Sentence[];
  text: string;
}

/** Formats recognised words into display words, sentences and text. */
export function formatTranscript(raw: RawWord[], opts: FormatOptions): Formatted {
  const base = opts.formatText ? numbersToDigits(raw) : raw.map((w) => ({ ...w }));
  const groups = splitSentences(base, opts.sentencePauseMs, opts.maxSentenceWords);
  const sentences: Sentence[] = [];
  const words: Word[] = [];
  for (const g of groups) {
    const sw = g.map((w, idx) => {
      let text = w.text;
      if (opts.formatText) {
        if (text === 'i' || text.startsWith("i'")) text = 'I' + text.slice(1);
        if (idx === 0) text = capitalise(text);
      }
      return { ...w, text };
    });
    if (opts.punctuate && sw.length) {
      const last = sw[sw.length - 1] as RawWord;
      const first = (g[0] as RawWord).text.toLowerCase();
      last.text += QUESTION_STARTS.has(first) && g.length > 2 ? '?' : '.';
    }
    const ws = sw.map(toWord);
    words.push(...ws);
    sentences.push({
      text: ws.map((w) => w.text).join(' '),
      start: ws[0]!.start,
      end: ws[ws.length - 1]!.end,
      confidence: round3(ws.reduce((a, w) => a + w.confidence, 0) / ws.length),
      words: ws,
      speaker: null,
      channel: null,
    });
  }
  return { words, sentences, text: sentences.map((s) => s.text).join(' ') };
}

export function round3(n: number): number {
  return Math.round(n * 1000) / 1000;
}

/** Groups sentences into paragraphs at long pauses or every few sentences. */
export function paragraphsFrom(sentences: Sentence[], pauseMs = 1500, maxWords = 120): Paragraph[] {
  const out: Paragraph[] = [];
  let cur: Sentence[] = [];
  let count = 0;
  const flush = (): void => {
    if (!cur.length) return;
    const words = cur.flatMap((s) => s.words);
    out.push({
      text: cur.map((s) => s.text).join(' '),
      start: cur[0]!.start,
      end: cur[cur.length - 1]!.end,
      confidence: round3(words.reduce((a, w) => a + w.confidence, 0) / Math.max(1, words.length)),
      words,
    });
    cur = [];
    count = 0;
  };
  for (const s of sentences) {
    const prev = cur[cur.length - 1];
    if (prev && (s.start - prev.end >= pauseMs || count + s.words.length > maxWords)) flush();
    cur.push(s);
    count += s.words.length;
  }
  flush();
  return out;
}

/** Rebuilds sentences over a changed word list with the same boundaries (after redaction). */
export function resentence(sentences: Sentence[], words: Word[]): Sentence[] {
  let i = 0;
  return sentences.map((s) => {
    const ws = words.slice(i, i + s.words.length);
    i += s.words.length;
    return { ...s, words: ws, text: ws.map((w) => w.text).join(' ') };
  });
}
