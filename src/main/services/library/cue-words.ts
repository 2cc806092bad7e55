/**
 * Cue text against the transcript's words: a cue whose text still has one
 * token per word of its range takes corrected words in when read, and gives
 * its changed tokens back as word corrections when written.
 */
import { cueDisplayText, decodeEntities, type Cue } from '../../../shared/subtitles/index';
import type { Word } from '../../../shared/library';

/** Tokens of a cue's text with the separators between them, dialogue hyphens left out of the tokens. */
function tokenize(text: string): { tokens: string[]; rebuild(replacement: string[]): string } {
  const parts = text.split(/(\s+)/);
  const at: number[] = [];
  parts.forEach((p, i) => {
    if (p === '' || /^\s+$/.test(p)) return;
    // A hyphen opening a line is a dialogue mark, not a word.
    if (p === '-' && (i === 0 || /\n/.test(parts[i - 1] ?? ''))) return;
    at.push(i);
  });
  return {
    tokens: at.map((i) => parts[i]!),
    rebuild(replacement) {
      const out = parts.slice();
      at.forEach((i, k) => (out[i] = replacement[k] ?? out[i]!));
      return out.join('');
    },
  };
}

/** A cue's text with its tokens taken from the current words, when it still has one token per word. */
export function withWords(c: Cue, words: readonly Word[]): Cue {
  if (!c.words) return c;
  const [a, b] = c.words;
  if (b >= words.length) return { ...c, words: undefined };
  const t = tokenize(c.text);
  if (t.tokens.length !== b - a + 1) return c;
  let same = true;
  const next = t.tokens.map((tok, k) => {
    const w = words[a + k]!.text;
    // Tags (<i>, <b>, {\an8}) around a word stay; only the word inside changes (written as an entity where the file wrote one).
    const raw = tok.replace(/<[^>]*>|\{\\[^}]*\}/g, '');
    const bare = decodeEntities(raw);
    if (bare === w) return tok;
    same = false;
    const written = raw === bare ? w : w.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
    return raw ? tok.replace(raw, () => written) : written;
  });
  return same ? c : { ...c, text: t.rebuild(next) };
}

/** Word corrections a cue's text asks for: one per changed token, when its tokens still map one to one onto its words. */
export function correctionsOf(c: Cue, words: readonly Word[]): { index: number; text: string }[] {
  if (!c.words) return [];
  const [a, b] = c.words;
  if (b >= words.length) return [];
  const tokens = tokenize(c.text).tokens.map((t) => cueDisplayText(t));
  if (tokens.length !== b - a + 1) return [];
  const out: { index: number; text: string }[] = [];
  tokens.forEach((tok, k) => {
    if (words[a + k]!.text !== tok && tok.length <= 200) out.push({ index: a + k, text: tok });
  });
  return out;
}
