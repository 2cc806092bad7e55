/**
 * Line breaking a subtitler would accept: one line when it fits; otherwise
 * break after punctuation and before conjunctions and prepositions, never
 * between an article, adjective or first name and what it belongs to, and keep
 * two lines bottom-heavy (a pyramid) where that costs little.
 */
import { cueDisplayText } from './display';

const ARTICLES = new Set('a an the this that these those my your his her its our their some any no every each another such'.split(' '));
const CONJUNCTIONS = new Set(
  'and but or nor so yet because although though while whereas if unless until since when where which who whom whose that than as'.split(' '),
);
const PREPOSITIONS = new Set(
  'in on at to for with from of by about into onto over after before under between through during without across against around toward towards upon within like near behind beyond along among'.split(
    ' ',
  ),
);
const ADJECTIVES = new Set(
  'new old good great big small little long short high low first last next other same own right young important different early late large whole real best better free full sure open hard easy strong clear true main local public private major general special human social national political economic final common simple single certain recent huge tiny quick slow lazy brown red blue green black white dark bright'.split(
    ' ',
  ),
);
const SENTENCE_END = /[.?!…]["')\]]*$/;
/** Titles and abbreviations whose dot ends no sentence ("Mr. Smith" is not two sentences). */
const ABBREVIATION = /^["'(]?(?:mr|mrs|ms|dr|prof|vs|e\.g|i\.e)\.$/i;
const CLAUSE_END = /[,;:–—]["')\]]*$/;

interface TokenInfo {
  bare: string;
  capital: boolean;
  sentenceEnd: boolean;
  clauseEnd: boolean;
}

/**
 * What the break rules need of a token, computed once per distinct spelling:
 * building 5,000 cues asks about the same few thousand words hundreds of
 * thousands of times, and the Unicode regexes were most of the build's cost.
 */
const infos = new Map<string, TokenInfo>();
function info(w: string): TokenInfo {
  let i = infos.get(w);
  if (i) return i;
  // A bound on memory for hostile or huge vocabularies; refilling costs one build's worth of regexes.
  if (infos.size >= 50_000) infos.clear();
  i = {
    bare: w.toLowerCase().replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, ''),
    capital: /^["'(]?\p{Lu}/u.test(w),
    sentenceEnd: SENTENCE_END.test(w) && !ABBREVIATION.test(w),
    clauseEnd: CLAUSE_END.test(w),
  };
  infos.set(w, i);
  return i;
}

/** Whether a token ends a sentence (cached per spelling). */
export const endsSentence = (w: string): boolean => info(w).sentenceEnd;

/** Cost of breaking a line before tokens[i] (negative: a good place). */
export function breakPenalty(tokens: readonly string[], i: number): number {
  const prev = tokens[i - 1];
  const next = tokens[i];
  if (prev === undefined || next === undefined) return 0;
  const pi = info(prev);
  if (pi.sentenceEnd) return -40;
  if (pi.clauseEnd) return -30;
  const ni = info(next);
  const p = pi.bare;
  const n = ni.bare;
  let cost = 0;
  if (ARTICLES.has(p)) cost += 60;
  if (PREPOSITIONS.has(p)) cost += 30;
  if (ADJECTIVES.has(p) && !CONJUNCTIONS.has(n) && !PREPOSITIONS.has(n)) cost += 40;
  if (pi.capital && ni.capital && p !== 'i') {
    const atSentenceStart = i - 1 === 0 || info(tokens[i - 2] ?? '.').sentenceEnd;
    cost += atSentenceStart ? 15 : 50;
  }
  if (CONJUNCTIONS.has(n)) cost -= 15;
  else if (PREPOSITIONS.has(n)) cost -= 10;
  return cost;
}

/**
 * The best way to lay `tokens` out in at most `maxLines` lines of at most
 * `maxChars` characters, fewest lines first; null when no layout fits (a word
 * longer than a line, or too much text).
 */
export function breakLines(tokens: readonly string[], maxChars: number, maxLines: number): string[] | null {
  const n = tokens.length;
  if (n === 0) return [''];
  const total = tokens.reduce((t, w) => t + w.length, n - 1);
  if (total <= maxChars) return [tokens.join(' ')];
  if (maxLines < 2 || total > maxChars * maxLines + maxLines - 1) return null;
  for (let k = 2; k <= maxLines; k++) {
    const breaks = bestBreaks(tokens, k, maxChars, total);
    if (breaks) {
      const lines: string[] = [];
      let from = 0;
      for (const b of [...breaks, n]) {
        lines.push(tokens.slice(from, b).join(' '));
        from = b;
      }
      return lines;
    }
  }
  return null;
}

/** Break positions for exactly k lines minimising break penalties plus imbalance (DP over positions). */
function bestBreaks(tokens: readonly string[], k: number, maxChars: number, total: number): number[] | null {
  const n = tokens.length;
  // Prefix sums of token lengths: a line's length in O(1); each break's penalty computed once.
  const pre = new Array<number>(n + 1);
  pre[0] = 0;
  for (let i = 0; i < n; i++) pre[i + 1] = pre[i]! + tokens[i]!.length;
  const lineLength = (from: number, to: number): number => pre[to]! - pre[from]! + to - from - 1;
  const penalty = new Array<number>(n + 1).fill(0);
  for (let i = 1; i < n; i++) penalty[i] = breakPenalty(tokens, i);
  const target = total / k;
  if (k === 2) {
    let best = -1;
    let bestCost = Infinity;
    for (let i = 1; i < n; i++) {
      const top = lineLength(0, i);
      const bottom = lineLength(i, n);
      if (top > maxChars || bottom > maxChars) continue;
      // Pyramid: a top line longer than the bottom one costs a little (only decides near-ties).
      const c = (Math.abs(top - target) + Math.abs(bottom - target)) * 0.6 + penalty[i]! + Math.max(0, top - bottom) * 0.4;
      if (c < bestCost) {
        bestCost = c;
        best = i;
      }
    }
    return best < 0 ? null : [best];
  }
  // cost[j][i]: best cost of the first i tokens in j lines; from[j][i] where line j started.
  const cost: number[][] = Array.from({ length: k + 1 }, () => new Array<number>(n + 1).fill(Infinity));
  const from: number[][] = Array.from({ length: k + 1 }, () => new Array<number>(n + 1).fill(-1));
  cost[0]![0] = 0;
  for (let j = 1; j <= k; j++) {
    for (let i = j; i <= n; i++) {
      if (j === k && i < n) continue;
      for (let s = j - 1; s < i; s++) {
        const before = cost[j - 1]![s]!;
        if (before === Infinity) continue;
        const len = lineLength(s, i);
        if (len > maxChars) continue;
        const c = before + Math.abs(len - target) * 0.6 + penalty[i]!;
        if (c < cost[j]![i]!) {
          cost[j]![i] = c;
          from[j]![i] = s;
        }
      }
    }
  }
  if (cost[k]![n] === Infinity) return null;
  const breaks: number[] = [];
  let i = n;
  for (let j = k; j > 1; j--) {
    i = from[j]![i]!;
    breaks.unshift(i);
  }
  return breaks;
}

/**
 * Lines of a cue whose words may come from several speakers: one speaker's
 * words are broken normally; two or more get a line each with a leading
 * hyphen. Null when it does not fit.
 */
export function layoutCue(parts: readonly (readonly string[])[], maxChars: number, maxLines: number): string[] | null {
  if (parts.length <= 1) return breakLines(parts[0] ?? [], maxChars, maxLines);
  if (parts.length > maxLines) return null;
  const lines = parts.map((p) => `- ${p.join(' ')}`);
  return lines.every((l) => l.length <= maxChars) ? lines : null;
}

/** Characters a viewer reads: tags (markup and ASS) and dialogue hyphens not counted, an entity as its one character, a line break as the space it replaces. */
export function readingChars(text: string): number {
  // Most cues have no tags, entities or dialogue hyphens: a line break counts as the space it replaces, so the length is the answer.
  if (!text.includes('<') && !text.includes('-') && !text.includes('&') && !text.includes('{')) return text.length;
  return cueDisplayText(text)
    .split('\n')
    .map((l) => l.replace(/^-\s+/, ''))
    .join(' ').length;
}

/** Visible lines of a cue's text (tags removed, entities decoded), for the line-length rules. */
export function visibleLines(text: string): string[] {
  return cueDisplayText(text).split('\n');
}

/** Re-lays a cue's text out by the rules, keeping dialogue lines as they are. */
export function rebalanceText(text: string, maxChars: number, maxLines: number): string | null {
  const lines = text.split('\n');
  if (lines.length > 1 && lines.every((l) => l.startsWith('- ')))
    return (
      layoutCue(
        lines.map((l) => l.slice(2).split(/\s+/)),
        maxChars,
        maxLines,
      )?.join('\n') ?? null
    );
  const tokens = text.split(/\s+/).filter(Boolean);
  return breakLines(tokens, maxChars, maxLines)?.join('\n') ?? null;
}
