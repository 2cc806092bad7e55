/**
 * Answers that quote a transcript without times (the cloud's `{{ transcript }}`
 * carries none): each quote found in a sentence gets that sentence's
 * `[Label @ mm:ss]` after it, so it becomes a citation like any other.
 */
import { clockLabel } from '../../../shared/chat/citations';

function norm(s: string): string {
  return s
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

export function citeQuotes(answer: string, sentences: { startMs: number; text: string }[], label: string): string {
  const normed = sentences.map((s) => ({ startMs: s.startMs, text: norm(s.text) }));
  return answer.replace(/[“"]([^”"\n]{12,600})[”"](?!\s*\[)/g, (whole, quote: string) => {
    const q = norm(quote);
    if (q.split(' ').length < 3) return whole;
    const hit = normed.find((s) => s.text.includes(q) || (q.includes(s.text) && s.text.split(' ').length >= 4));
    return hit ? `${whole} [${label} @ ${clockLabel(hit.startMs)}]` : whole;
  });
}
