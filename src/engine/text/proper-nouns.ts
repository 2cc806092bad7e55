/** Words the recognizer writes in lower case that English writes otherwise: weekdays, months, titles before a name, and questions' first words. */

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

export const WEEKDAYS = new Set(['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday']);
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

export function capitalise(s: string): string {
  return s.length ? s[0]!.toUpperCase() + s.slice(1) : s;
}
