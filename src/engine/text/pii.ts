/**
 * PII detection and redaction over formatted words: phone numbers, email
 * addresses (written or spoken "name at host dot com"), credit-card, social
 * security and other digit sequences (digits or spoken digits), person names
 * from a name list. Redacted spans are returned for audio redaction.
 */
import type { PiiPolicy, Sentence, Word } from '../../shared/api/transcript';
import { round3 } from './format';
import { PERSON_NAMES } from './names';
import { SPOKEN_DIGITS } from './number-words';

export const SUPPORTED_PII_POLICIES: readonly PiiPolicy[] = [
  'person_name',
  'phone_number',
  'email_address',
  'credit_card_number',
  'us_social_security_number',
  'number_sequence',
  'banking_information',
];

export interface PiiSpan {
  policy: PiiPolicy;
  /** Word indexes [from, to]. */
  from: number;
  to: number;
  start: number;
  end: number;
}

function bare(w: string): string {
  return w.toLowerCase().replace(/[.,?!;:]+$/, '');
}

function digitsOf(w: string): string | null {
  const b = bare(w);
  if (/^\d+$/.test(b)) return b;
  if (b in SPOKEN_DIGITS) return SPOKEN_DIGITS[b] as string;
  return null;
}

function classifyDigits(n: number): PiiPolicy | null {
  if (n === 9) return 'us_social_security_number';
  if (n >= 7 && n <= 12) return 'phone_number';
  if (n >= 13 && n <= 19) return 'credit_card_number';
  if (n >= 4) return 'number_sequence';
  return null;
}

export function detectPii(words: Word[], policies: readonly PiiPolicy[]): PiiSpan[] {
  const want = new Set(policies);
  const spans: PiiSpan[] = [];
  const push = (policy: PiiPolicy, from: number, to: number): void => {
    let p = policy;
    if (!want.has(p) && p === 'us_social_security_number' && want.has('number_sequence')) p = 'number_sequence';
    if (!want.has(p) && (p === 'phone_number' || p === 'credit_card_number') && want.has('number_sequence')) p = 'number_sequence';
    if (!want.has(p)) return;
    spans.push({ policy: p, from, to, start: (words[from] as Word).start, end: (words[to] as Word).end });
  };
  let i = 0;
  while (i < words.length) {
    const t = bare((words[i] as Word).text);
    // Written email.
    if (/^[^\s@]+@[^\s@]+\.[a-z]{2,}$/i.test(t)) {
      push('email_address', i, i);
      i++;
      continue;
    }
    // Spoken email: <name> at <host> dot <tld>.
    if (
      i + 4 < words.length &&
      bare((words[i + 1] as Word).text) === 'at' &&
      bare((words[i + 3] as Word).text) === 'dot' &&
      /^(com|org|net|edu|gov|io|co|uk|de)$/.test(bare((words[i + 4] as Word).text))
    ) {
      push('email_address', i, i + 4);
      i += 5;
      continue;
    }
    // Digit runs.
    if (digitsOf(t) !== null) {
      let j = i;
      let count = 0;
      while (j < words.length) {
        const d = digitsOf((words[j] as Word).text);
        if (d === null) break;
        // Only single spoken digits or digit strings join a run ("ten" is not a digit of a phone number).
        count += d.length;
        j++;
      }
      const policy = classifyDigits(count);
      if (policy && (count >= 4 || j - i > 1)) push(policy, i, j - 1);
      i = j;
      continue;
    }
    if (PERSON_NAMES.has(t)) {
      push('person_name', i, i);
    }
    i++;
  }
  return spans;
}

function entityName(p: PiiPolicy): string {
  return `[${p.toUpperCase()}]`;
}

export interface Redacted {
  words: Word[];
  sentences: Sentence[];
  text: string;
  spans: PiiSpan[];
}

/** Replaces each span with one word (`#` per character, or `[ENTITY_NAME]`), keeping trailing punctuation and sentence boundaries. */
export function redactPii(words: Word[], sentences: Sentence[], policies: readonly PiiPolicy[], sub: 'hash' | 'entity_name'): Redacted {
  const spans = detectPii(words, policies);
  if (!spans.length) return { words, sentences, text: sentences.map((s) => s.text).join(' '), spans };
  const byFrom = new Map(spans.map((s) => [s.from, s]));
  const out: Word[] = [];
  for (let i = 0; i < words.length; i++) {
    const span = byFrom.get(i);
    if (!span) {
      out.push(words[i] as Word);
      continue;
    }
    const group = words.slice(span.from, span.to + 1);
    const last = group[group.length - 1] as Word;
    const punct = /[.,?!;:]+$/.exec(last.text)?.[0] ?? '';
    const original = group.map((w) => w.text.replace(/[.,?!;:]+$/, '')).join(' ');
    const text = (sub === 'entity_name' ? entityName(span.policy) : '#'.repeat(original.length)) + punct;
    out.push({ ...(group[0] as Word), text, end: last.end, confidence: round3(Math.min(...group.map((w) => w.confidence))) });
    i = span.to;
  }
  const rebuilt: Sentence[] = sentences.map((s) => {
    const ws = out.filter((w) => w.start >= s.start && w.start < s.end + 1 && w.start <= s.end);
    return { ...s, words: ws, text: ws.map((w) => w.text).join(' ') };
  });
  return { words: out, sentences: rebuilt, text: rebuilt.map((s) => s.text).join(' '), spans };
}
