/**
 * sherpa-onnx's per-token results joined into the engine's words: a token that starts with a space (the
 * model's word-start mark) opens a word; its time is the first token's, its end the last token's time plus
 * its duration (TDT) or the next word's start; confidence from the tokens' log-probabilities (confidence.ts). Models with no token times get
 * times spread over the clip by character length (`spreadWords`), which callers mark approximate.
 */
import type { RecognizedWord } from '../types';
import type { SherpaResult } from './child-asr';
import { NO_CONFIDENCE, wordConfidence } from './confidence';

/** A word's end when the model gives no duration: at most this long after its last token. */
const MAX_TAIL_S = 0.5;

/** Upper-case-only vocabularies (the zipformer English models) read in lower case, as our text formatting expects. */
function normalizeCase(text: string): string {
  return /[a-z]/.test(text) ? text : text.toLowerCase();
}

/** Words with times (ms from the clip's start) from a result with token timestamps; [] when it has none. */
export function wordsFromTokens(r: SherpaResult, clipMs: number): RecognizedWord[] {
  const tokens = r.tokens ?? [];
  const ts = r.timestamps ?? [];
  if (tokens.length === 0 || ts.length !== tokens.length) return [];
  const durs = r.durations && r.durations.length === tokens.length ? r.durations : null;
  const lp = r.ys_log_probs?.length ? r.ys_log_probs : r.ys_probs;
  const logp = lp && lp.length === tokens.length ? lp : null;
  const groups: { text: string; first: number; last: number; logp: number[] }[] = [];
  tokens.forEach((tok, i) => {
    const opens = groups.length === 0 || /^\s/.test(tok);
    const piece = tok.replace(/^\s+/, '');
    if (opens) groups.push({ text: piece, first: i, last: i, logp: [] });
    else {
      const g = groups[groups.length - 1] as (typeof groups)[number];
      g.text += piece;
      g.last = i;
    }
    if (logp) (groups[groups.length - 1] as (typeof groups)[number]).logp.push(logp[i] as number);
  });
  const words: RecognizedWord[] = [];
  groups.forEach((g, gi) => {
    if (!g.text.trim()) return;
    const start = ts[g.first] as number;
    const lastT = ts[g.last] as number;
    const next = groups[gi + 1] ? (ts[(groups[gi + 1] as (typeof groups)[number]).first] as number) : clipMs / 1000;
    const end = durs ? lastT + (durs[g.last] as number) : Math.min(next, lastT + MAX_TAIL_S);
    words.push({
      text: normalizeCase(g.text.trim()),
      start: Math.round(start * 1000),
      end: Math.round(Math.max(start + 0.01, Math.min(end, clipMs / 1000)) * 1000),
      confidence: wordConfidence(g.logp),
    });
  });
  return words;
}

/** Words of `text` with times spread over [0, clipMs] by character length (models that give no times). */
export function spreadWords(text: string, clipMs: number): RecognizedWord[] {
  const parts = normalizeCase(text).split(/\s+/).filter(Boolean);
  const chars = parts.reduce((a, p) => a + p.length + 1, 0);
  if (parts.length === 0 || chars === 0) return [];
  const words: RecognizedWord[] = [];
  let at = 0;
  for (const p of parts) {
    const len = ((p.length + 1) / chars) * clipMs;
    words.push({ text: p, start: Math.round(at), end: Math.round(at + len * (p.length / (p.length + 1))), confidence: NO_CONFIDENCE });
    at += len;
  }
  return words;
}
