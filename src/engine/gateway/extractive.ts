/**
 * `verbatim-extractive`: the built-in, offline model. It does not generate
 * text: it ranks the sentences of the transcripts named in the request (or
 * of text pasted into the messages) against the question with BM25 and
 * quotes the best few with their start times, saying plainly that it did so.
 * Its work is bounded (passages and question length are capped) and runs in
 * slices that yield to the event loop, so one long request cannot stall the
 * engine's other requests and streams.
 */
import { EventEmitter } from 'node:events';
import { cutAtStop } from './stop';
import { contentText, type ChatProvider, type ChatRequest, type Completion, type CompletionDelta, type ModelInfo, roughTokens } from './provider';

export const EXTRACTIVE_MODEL = 'verbatim-extractive';
const TOP = 3;
/** Passages scored per request: about 100 hours of speech; beyond it the first ones are searched and the answer says so. */
export const MAX_PASSAGES = 50_000;
/** Characters of the question that are scored (the rest is context, not search terms). */
export const MAX_QUESTION_CHARS = 2000;
/** Passages tokenized between two yields to the event loop. */
const SLICE = 500;

const STOP = new Set(
  'a an the and or but if of to in on at by for with from as is are was were be been being do does did what which who whom whose when where why how this that these those it its i you he she we they me him her us them my your our their there here about into over than then so not no yes can could would should will shall may might must have has had just also very too any some all each every tell please say said according transcript recording speaker'.split(
    ' ',
  ),
);

export function tokenize(s: string): string[] {
  return (s.toLowerCase().match(/[a-z0-9']+/g) ?? [])
    .map((w) => w.replace(/'s$/, '').replace(/'/g, ''))
    .filter((w) => w.length > 1 && !STOP.has(w))
    .map(stem);
}

function stem(w: string): string {
  if (w.length > 5 && w.endsWith('ing')) return w.slice(0, -3);
  if (w.length > 4 && w.endsWith('ed')) return w.slice(0, -2);
  if (w.length > 4 && w.endsWith('ies')) return `${w.slice(0, -3)}y`;
  if (w.length > 3 && w.endsWith('s') && !w.endsWith('ss')) return w.slice(0, -1);
  return w;
}

export interface Passage {
  text: string;
  /** ms, or null for pasted text. */
  start: number | null;
  source: string | null;
}

/** BM25 (k1 1.2, b 0.75) scores of each passage for the query, computed in slices (each `yield` is a point to give the event loop back). */
function* bm25Slices(query: string, passages: Passage[]): Generator<void, number[]> {
  const docs: string[][] = [];
  for (let i = 0; i < passages.length; i++) {
    docs.push(tokenize((passages[i] as Passage).text));
    if (i % SLICE === SLICE - 1) yield;
  }
  const n = docs.length;
  const avg = docs.reduce((a, d) => a + d.length, 0) / Math.max(1, n);
  const df = new Map<string, number>();
  for (const d of docs) for (const t of new Set(d)) df.set(t, (df.get(t) ?? 0) + 1);
  yield;
  const q = [...new Set(tokenize(query.slice(0, MAX_QUESTION_CHARS)))];
  const scores: number[] = [];
  for (let i = 0; i < n; i++) {
    const d = docs[i] as string[];
    const tf = new Map<string, number>();
    for (const t of d) tf.set(t, (tf.get(t) ?? 0) + 1);
    let score = 0;
    for (const t of q) {
      const f = tf.get(t) ?? 0;
      if (!f) continue;
      const idf = Math.log(1 + (n - (df.get(t) ?? 0) + 0.5) / ((df.get(t) ?? 0) + 0.5));
      score += (idf * f * 2.2) / (f + 1.2 * (0.25 + (0.75 * d.length) / Math.max(1, avg)));
    }
    scores.push(score);
    if (i % SLICE === SLICE - 1) yield;
  }
  return scores;
}

/** BM25 scores, all at once (small inputs and tests). */
export function bm25(query: string, passages: Passage[]): number[] {
  const it = bm25Slices(query, passages);
  for (;;) {
    const r = it.next();
    if (r.done) return r.value;
  }
}

/**
 * What the yielding scorer is doing, for probes and tests: `scoring` (with the
 * passage count) when a request's scoring starts, `scored` when it ends. Tests
 * use the order of these events to show other requests are served meanwhile.
 */
export const scoringEvents = new EventEmitter<{ scoring: [passages: number]; scored: [passages: number] }>();

/** BM25 scores, giving the event loop back between slices. */
export async function bm25Yielding(query: string, passages: Passage[]): Promise<number[]> {
  const it = bm25Slices(query, passages);
  scoringEvents.emit('scoring', passages.length);
  for (;;) {
    const r = it.next();
    if (r.done) {
      scoringEvents.emit('scored', passages.length);
      return r.value;
    }
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
}

export function clock(ms: number): string {
  const s = Math.floor(ms / 1000);
  const h = Math.floor(s / 3600);
  const mm = String(Math.floor((s % 3600) / 60)).padStart(2, '0');
  const ss = String(s % 60).padStart(2, '0');
  return h ? `${h}:${mm}:${ss}` : `${mm}:${ss}`;
}

function splitSentences(text: string): string[] {
  return (text.match(/[^.!?\n]+[.!?]*/g) ?? []).map((s) => s.trim()).filter((s) => s.length > 0);
}

/** The question and the passages to search, from the request. */
export function gather(req: ChatRequest): { question: string; passages: Passage[]; truncated: boolean } {
  const users = req.messages.filter((m) => m.role === 'user');
  let question = contentText(users[users.length - 1]?.content ?? '');
  const passages: Passage[] = [];
  const seen = new Set<string>();
  for (const t of req.transcripts) {
    // A transcript named twice is searched once (a body listing one id thousands of times must not multiply the work).
    if (seen.has(t.id)) continue;
    seen.add(t.id);
    for (const s of t.sentences) passages.push({ text: s.text, start: s.start, source: t.id });
    // The transcript text may have been injected into the question itself.
    if (t.text && question.includes(t.text)) question = question.replace(t.text, ' ');
  }
  if (passages.length === 0) {
    for (const m of req.messages) {
      if (m === users[users.length - 1] || (m.role !== 'system' && m.role !== 'user')) continue;
      for (const s of splitSentences(contentText(m.content))) passages.push({ text: s, start: null, source: null });
    }
    if (passages.length === 0) {
      // Text and question pasted together: the question is the last sentence (or the last one asking).
      const parts = splitSentences(question);
      const qi = parts.map((p) => p.endsWith('?')).lastIndexOf(true);
      const at = qi >= 0 ? qi : parts.length - 1;
      if (parts.length > 1) {
        question = parts[at] as string;
        parts.forEach((p, i) => i !== at && passages.push({ text: p, start: null, source: null }));
      }
    }
  }
  const truncated = passages.length > MAX_PASSAGES;
  if (truncated) passages.length = MAX_PASSAGES;
  return { question: question.trim(), passages, truncated };
}

/** The answer text, from the request and the passages' scores. */
function compose(question: string, passages: Passage[], truncated: boolean, scores: number[]): string {
  const notice =
    "This answer is extractive: verbatim-extractive, the local engine's offline model, quotes the sentences that best match your question and does not write new text.";
  if (passages.length === 0) {
    return `${notice}\n\nThere is nothing to quote: name a transcript with transcript_id or paste the text into the messages. For written answers, download a chat model in Settings → Models (Qwen2.5 1.5B Instruct is a good start), or configure an OpenAI-compatible model (for example Ollama) in the engine.`;
  }
  const ranked = scores
    .map((score, i) => ({ score, i }))
    .filter((r) => r.score > 0)
    .sort((a, b) => b.score - a.score || a.i - b.i)
    .slice(0, TOP)
    .sort((a, b) => a.i - b.i);
  const partial = truncated
    ? `\n\nOnly the first ${MAX_PASSAGES.toLocaleString('en-US')} sentences were searched; ask about fewer transcripts to search all of them.`
    : '';
  if (ranked.length === 0) {
    return `${notice}\n\nNo sentence matches the words of your question ("${question.slice(0, 200)}"). Try other words from the recording.${partial}`;
  }
  const multi = new Set(passages.map((p) => p.source)).size > 1;
  const lines = ranked.map(({ i }) => {
    const p = passages[i] as Passage;
    const where = p.start === null ? '' : `[${clock(p.start)}${multi && p.source ? ` in ${p.source}` : ''}] `;
    return `- ${where}"${p.text}"`;
  });
  return `${notice}\n\nMost relevant ${ranked.length === 1 ? 'sentence' : 'sentences'}:\n${lines.join('\n')}${partial}`;
}

export function extractiveAnswer(req: ChatRequest): string {
  const { question, passages, truncated } = gather(req);
  return compose(question, passages, truncated, passages.length ? bm25(question, passages) : []);
}

/** The same answer, scored in slices that give the event loop back (what the provider uses). */
export async function extractiveAnswerYielding(req: ChatRequest): Promise<string> {
  const { question, passages, truncated } = gather(req);
  return compose(question, passages, truncated, passages.length ? await bm25Yielding(question, passages) : []);
}

export class ExtractiveProvider implements ChatProvider {
  readonly kind = 'verbatim-extractive' as const;
  readonly supportsTools = false;
  readonly generative = false;

  models(): ModelInfo[] {
    return [
      {
        id: EXTRACTIVE_MODEL,
        name: 'Verbatim extractive (offline)',
        description:
          'Built into the local engine, no network: quotes the transcript sentences that best answer the question (BM25 retrieval), with their start times. It does not generate text.',
        context_length: 1_000_000,
      },
    ];
  }

  async complete(req: ChatRequest): Promise<Completion> {
    const { content, finish_reason } = bounded(await extractiveAnswerYielding(req), req);
    const prompt = req.messages.map((m) => contentText(m.content)).join('\n');
    return { content, finish_reason, usage: { prompt_tokens: roughTokens(prompt), completion_tokens: roughTokens(content) } };
  }

  async *stream(req: ChatRequest): AsyncGenerator<CompletionDelta> {
    const { content, finish_reason } = bounded(await extractiveAnswerYielding(req), req);
    yield { role: 'assistant', content: '' };
    for (const piece of content.split(/(?<=\n)/)) yield { content: piece };
    yield { finish_reason };
  }
}

/** The answer ended at the first stop sequence and cut to max_tokens (at about four characters a token, on a word boundary when there is one). */
function bounded(answer: string, req: ChatRequest): { content: string; finish_reason: 'stop' | 'length' } {
  const { text } = cutAtStop(answer, req.stop);
  const most = req.max_tokens * 4;
  if (text.length <= most) return { content: text, finish_reason: 'stop' };
  const head = text.slice(0, most);
  const space = head.lastIndexOf(' ');
  return { content: space > most / 2 ? head.slice(0, space) : head, finish_reason: 'length' };
}
