/**
 * Turn bookkeeping that does not touch audio: which partial words are stable
 * enough to call final, the end-of-turn confidence, and the formatted text.
 */
import { opensQuestion, properNoun } from '../text/format';

export interface StreamWord {
  text: string;
  start: number;
  end: number;
  confidence: number;
  word_is_final: boolean;
}

/** Words after which a speaker is rarely done (turn-ending is less likely). */
const CONTINUERS = new Set([
  'a',
  'an',
  'the',
  'and',
  'or',
  'but',
  'so',
  'because',
  'of',
  'to',
  'in',
  'on',
  'at',
  'for',
  'with',
  'from',
  'by',
  'if',
  'that',
  'than',
  'then',
  'my',
  'your',
  'our',
  'their',
  'his',
  'her',
  'its',
  'is',
  'are',
  'was',
  'were',
  'be',
  'i',
  'we',
  'you',
  'they',
  'he',
  'she',
  'it',
  'um',
  'uh',
  'like',
  'about',
  'into',
  'very',
  'will',
  'would',
  'can',
  'could',
  'should',
  'as',
  'which',
  'who',
]);

/**
 * Words after which "you", "it" or "her" is an object, so a sentence can end
 * on it ("…with you.", "thank you.", "send it."), where as a subject ("you
 * said…", "it is…") the speaker is rarely done.
 */
const OBJECT_TAKERS = new Set([
  'with',
  'to',
  'for',
  'at',
  'about',
  'from',
  'of',
  'on',
  'by',
  'thank',
  'see',
  'tell',
  'told',
  'call',
  'help',
  'ask',
  'meet',
  'love',
  'miss',
  'need',
  'want',
  'bring',
  'send',
  'give',
  'take',
  'make',
  'got',
]);
const OBJECT_PRONOUNS = new Set(['you', 'it', 'her']);

/** Whether the speaker is rarely done after `word` (preceded by `previous`). */
function continues(word: string, previous: string | undefined): boolean {
  const w = word.toLowerCase();
  if (OBJECT_PRONOUNS.has(w) && previous !== undefined && OBJECT_TAKERS.has(previous.toLowerCase())) return false;
  return CONTINUERS.has(w);
}

/**
 * Confidence (0–1) that the speaker has finished, from the silence so far and
 * the last word heard (and the one before it). Reaches 0.5 at `minSilence`
 * after a word that can end a sentence, and rises to 1 at `maxSilence`; after
 * a continuer it stays lower.
 */
export function endOfTurnConfidence(silenceMs: number, lastWord: string | undefined, minSilence: number, maxSilence: number, previousWord?: string): number {
  if (!lastWord) return 0;
  const cont = continues(lastWord, previousWord);
  let c: number;
  if (silenceMs <= 0) c = 0.02;
  else if (silenceMs < minSilence) c = 0.4 * (silenceMs / Math.max(1, minSilence));
  else c = 0.5 + 0.5 * Math.min(1, (silenceMs - minSilence) / Math.max(1, maxSilence - minSilence));
  if (cont) c *= 0.5;
  return Math.round(Math.min(1, c) * 1000) / 1000;
}

/**
 * Tracks the decoder's partial hypotheses of one turn. A word becomes final
 * once the hypothesis up to and including it has not changed over
 * `stableFor` consecutive partials and it is not the newest word; final words
 * never change afterwards (the end-of-turn message carries the decoder's
 * definitive alignment).
 */
export class PartialTracker {
  private recent: string[][] = [];
  private finals: StreamWord[] = [];

  constructor(private readonly stableFor = 3) {}

  get finalWords(): readonly StreamWord[] {
    return this.finals;
  }

  /**
   * Folds in a hypothesis. `spanStart`/`spanEnd` (ms from stream start) bound
   * the speech it covers; words without decoder times are spread over the
   * part of that span after the last final word, by length.
   */
  update(hypText: string, spanStart: number, spanEnd: number, silenceAfter: boolean): StreamWord[] {
    const hyp = hypText.split(/\s+/).filter(Boolean);
    this.recent.push(hyp);
    if (this.recent.length > this.stableFor) this.recent.shift();
    let stable = 0;
    if (this.recent.length === this.stableFor) {
      const [first, ...rest] = this.recent as [string[], ...string[][]];
      while (stable < first.length && rest.every((h) => h[stable] === first[stable])) stable++;
      // The newest word can still grow ("for" → "forest") unless silence followed it.
      if (!silenceAfter && stable === hyp.length) stable = Math.max(0, stable - 1);
    }
    const tail = hyp.slice(this.finals.length);
    const from = this.finals.length ? (this.finals[this.finals.length - 1] as StreamWord).end : spanStart;
    const timed = spread(tail, from, Math.max(from + tail.length * 10, spanEnd));
    const newlyFinal = Math.max(0, Math.min(stable, hyp.length) - this.finals.length);
    for (let i = 0; i < newlyFinal; i++) this.finals.push({ ...(timed[i] as StreamWord), word_is_final: true });
    return [...this.finals, ...timed.slice(newlyFinal)];
  }
}

function spread(words: string[], start: number, end: number): StreamWord[] {
  const weights = words.map((w) => w.length + 2);
  const total = weights.reduce((a, b) => a + b, 0) || 1;
  const out: StreamWord[] = [];
  let t = start;
  for (let i = 0; i < words.length; i++) {
    const d = ((end - start) * (weights[i] as number)) / total;
    out.push({ text: words[i] as string, start: Math.round(t), end: Math.round(t + d), confidence: 0.5, word_is_final: false });
    t += d;
  }
  return out;
}

/** Casing and end punctuation for a final turn (`format_turns`). */
export function formatWords(words: readonly StreamWord[]): StreamWord[] {
  const out = words.map((w, i) => {
    const text = w.text === 'i' || w.text.startsWith("i'") ? `I${w.text.slice(1)}` : w.text;
    return { ...w, text: properNoun(text, words[i - 1]?.text, words[i + 1]?.text) };
  });
  if (out.length === 0) return out;
  const first = out[0] as StreamWord;
  first.text = first.text.charAt(0).toUpperCase() + first.text.slice(1);
  const last = out[out.length - 1] as StreamWord;
  const question = opensQuestion((words[0] as StreamWord).text) && out.length > 1;
  if (!/[.?!]$/.test(last.text)) last.text += question ? '?' : '.';
  return out;
}

export function joinWords(words: readonly { text: string }[]): string {
  return words.map((w) => w.text).join(' ');
}
