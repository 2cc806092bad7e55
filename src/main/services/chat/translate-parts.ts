/**
 * A transcript's translation, whole: the paragraphs are numbered and cut
 * into parts whose text and translation fit the model's context together;
 * each part is asked for exactly its paragraphs (a JSON list of that length).
 * A paragraph the model left empty is asked again on its own once; one longer
 * than a part is translated in pieces. Progress is reported part by part.
 */
import type { ChatCompletionRequest as ChatRequest } from '../../../shared/api/gateway';
import { AppError } from '../../../shared/errors';

export type TranslateCall = (body: Omit<ChatRequest, 'model'>, signal: AbortSignal) => Promise<string>;

const INSTRUCTIONS =
  'You translate transcripts paragraph by paragraph. Answer in JSON: {"paragraphs": [...]}, one translated string per numbered paragraph, in order, without the numbers.';

/** Characters of source text one part may hold: it and its translation (about as long) share the context. */
export function translationPartChars(contextLength: number): number {
  return Math.max(400, Math.floor(((contextLength - 300) / 2) * 3.5 * 0.7));
}

function parse(text: string): string[] {
  const trimmed = text
    .trim()
    .replace(/^```(?:json)?\s*/i, '')
    .replace(/\s*```$/, '');
  try {
    const v = JSON.parse(trimmed) as { paragraphs?: unknown };
    return Array.isArray(v.paragraphs) ? v.paragraphs.map((p) => (typeof p === 'string' ? p.trim() : '')) : [];
  } catch {
    throw new AppError('server_error', 'The model did not answer in the requested structure. Try again, or choose another model.');
  }
}

/** Pieces of one paragraph, each at most `max` characters, cut at sentence or word ends where it can. */
function pieces(text: string, max: number): string[] {
  if (text.length <= max) return [text];
  const out: string[] = [];
  let rest = text;
  while (rest.length > max) {
    const window = rest.slice(0, max);
    const cut = Math.max(window.lastIndexOf('. '), window.lastIndexOf('? '), window.lastIndexOf('! '));
    const at = cut > max / 3 ? cut + 1 : window.lastIndexOf(' ') > max / 3 ? window.lastIndexOf(' ') : max;
    out.push(rest.slice(0, at).trim());
    rest = rest.slice(at).trim();
  }
  if (rest) out.push(rest);
  return out;
}

/** The translation of every paragraph of `paragraphs`, in order. */
export async function translateParagraphs(
  paragraphs: string[],
  language: string,
  contextLength: number,
  call: TranslateCall,
  progress: (done: number, total: number) => void,
  signal: AbortSignal,
): Promise<string[]> {
  const max = translationPartChars(contextLength);
  // Units: each a piece of one paragraph (most paragraphs are one piece).
  const units = paragraphs.flatMap((p, index) => pieces(p.replace(/\s+/g, ' ').trim(), max).map((text) => ({ index, text })));
  const parts: (typeof units)[] = [];
  let cur: typeof units = [];
  let used = 0;
  for (const u of units) {
    const n = u.text.length + 8;
    if (used + n > max && cur.length) {
      parts.push(cur);
      cur = [];
      used = 0;
    }
    cur.push(u);
    used += n;
  }
  if (cur.length) parts.push(cur);
  const ask = async (list: typeof units): Promise<string[]> => {
    if (signal.aborted) throw new AppError('canceled', 'Stopped.');
    const chars = list.reduce((a, u) => a + u.text.length, 0);
    const schema = {
      type: 'object',
      properties: { paragraphs: { type: 'array', items: { type: 'string' }, minItems: list.length, maxItems: list.length } },
      required: ['paragraphs'],
      additionalProperties: false,
    };
    return parse(
      await call(
        {
          max_tokens: Math.min(8000, Math.max(300, Math.ceil(chars / 2) + list.length * 8)),
          messages: [
            { role: 'system', content: INSTRUCTIONS },
            { role: 'user', content: `Translate into ${language}:\n\n${list.map((u, i) => `${i + 1}. ${u.text}`).join('\n')}` },
          ],
          response_format: { type: 'json_schema', json_schema: { name: 'translation', schema } },
        },
        signal,
      ),
    );
  };
  const out: string[][] = paragraphs.map(() => []);
  for (let i = 0; i < parts.length; i++) {
    progress(i, parts.length);
    const part = parts[i] as typeof units;
    const got = await ask(part);
    for (let j = 0; j < part.length; j++) {
      let t = got[j] ?? '';
      // A paragraph left out is asked again on its own, once.
      if (!t && part[j]!.text) t = (await ask([part[j]!]))[0] ?? '';
      out[part[j]!.index]!.push(t);
    }
  }
  progress(parts.length, parts.length);
  return out.map((p) => p.filter(Boolean).join(' '));
}
