/**
 * "What did I miss?": a summary of a stretch of the running session, written
 * by the gateway from the final turns of that stretch only, each line given
 * as `[mm:ss] text`. A model that writes summarises and cites `[mm:ss]`,
 * through the one summariser (chat/summarise.ts): a stretch longer than the
 * model's context is read in parts (progress in `parts`) and nothing of it is
 * dropped. The offline extractive model quotes the turns that weigh most (it
 * says so) and each quote gets its turn's moment. A citation of anything the
 * answer was not given is taken out. It streams and can be stopped; captions
 * never wait on it.
 */
import { randomUUID } from 'node:crypto';
import { checkCitations, clockLabel, type CitationSource, type GivenPassage } from '../../../shared/chat/citations';
import { partBudget, planSummary, tooSmallFor } from '../chat/summarise';
import type { MissedSummary } from '../../../shared/captions-extras';
import type { LiveTurn } from '../../../shared/captions';
import type { ChatMessage } from '../../../shared/api/gateway';

/** How the summary reaches the gateway: a streamed completion with `model`. */
export interface MissedModel {
  model: string;
  /** false for the offline extractive model. */
  generative: boolean;
  /** Tokens the model reads at once (default 8,192). */
  contextLength?: number;
  stream(messages: ChatMessage[], onDelta: (text: string) => void, signal: AbortSignal): Promise<string>;
}

export interface MissedRequest {
  recordingId: string;
  /** What to write instead of "What did I miss?" (the live summary's template), or none. */
  task?: string;
  fromMs: number;
  toMs: number;
  /** Every turn of the run so far; only the final ones that start within the stretch are given. */
  turns: LiveTurn[];
}

const SOURCE: CitationSource[] = [{ recordingId: 'session', label: '' }];
/** The most text of a stretch the offline extractive model ranks (it quotes, it does not summarise): the newest turns are kept. */
const MAX_CHARS = 24_000;
/** Tokens kept for the summary's answer. */
const ANSWER_TOKENS = 600;

/** Every final turn that starts within the stretch, in order. */
export function allTurnsInWindow(turns: LiveTurn[], fromMs: number, toMs: number): LiveTurn[] {
  return turns.filter((t) => t.final && t.text.trim() && t.startMs >= fromMs && t.startMs <= toMs).sort((a, b) => a.startMs - b.startMs);
}

/** The turns the extractive model ranks: the newest that fit in MAX_CHARS. */
export function turnsInWindow(turns: LiveTurn[], fromMs: number, toMs: number): LiveTurn[] {
  const inside = allTurnsInWindow(turns, fromMs, toMs);
  let chars = 0;
  let first = inside.length;
  while (first > 0 && chars + inside[first - 1]!.text.length <= MAX_CHARS) chars += inside[--first]!.text.length;
  return inside.slice(first);
}

export function missedMessages(turns: LiveTurn[], generative: boolean, minutes: string): ChatMessage[] {
  const lines = turns.map((t) => `[${clockLabel(t.startMs)}] ${t.text.replace(/\s+/g, ' ').trim()}`).join('\n');
  if (!generative) {
    // The extractive model ranks the lines by the words of the question: the stretch's own words pick the lines that weigh most.
    return [
      { role: 'system', content: turns.map((t) => t.text.replace(/\s+/g, ' ').trim()).join('\n') },
      { role: 'user', content: turns.map((t) => t.text).join(' ') },
    ];
  }
  return [
    {
      role: 'system',
      content:
        `You help someone who looked away during a live conversation catch up. Below are the captions of ${minutes}; each line starts with [mm:ss], the moment it was said. ` +
        'Summarise what they missed in a few short bullet points, using only these lines. After every point, cite the line it comes from exactly in that form, for example [' +
        clockLabel(turns[0]?.startMs ?? 0) +
        ']. Answer in Markdown, briefly.\n\nCaptions:\n' +
        lines,
    },
    { role: 'user', content: 'What did I miss?' },
  ];
}

/** Quotes of the extractive answer get the moment of the turn they come from, as `[mm:ss]` after them. */
export function citeTurnQuotes(answer: string, turns: LiveTurn[]): string {
  const norm = (s: string) =>
    s
      .toLowerCase()
      .replace(/[^\p{L}\p{N}]+/gu, ' ')
      .trim();
  const normed = turns.map((t) => ({ startMs: t.startMs, text: norm(t.text) }));
  return answer.replace(/"([^"\n]{2,2000})"(?!\s*\[)/g, (whole, quote: string) => {
    const q = norm(quote);
    if (!q) return whole;
    const hit = normed.find((t) => t.text.includes(q));
    return hit ? `${whole} [${clockLabel(hit.startMs)}]` : whole;
  });
}

export function describeWindow(fromMs: number, toMs: number, minutes?: number): string {
  return minutes ? `the last ${minutes} minutes` : `the stretch from ${clockLabel(fromMs)} to ${clockLabel(toMs)}`;
}

/**
 * Writes one summary: `update` gets the whole summary so far (streaming) and
 * its end (done, stopped or error). Resolves with the final one.
 */
export async function writeMissed(
  req: MissedRequest & { minutes?: number },
  model: MissedModel | { unavailable: string },
  update: (s: MissedSummary) => void,
  signal: AbortSignal,
  flushMs = 40,
): Promise<MissedSummary> {
  const generative = !('unavailable' in model) && model.generative;
  const turns = generative ? allTurnsInWindow(req.turns, req.fromMs, req.toMs) : turnsInWindow(req.turns, req.fromMs, req.toMs);
  const base: MissedSummary = {
    id: randomUUID(),
    recordingId: req.recordingId,
    fromMs: req.fromMs,
    toMs: req.toMs,
    status: 'streaming',
    content: '',
    citations: [],
    model: 'unavailable' in model ? null : model.model,
    extractive: 'unavailable' in model ? false : !model.generative,
    error: null,
    createdAt: new Date().toISOString(),
  };
  const what = describeWindow(req.fromMs, req.toMs, req.minutes);
  let given: GivenPassage[] = turns.map((t) => ({ recordingId: 'session', startMs: t.startMs }));
  if ('unavailable' in model) return end(base, 'error', '', turns, given, update, model.unavailable);
  if (turns.length === 0) return end(base, 'done', `Nothing was captioned in ${what}.`, turns, given, update, null);
  const small = generative ? tooSmallFor({ name: model.model, contextLength: model.contextLength ?? 8192 }, ANSWER_TOKENS) : null;
  if (small) return end(base, 'error', '', turns, given, update, small);
  update(base);
  let content = '';
  let timer: NodeJS.Timeout | null = null;
  const flush = () => {
    timer = null;
    update({ ...base, content });
  };
  try {
    let messages = missedMessages(turns, model.generative, what);
    if (generative) {
      const plan = await planSummary(
        {
          sources: SOURCE,
          lines: turns.map((t) => ({ recordingId: 'session', startMs: t.startMs, text: t.text })),
          bare: true,
          describe: `the captions of ${what} of a live conversation, for someone who looked away and wants to catch up`,
        },
        req.task ?? 'What did I miss? Summarise it in a few short bullet points, briefly.',
        partBudget(model.contextLength ?? 8192, ANSWER_TOKENS),
        {
          signal,
          progress: (done, total) => update({ ...base, parts: { done, total } }),
          complete: (m, s) => model.stream(m, () => undefined, s),
        },
      );
      // One part: the whole stretch as "What did I miss?" has always asked it; else the notes.
      if (plan.parts > 1 || req.task) messages = plan.messages;
      given = plan.given;
    }
    await model.stream(
      messages,
      (piece) => {
        content += piece;
        timer ??= setTimeout(flush, flushMs);
      },
      signal,
    );
    if (timer) clearTimeout(timer);
    return end(base, 'done', content, turns, given, update, null, model.generative);
  } catch (e) {
    if (timer) clearTimeout(timer);
    if (signal.aborted) return end(base, 'stopped', content, turns, given, update, null, model.generative);
    return end(base, 'error', content, turns, given, update, e instanceof Error ? e.message : String(e), model.generative);
  }
}

function end(
  base: MissedSummary,
  status: MissedSummary['status'],
  raw: string,
  turns: LiveTurn[],
  given: GivenPassage[],
  update: (s: MissedSummary) => void,
  error: string | null,
  generative = true,
): MissedSummary {
  // Every citation must name a moment the answer was given (a turn of the stretch, or one its notes cite): any other is taken out.
  const cited = generative ? raw : citeTurnQuotes(raw, turns);
  const checked = checkCitations(cited, SOURCE, given);
  const out: MissedSummary = {
    ...base,
    status,
    content: checked.text,
    error,
    citations: checked.citations.map((c) => ({ startMs: c.atMs, label: clockLabel(c.atMs) })),
  };
  update(out);
  return out;
}
