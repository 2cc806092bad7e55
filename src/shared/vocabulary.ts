/**
 * The user's vocabulary (names, jargon the recognizer should know): what counts as a correction worth
 * learning, how a term is cleaned, and how the list joins a job's or a live session's keyterms.
 */
// No zod here: the renderer's first chunk reads these (the schemas are in vocabulary-schema.ts).

/** The streaming service's keyterm limits (API.md §8.1: at most 100 of at most 50 characters), which the file jobs' fit inside. */
export const VOCABULARY_MAX_TERMS = 100;
export const VOCABULARY_MAX_CHARS = 50;
/** A job's keyterms_prompt holds at most this many terms (the options schema's limit). */
export const JOB_KEYTERMS_MAX = 200;

/** The cloud's limit on one keyterm (openapi.yml keyterms_prompt: at most 6 words a phrase). */
export const VOCABULARY_MAX_WORDS = 6;

/** Punctuation at either end of a word ("Phoebe," → "Phoebe"); inner marks stay (O'Brien, e-mail, 3.5). */
const EDGE_PUNCTUATION = /^([^\p{L}\p{N}]*)(.*?)([^\p{L}\p{N}]*)$/su;
const BRACKETS = [
  ['(', ')'],
  ['[', ']'],
  ['{', '}'],
] as const;

const count = (s: string, c: string) => s.split(c).length - 1;

/** A word without the punctuation around it, but never with a bracket left half-open: "alert(1)>" → "alert(1)", "(Acme)" → "Acme". */
function trimWord(word: string): string {
  const [, lead = '', core = '', tail = ''] = EDGE_PUNCTUATION.exec(word) ?? [];
  let out = core;
  for (const [open, close] of BRACKETS) {
    const missingClose = count(out, open) - count(out, close);
    if (missingClose > 0 && tail.startsWith(close.repeat(missingClose))) out += close.repeat(missingClose);
    const missingOpen = count(out, close) - count(out, open);
    if (missingOpen > 0 && lead.endsWith(open.repeat(missingOpen))) out = open.repeat(missingOpen) + out;
  }
  return out;
}

/** A term as the vocabulary keeps it: its ends' punctuation gone, spaces single, never cut. '' when nothing is left. */
export function cleanTerm(text: string): string {
  return text.split(/\s+/).map(trimWord).filter(Boolean).join(' ');
}

/** Why a cleaned term cannot be kept whole (too many words or characters), in words the user can act on; null when it fits. */
export function termProblem(term: string): string | null {
  const words = term.split(/\s+/).filter(Boolean).length;
  if (words > VOCABULARY_MAX_WORDS)
    return `“${preview(term)}” has ${words} words; a term has at most ${VOCABULARY_MAX_WORDS}. Add a shorter phrase, or its words one by one.`;
  const chars = term.length;
  if (chars > VOCABULARY_MAX_CHARS) return `“${preview(term)}” has ${chars} characters; a term has at most ${VOCABULARY_MAX_CHARS}. Add a shorter form of it.`;
  return null;
}

function preview(term: string): string {
  return [...term].length > 40 ? `${[...term].slice(0, 40).join('')}…` : term;
}

/** Letters and digits only, lower case: two words with the same key differ only in punctuation or case. */
export function spellingKey(text: string): string {
  return text.toLocaleLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');
}

/**
 * Whether changing `before` to `after` corrects how a word is spelled, so the new form is worth
 * learning: not a deletion, not punctuation or capitals alone, and the new form has letters.
 */
export function isSpellingChange(before: string, after: string): boolean {
  const a = spellingKey(after);
  if (!a || !/\p{L}/u.test(a)) return false;
  return a !== spellingKey(before);
}

export function hasTerm(list: readonly string[], term: string): boolean {
  const k = term.toLocaleLowerCase();
  return list.some((t) => t.toLocaleLowerCase() === k);
}

/** `list` with `term` added at the end (cleaned), unless it is there already in any case, does not fit whole (termProblem) or the list is full. */
export function addTerm(list: readonly string[], term: string): string[] {
  const t = cleanTerm(term);
  if (!t || termProblem(t) || hasTerm(list, t) || list.length >= VOCABULARY_MAX_TERMS) return [...list];
  return [...list, t];
}

/** A request's own terms first, then the vocabulary's, each once (any case), at most `max`. */
export function mergeKeyterms(own: readonly string[] | null | undefined, vocabulary: readonly string[], max: number): string[] {
  const out: string[] = [];
  for (const t of [...(own ?? []), ...vocabulary]) {
    if (out.length >= max) break;
    // A phrase over the cloud's word limit would fail the whole request: it is left out.
    if (t.trim() && t.trim().split(/\s+/).length <= VOCABULARY_MAX_WORDS && !hasTerm(out, t)) out.push(t.trim());
  }
  return out;
}
