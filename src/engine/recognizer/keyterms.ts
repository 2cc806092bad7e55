/**
 * Keyterms for PocketSphinx: the words of a request's terms, words missing
 * from the dictionary added with phones built from dictionary words, and the
 * `warnings` text that says what happened (for a local model's hotwords too).
 */
import type { Decoder } from './sphinx-decoder';
import type { KeytermReport } from './types';

const list = (ws: string[]): string => ws.map((w) => `"${w}"`).join(', ');

/** One sentence for `metadata.warnings` / the transcript's `warnings`, or null when there were no keyterms. */
export function keytermWarning(r: KeytermReport | null): string | null {
  if (!r) return 'keyterms_prompt is not used by this recognizer; the terms were ignored.';
  if (r.by === 'unsupported')
    return 'keyterms_prompt is not used by this model (only transducer models such as Parakeet and Zipformer take keyterms); the terms were ignored.';
  if (r.by === 'hotwords') {
    const said: string[] = [];
    if (r.added.length) said.push(`favours ${list(r.added)} while decoding`);
    if (r.skipped.length) said.push(`could not use ${list(r.skipped)}: the model cannot spell them, so the terms holding them were left out`);
    return said.length ? `keyterms_prompt: the local model ${said.join('; ')}.` : null;
  }
  const parts: string[] = [];
  if (r.added.length) parts.push(`added ${list(r.added)} to its vocabulary (pronounced as the dictionary words that spell them)`);
  if (r.known.length) parts.push(`already knew ${list(r.known)} (it cannot weight known words further)`);
  if (r.skipped.length) parts.push(`could not add ${list(r.skipped)}: no pronunciation could be built for them, so they will not be recognized`);
  if (!parts.length) return null;
  return `keyterms_prompt: the local recognizer ${parts.join('; ')}.`;
}

/** The lower-case words of keyterms as the dictionary spells them ("Acme Corp." → acme, corp); at most 100. */
export function keytermWords(terms: string[]): string[] {
  const out = new Set<string>();
  for (const t of terms) {
    for (const w of t.toLowerCase().split(/[^a-z0-9']+/)) {
      const clean = w.replace(/^'+|'+$/g, '');
      if (clean && /[a-z]/.test(clean)) out.add(clean);
    }
  }
  return [...out].sort().slice(0, 100);
}

/** Adds the words the decoder's dictionary lacks; records on the decoder what became of each. */
export async function addWords(d: Decoder, words: string[]): Promise<void> {
  const missing: { word: string; phones: string }[] = [];
  for (const w of words) {
    if ((await d.lookup(w)) !== null) {
      d.keyterms.set(w, 'known');
      continue;
    }
    const phones = await composePhones(d, w);
    if (phones) missing.push({ word: w, phones });
    else d.keyterms.set(w, 'skipped');
  }
  for (let i = 0; i < missing.length; i++) {
    const m = missing[i] as { word: string; phones: string };
    // The search is rebuilt once, after the last word.
    const ok = await d.addWord(m.word, m.phones, i === missing.length - 1);
    d.keyterms.set(m.word, ok ? 'added' : 'skipped');
  }
}

/**
 * Phones for a word the dictionary lacks, from dictionary words that spell it
 * end to end with the fewest pieces, each at least two letters
 * ("kubernetes" = "kube" + "r" ... is refused; "zendesk" = "zen" + "desk").
 * PocketSphinx 5prealpha has no letter-to-sound rules in its API.
 */
async function composePhones(d: Decoder, word: string): Promise<string | null> {
  const n = word.length;
  const cache = new Map<string, string | null>();
  const look = async (piece: string): Promise<string | null> => {
    if (!cache.has(piece)) cache.set(piece, piece.length >= 2 ? await d.lookup(piece) : null);
    return cache.get(piece) ?? null;
  };
  // best[i]: fewest pieces spelling word[0, i), with their phones.
  const best: ({ pieces: number; phones: string[] } | null)[] = Array.from({ length: n + 1 }, () => null);
  best[0] = { pieces: 0, phones: [] };
  for (let i = 1; i <= n; i++) {
    for (let j = Math.max(0, i - 12); j < i; j++) {
      const prev = best[j];
      if (!prev) continue;
      const ph = await look(word.slice(j, i));
      if (ph === null) continue;
      const cur = best[i];
      if (!cur || prev.pieces + 1 < cur.pieces) best[i] = { pieces: prev.pieces + 1, phones: [...prev.phones, ph] };
    }
  }
  const done = best[n];
  // More than three pieces is guessing, not a pronunciation.
  return done && done.pieces <= 3 ? done.phones.join(' ') : null;
}
