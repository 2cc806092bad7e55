/**
 * "What did I miss?": a summary of a stretch of the running session, written
 * by the gateway from the final turns of that stretch only, each line given
 * as `[mm:ss] text`. A model that writes summarises and cites `[mm:ss]`; the
 * offline extractive model quotes the turns that weigh most (it says so) and
 * each quote gets its turn's moment. A citation of anything outside the
 * stretch is taken out. It streams and can be stopped; captions never wait on it.
 */
import { randomUUID } from 'node:crypto';
import { checkCitations, clockLabel, type CitationSource } from '../../../shared/chat/citations';
import type { MissedSummary } from '../../../shared/captions-extras';
import type { LiveTurn } from '../../../shared/captions';
import type { ChatMessage } from '../../../shared/api/gateway';

/** How the summary reaches the gateway: a streamed completion with `model`. */
export interface MissedModel {
  model: string;
  /** false for the offline extractive model. */
  generative: boolean;
  stream(messages: ChatMessage[], onDelta: (text: string) => void, signal: AbortSignal): Promise<string>;
}

export interface MissedRequest {
  recordingId: string;
  fromMs: number;
  toMs: number;
  /** Every turn of the run so far; only the final ones that start within the stretch are given. */
  turns: LiveTurn[];
}

const SOURCE: CitationSource[] = [{ recordingId: 'session', label: '' }];
/** The most text of a stretch that is sent (about 6,000 tokens): the newest turns are kept. */
const MAX_CHARS = 24_000;

export function turnsInWindow(turns: LiveTurn[], fromMs: number, toMs: number): LiveTurn[] {
  const inside = turns.filter((t) => t.final && t.text.trim() && t.startMs >= fromMs && t.startMs <= toMs).sort((a, b) => a.startMs - b.startMs);
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
  const turns = turnsInWindow(req.turns, req.fromMs, req.toMs);
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
  if ('unavailable' in model) return end(base, 'error', '', turns, update, model.unavailable);
  if (turns.length === 0) return end(base, 'done', `Nothing was captioned in ${what}.`, turns, update, null);
  update(base);
  let content = '';
  let timer: NodeJS.Timeout | null = null;
  const flush = () => {
    timer = null;
    update({ ...base, content });
  };
  try {
    await model.stream(
      missedMessages(turns, model.generative, what),
      (piece) => {
        content += piece;
        timer ??= setTimeout(flush, flushMs);
      },
      signal,
    );
    if (timer) clearTimeout(timer);
    return end(base, 'done', content, turns, update, null, model.generative);
  } catch (e) {
    if (timer) clearTimeout(timer);
    if (signal.aborted) return end(base, 'stopped', content, turns, update, null, model.generative);
    return end(base, 'error', content, turns, update, e instanceof Error ? e.message : String(e), model.generative);
  }
}

function end(
  base: MissedSummary,
  status: MissedSummary['status'],
  raw: string,
  turns: LiveTurn[],
  update: (s: MissedSummary) => void,
  error: string | null,
  generative = true,
): MissedSummary {
  // Every citation must name a turn of the stretch: any other moment is taken out.
  const cited = generative ? raw : citeTurnQuotes(raw, turns);
  const checked = checkCitations(
    cited,
    SOURCE,
    turns.map((t) => ({ recordingId: 'session', startMs: t.startMs })),
  );
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
