/** Word error rate: (substitutions + deletions + insertions) / reference words, after normalising case, punctuation and numbers. */

/** Titles scored as the words that are said ("Mr." and "mister" are one word read two ways), as common WER normalisers do. */
const SAID: Readonly<Record<string, string>> = { mr: 'mister', mrs: 'missus', dr: 'doctor' };
const DIGITS = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine'];

export function normalizeForWer(text: string): string[] {
  return (
    text
      .toLowerCase()
      .replace(/[^a-z0-9' ]+/g, ' ')
      .split(/\s+/)
      .filter(Boolean)
      // Digit strings: up to 4 digits read as a number ("2026", "10"), longer ones digit by digit (phone numbers, codes).
      .flatMap((w) =>
        /^\d+$/.test(w) ? (w.length <= 4 && !w.startsWith('0') ? numberWords(Number(w)) : w.split('').map((d) => DIGITS[Number(d)] as string)) : [SAID[w] ?? w],
      )
  );
}

function numberWords(n: number): string[] {
  const small = [...DIGITS, 'ten', 'eleven', 'twelve', 'thirteen', 'fourteen', 'fifteen', 'sixteen', 'seventeen', 'eighteen', 'nineteen'];
  const tens = ['', '', 'twenty', 'thirty', 'forty', 'fifty', 'sixty', 'seventy', 'eighty', 'ninety'];
  if (n < 20) return [small[n] as string];
  if (n < 100) return [tens[Math.floor(n / 10)] as string, ...(n % 10 ? [small[n % 10] as string] : [])];
  if (n < 1000) return [small[Math.floor(n / 100)] as string, 'hundred', ...(n % 100 ? numberWords(n % 100) : [])];
  if (n < 1_000_000) return [...numberWords(Math.floor(n / 1000)), 'thousand', ...(n % 1000 ? numberWords(n % 1000) : [])];
  return String(n)
    .split('')
    .map((d) => DIGITS[Number(d)] as string);
}

export function wordErrorRate(reference: string, hypothesis: string): number {
  const r = normalizeForWer(reference);
  const h = normalizeForWer(hypothesis);
  if (!r.length) return h.length ? 1 : 0;
  let prev = Array.from({ length: h.length + 1 }, (_, j) => j);
  for (let i = 1; i <= r.length; i++) {
    const cur = [i];
    for (let j = 1; j <= h.length; j++) {
      cur[j] = Math.min((prev[j] as number) + 1, (cur[j - 1] as number) + 1, (prev[j - 1] as number) + (r[i - 1] === h[j - 1] ? 0 : 1));
    }
    prev = cur;
  }
  return (prev[h.length] as number) / r.length;
}
