/**
 * Subtitle cues translated cue by cue, in parts that fit the model's context
 * (the budget of translate-parts.ts, which translates transcripts): each part
 * is sent as numbered cues after the one or two cues before it, given as
 * read-only context so a sentence that runs over cues reads on; the answer is
 * a JSON list with exactly one string per numbered cue. An answer of the
 * wrong length is asked again once, then the part is halved until each half
 * answers right (a single cue whose answer still has the wrong length takes
 * what was said, joined). Each finished part is handed to `onPart` at once, so
 * a Stop or a dropped connection keeps what was done.
 */
import { AppError } from '../../../shared/errors';
import { translationPartChars, type TranslateCall } from './translate-parts';

/** Cues of one part, at most: a longer JSON list is where small models lose count. */
export const MAX_CUES_PER_PART = 40;
/** Cues before a part sent as context. */
const CONTEXT_CUES = 2;

const instructions = (language: string) =>
  `You translate subtitles into ${language}, cue by cue. Answer in JSON: {"cues": [...]}, exactly one translated string per numbered cue, in order, without the numbers. ` +
  'A sentence may run over several cues: translate it so each cue holds its own part and the whole reads naturally. ' +
  'Lines under "Before" are earlier cues, for meaning only: do not translate or repeat them.';

/** One cue to translate: its place in the track and its text on one line. */
export interface CueToTranslate {
  index: number;
  text: string;
}

export interface CueTranslation {
  /** Cues with text to translate; `all[i].text` is cue `i`'s source, used for context. */
  todo: CueToTranslate[];
  all: string[];
  language: string;
  contextLength: number;
  call: TranslateCall;
  /** A part is done: its cues and their translations (stored by the caller before the next part starts). */
  onPart(cues: { index: number; text: string }[]): void;
  signal: AbortSignal;
}

/** The model's context, in tokens, that one cue with its context and answer needs at least. */
export function tokensForOneCue(longestCue: number, language: string): number {
  return 300 + Math.ceil((instructions(language).length + longestCue * (CONTEXT_CUES + 3)) / 3);
}

/** A message when the model cannot take even one cue with its context; null when it can. */
export function tooSmallForCues(model: { name: string; contextLength: number }, longestCue: number, language: string): string | null {
  if (model.contextLength >= tokensForOneCue(longestCue, language)) return null;
  return (
    `${model.name} reads only ${model.contextLength} tokens at once, too few to translate even one cue with the cues around it. ` +
    'Choose a model with a larger context: download a chat model in Settings → Models (Qwen2.5 1.5B Instruct reads 32,000 tokens), or add a cloud key in Settings.'
  );
}

/** The cues to translate, cut into parts: consecutive cues whose text fits the budget, at most MAX_CUES_PER_PART. */
export function cueParts(todo: readonly CueToTranslate[], contextLength: number): CueToTranslate[][] {
  // The prompt also holds the instructions and the cues before: a part takes a little less than a transcript's.
  const max = Math.max(200, Math.floor(translationPartChars(contextLength) * 0.8));
  const parts: CueToTranslate[][] = [];
  let cur: CueToTranslate[] = [];
  let used = 0;
  for (const c of todo) {
    const n = c.text.length + 6;
    const prev = cur[cur.length - 1];
    const gap = prev !== undefined && prev.index !== c.index - 1;
    if (cur.length && (used + n > max || cur.length >= MAX_CUES_PER_PART || gap)) {
      parts.push(cur);
      cur = [];
      used = 0;
    }
    cur.push(c);
    used += n;
  }
  if (cur.length) parts.push(cur);
  return parts;
}

function parse(text: string): string[] | null {
  const trimmed = text
    .trim()
    .replace(/^```(?:json)?\s*/i, '')
    .replace(/\s*```$/, '');
  try {
    const v = JSON.parse(trimmed) as { cues?: unknown };
    return Array.isArray(v.cues) ? v.cues.map((p) => (typeof p === 'string' ? p.replace(/\s+/g, ' ').trim() : '')) : null;
  } catch {
    return null;
  }
}

/** Translates `todo` part by part; returns how many parts were asked (a halved part counts each ask). */
export async function translateCues(t: CueTranslation): Promise<{ asks: number }> {
  let asks = 0;
  const ask = async (list: CueToTranslate[]): Promise<string[] | null> => {
    if (t.signal.aborted) throw new AppError('canceled', 'Stopped.');
    const first = list[0]!.index;
    const before = t.all.slice(Math.max(0, first - CONTEXT_CUES), first).filter(Boolean);
    const chars = list.reduce((a, c) => a + c.text.length, 0);
    const schema = {
      type: 'object',
      properties: { cues: { type: 'array', items: { type: 'string' }, minItems: list.length, maxItems: list.length } },
      required: ['cues'],
      additionalProperties: false,
    };
    asks++;
    const system = instructions(t.language);
    const user =
      (before.length ? `Before:\n${before.map((b) => `- ${b}`).join('\n')}\n\n` : '') +
      `Translate into ${t.language}:\n${list.map((c, i) => `${i + 1}. ${c.text}`).join('\n')}`;
    // The answer gets what the prompt leaves of the context (a token is about 3 characters or more).
    const room = t.contextLength - Math.ceil((system.length + user.length) / 3) - 32;
    const answer = await t.call(
      {
        max_tokens: Math.max(32, Math.min(8000, room, Math.ceil(chars / 1.2) + list.length * 12 + 32)),
        messages: [
          { role: 'system', content: system },
          { role: 'user', content: user },
        ],
        response_format: { type: 'json_schema', json_schema: { name: 'subtitle_translation', schema } },
      },
      t.signal,
    );
    return parse(answer);
  };
  /** Exactly one translation per cue of `list`: asked again once, then halved. */
  const solve = async (list: CueToTranslate[]): Promise<string[]> => {
    let got = await ask(list);
    if (got?.length !== list.length) got = await ask(list);
    if (got?.length === list.length) return got;
    if (list.length === 1) {
      if (got && got.some(Boolean)) return [got.filter(Boolean).join(' ')];
      throw new AppError('server_error', 'The model did not answer in the requested structure, twice. Try again, or choose another model.');
    }
    const half = Math.ceil(list.length / 2);
    return [...(await solve(list.slice(0, half))), ...(await solve(list.slice(half)))];
  };
  for (const part of cueParts(t.todo, t.contextLength)) {
    const got = await solve(part);
    t.onPart(part.map((c, i) => ({ index: c.index, text: got[i] ?? '' })));
  }
  return { asks };
}
