/**
 * Text formatting of recognised words (PocketSphinx gives lower-case words
 * with no punctuation): sentence breaks from pauses, capitalised sentence
 * starts, "I", weekdays and months, final punctuation, numbers and clock
 * times as digits where safe; then sentences and paragraphs.
 */
import type { Paragraph, Sentence, Word } from '../../shared/api/transcript';
import { clockTimes, numbersToDigits, type RawWord } from './numbers';
import { capitalise, opensQuestion, properNoun } from './proper-nouns';

export { numbersToDigits, parseNumberWords, type RawWord } from './numbers';
export { opensQuestion, properNoun } from './proper-nouns';

export interface FormatOptions {
  punctuate: boolean;
  formatText: boolean;
  /** A pause at least this long ends a sentence (ms). */
  sentencePauseMs?: number;
  /** Sentences longer than this many words are cut at their longest pause. */
  maxSentenceWords?: number;
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
    // A paragraph has one speaker (speaker_labels), as the cloud's do.
    if (prev && (s.start - prev.end >= pauseMs || count + s.words.length > maxWords || s.speaker !== prev.speaker)) flush();
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
