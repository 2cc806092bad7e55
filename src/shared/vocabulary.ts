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
const EDGE_PUNCTUATION = /^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu;

/** A term as the vocabulary keeps it: its ends' punctuation gone, spaces single. '' when nothing is left. */
export function cleanTerm(text: string): string {
  return text
    .split(/\s+/)
    .map((w) => w.replace(EDGE_PUNCTUATION, ''))
    .filter(Boolean)
    .slice(0, VOCABULARY_MAX_WORDS)
    .join(' ')
    .slice(0, VOCABULARY_MAX_CHARS)
    .trim();
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

/** `list` with `term` added at the end (cleaned, its first 6 words), unless it is there already in any case or the list is full. */
export function addTerm(list: readonly string[], term: string): string[] {
  const t = cleanTerm(term);
  if (!t || hasTerm(list, t) || list.length >= VOCABULARY_MAX_TERMS) return [...list];
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
