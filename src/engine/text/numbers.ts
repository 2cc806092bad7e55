/** Number words and clock times written as digits where safe ("seven thirty" → "7:30", "twenty one" → "21"). */
import { TENS, UNITS } from './number-words';
import { WEEKDAYS } from './proper-nouns';

/** A recognised word before formatting (times in ms). */
export interface RawWord {
  text: string;
  start: number;
  end: number;
  confidence: number;
}

const SCALES: Record<string, number> = { hundred: 100, thousand: 1000, million: 1_000_000, billion: 1_000_000_000 };
const DIGIT_WORDS = new Set(['zero', 'oh', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine']);
const HOURS: Record<string, number> = { one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10, eleven: 11, twelve: 12 };
/** Words after which "seven thirty" is a clock time, not two numbers. */
const TIME_CUES = new Set(['at', 'by', 'until', 'till', 'from', 'around', 'about', 'before', 'after']);

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
