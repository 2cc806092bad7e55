/**
 * Text formatting of recognised words (PocketSphinx gives lower-case words
 * with no punctuation): sentence breaks from pauses, capitalised sentence
 * starts, "I", weekdays and months, final punctuation, numbers and clock
 * times as digits where safe; then sentences and paragraphs.
 */
import type { Paragraph, Sentence, Word } from '../../shared/api/transcript';
import { TENS, UNITS } from './number-words';

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

const SCALES: Record<string, number> = { hundred: 100, thousand: 1000, million: 1_000_000, billion: 1_000_000_000 };
const DIGIT_WORDS = new Set(['zero', 'oh', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine']);
const QUESTION_STARTS = new Set([
  'what',
  'why',
  'how',
  'who',
  'whom',
  'whose',
  'where',
  'when',
  'which',
  'is',
  'are',
  'do',
  'does',
  'did',
  'can',
  'could',
  'would',
  'will',
  'shall',
  'should',
  'have',
  'has',
]);

const WEEKDAYS = new Set(['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday']);
const MONTHS = new Set(['january', 'february', 'april', 'june', 'july', 'september', 'october', 'november', 'december']);
/** Months that are also common words ("you may", "a march", "august company"): capitalised only next to a date cue. */
const AMBIGUOUS_MONTHS = new Set(['march', 'may', 'august']);
const MONTH_CUES_BEFORE = new Set([
  'in',
  'of',
  'since',
  'until',
  'till',
  'during',
  'early',
  'late',
  'mid',
  'next',
  'last',
  'this',
  'each',
  'every',
  'through',
  'from',
  'before',
  'after',
  'by',
]);
const MAY_CUES_BEFORE = new Set(['in', 'since', 'until', 'till', 'during', 'early', 'late', 'mid', 'next', 'last', 'through']);
const ORDINALS = new Set([
  'first',
  'second',
  'third',
  'fourth',
  'fifth',
  'sixth',
  'seventh',
  'eighth',
  'ninth',
  'tenth',
  'eleventh',
  'twelfth',
  'thirteenth',
  'fourteenth',
  'fifteenth',
  'sixteenth',
  'seventeenth',
  'eighteenth',
  'nineteenth',
  'twentieth',
  'thirtieth',
]);
const HOURS: Record<string, number> = { one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10, eleven: 11, twelve: 12 };
/** Words after which "seven thirty" is a clock time, not two numbers. */
const TIME_CUES = new Set(['at', 'by', 'until', 'till', 'from', 'around', 'about', 'before', 'after']);

/** Whether a sentence that starts with this word is asked ("what", "can", "is" …): it ends with "?" (batch and streaming turns alike). */
export function opensQuestion(firstWord: string): boolean {
  return QUESTION_STARTS.has(firstWord.toLowerCase());
}

/** Titles before a name, as people write them: "mr smith" → "Mr. Smith" (the recognizer's dictionary spells them without the dot). */
const TITLES: Readonly<Record<string, string>> = { mr: 'Mr.', mrs: 'Mrs.', ms: 'Ms.', dr: 'Dr.' };

/**
 * Capitalises weekdays and months (ambiguous months only next to a date cue)
 * and writes a title before a name with its dot, the name capitalised;
 * `prev`/`next` are the neighbouring words.
 */
export function properNoun(word: string, prev: string | undefined, next: string | undefined): string {
  const w = word.toLowerCase();
  if (WEEKDAYS.has(w) || MONTHS.has(w)) return capitalise(word);
  // Only before another word: a title ends no sentence, and the name after it is a name.
  const title = TITLES[w];
  if (title && next) return title;
  if (prev && TITLES[prev.toLowerCase()]) return capitalise(word);
  if (AMBIGUOUS_MONTHS.has(w)) {
    const before = prev?.toLowerCase() ?? '';
    const after = next?.toLowerCase() ?? '';
    // "may" is mostly the verb: only the plainest cues count for it.
    const cues = w === 'may' ? MAY_CUES_BEFORE : MONTH_CUES_BEFORE;
    if (cues.has(before) || ORDINALS.has(before) || ORDINALS.has(after) || /^\d+$/.test(after)) return capitalise(word);
  }
  return word;
}

/**
 * Clock times after a time cue: "at seven thirty" → "at 7:30", "by nine
 * o'clock" → "by 9 o'clock", "at ten oh five" → "at 10:05". A bare "seven
 * thirty" stays words: it may be two numbers.
 */
export function clockTimes(words: RawWord[]): RawWord[] {
  const out: RawWord[] = [];
  const t = (i: number): string => (words[i]?.text ?? '').toLowerCase();
  let i = 0;
  while (i < words.length) {
    const w = words[i] as RawWord;
    const hour = HOURS[t(i)];
    if (hour !== undefined && i > 0 && TIME_CUES.has(t(i - 1))) {
      let minutes: number | null = null;
      let used = 0;
      if (t(i + 1) === "o'clock") {
        out.push({ ...w, text: String(hour) });
        i++;
        continue;
      }
      if (t(i + 1) === 'oh' && (UNITS[t(i + 2)] ?? 0) >= 1 && (UNITS[t(i + 2)] ?? 10) <= 9) {
        minutes = UNITS[t(i + 2)] as number;
        used = 2;
      } else if (t(i + 1) in TENS && (TENS[t(i + 1)] as number) <= 50) {
        minutes = TENS[t(i + 1)] as number;
        used = 1;
        const unit = UNITS[t(i + 2)];
        if (unit !== undefined && unit >= 1 && unit <= 9 && t(i + 2) !== 'oh') {
          minutes += unit;
          used = 2;
        }
      } else if ((UNITS[t(i + 1)] ?? 0) >= 10 && t(i + 1) !== 'ten' && t(i + 1) !== 'eleven' && t(i + 1) !== 'twelve') {
        minutes = UNITS[t(i + 1)] as number;
        used = 1;
      }
      // "at seven twenty people" is not a time: the minutes must end the phrase or be followed by am/pm or a pause-like word.
      const after = t(i + used + 1);
      const ends =
        after === '' ||
        [
          'a',
          'p',
          'am',
          'pm',
          'in',
          'on',
          'and',
          'or',
          'tomorrow',
          'today',
          'tonight',
          'sharp',
          'then',
          'so',
          'but',
          'please',
          'if',
          'when',
          'we',
          'i',
          'you',
          'they',
          'he',
          'she',
          'for',
          'to',
          'with',
        ].includes(after) ||
        WEEKDAYS.has(after);
      if (minutes !== null && ends) {
        const last = words[i + used] as RawWord;
        const span = words.slice(i, i + used + 1);
        out.push({
          text: `${hour}:${String(minutes).padStart(2, '0')}`,
          start: w.start,
          end: last.end,
          confidence: Math.min(...span.map((x) => x.confidence)),
        });
        i += used + 1;
        continue;
      }
    }
    out.push(w);
    i++;
  }
  return out;
}

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
      if (
        t === 'and' &&
        run.length &&
        (run[run.length - 1] as string) in SCALES &&
        j + 1 < words.length &&
        isNumberWord((words[j + 1] as RawWord).text.toLowerCase())
      ) {
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
  const base = opts.formatText ? numbersToDigits(clockTimes(raw)) : raw.map((w) => ({ ...w }));
  const groups = splitSentences(base, opts.sentencePauseMs, opts.maxSentenceWords);
  const sentences: Sentence[] = [];
  const words: Word[] = [];
  for (const g of groups) {
    const sw = g.map((w, idx) => {
      let text = w.text;
      if (opts.formatText) {
        if (text === 'i' || text.startsWith("i'")) text = 'I' + text.slice(1);
        text = properNoun(text, g[idx - 1]?.text, g[idx + 1]?.text);
        if (idx === 0) text = capitalise(text);
      }
      return { ...w, text };
    });
    if (opts.punctuate && sw.length) {
      const last = sw[sw.length - 1] as RawWord;
      const first = (g[0] as RawWord).text.toLowerCase();
      last.text += opensQuestion(first) && g.length > 2 ? '?' : '.';
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
