/**
 * Whether each bullet of a summary is supported by the lines it cites: the
 * numbers and names it states must occur in those lines, and most of its
 * content words too. A bullet with no citation, or one its citations do not
 * support, is marked "not found in the cited moments" instead of being shown
 * as fact. Citations are the bare `[mm:ss]` of one live session.
 */
import { parseClock } from '../../../shared/chat/citations';

export const NOT_FOUND = 'not found in the cited moments';

const STOP = new Set(
  (
    'a an and are as at be been but by can could did do does for from had has have he her him his how i if in into is it its just me more most ' +
    'my no not of on one or our out over she so some than that the their them then there these they this those to too up us was we were what when where ' +
    'which who will with would you your about after again also all any because before being between both during each few further here just may might ' +
    'must now only other own same should such very said says say will shall going get got make made take took want'
  ).split(' '),
);

function norm(s: string): string {
  return s
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '');
}

const CITE = /\[(\d{1,3}:\d{2}(?::\d{2})?)\]/g;

/** What a bullet states: its numbers, its names (capitalised words, the opening one too), its content words. */
export function claims(bullet: string): { numbers: string[]; names: string[]; words: string[] } {
  const text = bullet.replace(CITE, ' ').replace(/^\s*(?:[-*•+]|\d+[.)])\s+/, '');
  const numbers = [...text.matchAll(/\d+(?:[.,]\d+)*/g)].map((m) => m[0].replace(/,/g, ''));
  const tokens = [...text.matchAll(/[\p{L}][\p{L}'’-]*/gu)].map((m) => m[0]);
  const names: string[] = [];
  const words: string[] = [];
  tokens.forEach((word) => {
    const lower = norm(word);
    if (STOP.has(lower)) return;
    // A capitalised word is a name, or the bullet's subject when it opens a sentence: either way the cited lines must say it.
    if (/^\p{Lu}/u.test(word)) names.push(lower);
    else if (lower.length >= 4) words.push(lower);
  });
  return { numbers, names, words };
}

/** Whether `bullet` is supported by `cited` (the text of the lines it cites). */
export function supported(bullet: string, cited: string): boolean {
  const hay = norm(cited);
  const hayNumbers = new Set([...hay.matchAll(/\d+(?:[.,]\d+)*/g)].map((m) => m[0].replace(/,/g, '')));
  const hayWords = [...hay.matchAll(/[\p{L}][\p{L}'’-]*/gu)].map((m) => m[0]);
  const has = (w: string) => {
    const stem = w.slice(0, Math.max(4, Math.min(w.length, 5)));
    return hayWords.some((h) => h === w || (h.length >= 4 && h.startsWith(stem)) || (w.length > h.length && h.length >= 4 && w.startsWith(h)));
  };
  const c = claims(bullet);
  if (!c.numbers.every((n) => hayNumbers.has(n))) return false;
  if (!c.names.every(has)) return false;
  if (!c.words.length) return true;
  return c.words.filter(has).length * 2 >= c.words.length;
}

/**
 * Every bullet of `markdown` checked against the lines it cites (`lines`:
 * the session's turns, a citation naming the second one starts in); an
 * unsupported one gets " (not found in the cited moments)".
 */
export function markUnsupported(markdown: string, lines: { startMs: number; text: string }[]): { text: string; marked: number } {
  const bySecond = new Map<number, string[]>();
  for (const l of lines) {
    const s = Math.floor(l.startMs / 1000);
    bySecond.set(s, [...(bySecond.get(s) ?? []), l.text]);
  }
  let marked = 0;
  const out = markdown.split('\n').map((line) => {
    if (!/^\s*(?:[-*•+]|\d+[.)])\s+\S/.test(line)) return line;
    const cited = [...line.matchAll(CITE)].flatMap((m) => {
      const ms = parseClock(m[1] ?? '');
      return ms === null ? [] : (bySecond.get(Math.floor(ms / 1000)) ?? []);
    });
    if (cited.length && supported(line, cited.join(' '))) return line;
    marked++;
    return `${line.trimEnd()} (${NOT_FOUND})`;
  });
  return { text: out.join('\n'), marked };
}
