/**
 * Local `custom_formatting`: finds dates, phone numbers and email addresses
 * in a transcript's text (written or spoken forms such as "march fifth two
 * thousand twenty four", "five five five ...", "jane at example dot com")
 * and rewrites them in the requested patterns.
 */
import { SPOKEN_DIGITS, TENS, UNITS } from '../text/number-words';

const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];
const ORD: Record<string, number> = {
  first: 1,
  second: 2,
  third: 3,
  fourth: 4,
  fifth: 5,
  sixth: 6,
  seventh: 7,
  eighth: 8,
  ninth: 9,
  tenth: 10,
  eleventh: 11,
  twelfth: 12,
  thirteenth: 13,
  fourteenth: 14,
  fifteenth: 15,
  sixteenth: 16,
  seventeenth: 17,
  eighteenth: 18,
  nineteenth: 19,
  twentieth: 20,
  thirtieth: 30,
};
export interface CustomFormattingRequest {
  date?: string;
  phone_number?: string;
  email?: string;
}

export interface CustomFormattingResult {
  mapping: Record<string, string>;
  formatted_text: string;
  status: 'success';
}

const MONTH_RE = `(${MONTHS.join('|')}|jan|feb|mar|apr|jun|jul|aug|sept|sep|oct|nov|dec)\\.?`;
const ORD_WORDS = Object.keys(ORD).join('|');
const TEN_WORDS = Object.keys(TENS).join('|');
const UNIT_WORDS = Object.keys(UNITS).join('|');
/** A day: "5", "5th", "fifth", "twenty first". */
const DAY_RE = `((?:\\d{1,2}(?:st|nd|rd|th)?)|(?:(?:twenty|thirty)[ -](?:${ORD_WORDS}))|(?:${ORD_WORDS}))`;
/** A year: "2024", "two thousand (and) twenty four", "twenty twenty four", "nineteen ninety nine". */
const YEAR_RE = `(\\d{4}|(?:two thousand(?: and)?(?: (?:${TEN_WORDS}))?(?: (?:${UNIT_WORDS}))?)|(?:(?:nineteen|twenty) (?:(?:${TEN_WORDS})(?: (?:${UNIT_WORDS}))?|(?:${UNIT_WORDS}))))`;

function monthNumber(m: string): number {
  const k = m.toLowerCase().replace('.', '').slice(0, 3);
  return MONTHS.findIndex((x) => x.startsWith(k)) + 1;
}

function dayNumber(d: string): number {
  const w = d.toLowerCase();
  const digits = /^(\d{1,2})/.exec(w);
  if (digits) return Number(digits[1]);
  const parts = w.split(/[ -]/);
  if (parts.length === 2) return (TENS[parts[0] as string] ?? 0) + (ORD[parts[1] as string] ?? 0);
  return ORD[w] ?? 0;
}

function wordsNumber(ws: string[]): number {
  let n = 0;
  for (const w of ws) n += TENS[w] ?? UNITS[w] ?? 0;
  return n;
}

function yearNumber(y: string): number {
  const w = y.toLowerCase();
  if (/^\d{4}$/.test(w)) return Number(w);
  const parts = w.split(' ').filter((p) => p !== 'and');
  if (parts[0] === 'two' && parts[1] === 'thousand') return 2000 + wordsNumber(parts.slice(2));
  const century = (UNITS[parts[0] as string] ?? TENS[parts[0] as string] ?? 0) * 100;
  return century + wordsNumber(parts.slice(1));
}

/** Renders a date in a pattern such as mm/dd/yyyy, dd.mm.yy or yyyy-mm-dd. */
export function formatDate(pattern: string, y: number, m: number, d: number): string {
  return pattern.replace(/yyyy|yy|mm|dd|m|d/gi, (tok) => {
    switch (tok.toLowerCase()) {
      case 'yyyy':
        return String(y).padStart(4, '0');
      case 'yy':
        return String(y % 100).padStart(2, '0');
      case 'mm':
        return String(m).padStart(2, '0');
      case 'dd':
        return String(d).padStart(2, '0');
      case 'm':
        return String(m);
      default:
        return String(d);
    }
  });
}

/** Renders 10 (or 11 with a leading 1) digits in a pattern whose x's are digits, e.g. (xxx)xxx-xxxx. */
export function formatPhone(pattern: string, digits: string): string {
  const slots = (pattern.match(/x/gi) ?? []).length;
  const ds = digits.length > slots && digits.startsWith('1') ? digits.slice(1) : digits;
  if (ds.length !== slots) return digits;
  let i = 0;
  return pattern.replace(/x/gi, () => ds[i++] as string);
}

function findDates(text: string, pattern: string, mapping: Record<string, string>): string {
  const monthFirst = new RegExp(`\\b${MONTH_RE} ${DAY_RE}(?:,)? ${YEAR_RE}\\b`, 'gi');
  const dayFirst = new RegExp(`\\b(?:the )?${DAY_RE} (?:of )?${MONTH_RE}(?:,)? ${YEAR_RE}\\b`, 'gi');
  const numeric = /\b(\d{4})-(\d{2})-(\d{2})\b|\b(\d{1,2})\/(\d{1,2})\/(\d{4})\b/g;
  let out = text.replace(monthFirst, (all, m: string, d: string, y: string) => {
    const f = formatDate(pattern, yearNumber(y), monthNumber(m), dayNumber(d));
    mapping[all] = f;
    return f;
  });
  out = out.replace(dayFirst, (all, d: string, m: string, y: string) => {
    const f = formatDate(pattern, yearNumber(y), monthNumber(m), dayNumber(d));
    mapping[all] = f;
    return f;
  });
  return out.replace(numeric, (all, y1?: string, m1?: string, d1?: string, m2?: string, d2?: string, y2?: string) => {
    const f = y1 ? formatDate(pattern, Number(y1), Number(m1), Number(d1)) : formatDate(pattern, Number(y2), Number(m2), Number(d2));
    if (f !== all) mapping[all] = f;
    return f;
  });
}

function findPhones(text: string, pattern: string, mapping: Record<string, string>): string {
  // Runs of digits, digit words, and separators that add up to 10 or 11 digits.
  const token = `(?:\\d|zero|oh|one|two|three|four|five|six|seven|eight|nine)`;
  const re = new RegExp(`(?:\\+?\\(?${token}\\)?(?:[\\s.-]*\\(?${token}\\)?){9,10})`, 'gi');
  return text.replace(re, (all) => {
    const digits = all
      .toLowerCase()
      .match(/\d|zero|oh|one|two|three|four|five|six|seven|eight|nine/g)!
      .map((t) => (/\d/.test(t) ? t : (SPOKEN_DIGITS[t] as string)))
      .join('');
    if (digits.length !== 10 && !(digits.length === 11 && digits.startsWith('1'))) return all;
    const f = formatPhone(pattern, digits);
    mapping[all.trim()] = f;
    return all.replace(all.trim(), f);
  });
}

function findEmails(text: string, pattern: string, mapping: Record<string, string>): string {
  const upper = /^[A-Z]/.test(pattern.split('@')[0] ?? '');
  const spoken =
    /\b([a-z0-9]+(?:(?: dot | underscore |[._])[a-z0-9]+)*) at ([a-z0-9-]+(?:(?: dot |\.)[a-z0-9-]+)*(?: dot |\.)(?:com|org|net|edu|gov|io|co|uk|de|fr|ai|dev|app))\b/gi;
  return text.replace(spoken, (all, user: string, domain: string) => {
    const clean = (s: string) =>
      s
        .replace(/ dot /gi, '.')
        .replace(/ underscore /gi, '_')
        .replace(/\s+/g, '');
    let f = `${clean(user)}@${clean(domain)}`.toLowerCase();
    if (upper) f = f.charAt(0).toUpperCase() + f.slice(1);
    mapping[all] = f;
    return f;
  });
}

export function customFormat(text: string, req: CustomFormattingRequest): CustomFormattingResult {
  const mapping: Record<string, string> = {};
  let out = text;
  if (req.email) out = findEmails(out, req.email, mapping);
  if (req.date) out = findDates(out, req.date, mapping);
  if (req.phone_number) out = findPhones(out, req.phone_number, mapping);
  return { mapping, formatted_text: out, status: 'success' };
}
