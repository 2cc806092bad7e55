/**
 * The one summariser: every whole-recording ask (the chat's actions, the
 * transcript's insights, "What did I miss?", the live summary) reads the
 * lines of the transcripts, labelled `[Label @ mm:ss]` (or `[mm:ss]` for one
 * live session), through this map-reduce path.
 *
 * - The lines are cut into parts that fit the model's context; a line longer
 *   than a part is split into pieces under the same label. Nothing is cut.
 * - The model takes notes on each part, citing the lines it used; a citation
 *   of a line outside that part is taken out of its notes.
 * - When the notes do not fit at once, they are merged in groups (level by
 *   level) the same way, each merge allowed to cite only what its notes cite.
 * - The final ask gets the notes (or the lines, when they fit whole) and may
 *   cite only what they cite (`given`).
 *
 * Progress is reported part by part; the signal stops it between and during parts.
 */
import { checkCitations, clockLabel, findCitations, type CitationSource, type GivenPassage } from '../../../shared/chat/citations';
import type { ChatAction } from '../../../shared/chat/actions';
import type { ChatMessage } from '../../../shared/api/gateway';
import { AppError } from '../../../shared/errors';

export interface ActionRecording {
  recordingId: string;
  label: string;
  sentences: { startMs: number; text: string }[];
}

/** What a summary reads: its recordings' labels and their lines in order. */
export interface SummaryInput {
  sources: CitationSource[];
  lines: { recordingId: string; startMs: number; text: string }[];
  /** One live session: lines and citations are bare `[mm:ss]`. */
  bare?: boolean;
  /** What the material is, for the instructions (default "recordings (…) from their transcripts"). */
  describe?: string;
}

export interface SummaryPlan {
  /** The final ask: the lines whole, or the notes on them. */
  messages: ChatMessage[];
  /** The moments the final answer may cite (the notes' citations after map-reduce). */
  given: GivenPassage[];
  /** How many parts the lines were cut into (1: whole). */
  parts: number;
}

/** Back-compat name for the chat's plan. */
export type ActionPrompt = SummaryPlan;

export interface MapReduceHooks {
  /** One model call, whole answer (the notes on one part). */
  complete(messages: ChatMessage[], signal: AbortSignal): Promise<string>;
  /** Called before each part and at the end: `done` of `total` parts have notes. */
  progress(done: number, total: number): void;
  signal: AbortSignal;
}

/** Tokens kept for a part's notes and the instructions around it. */
const NOTE_TOKENS = 400;
const INSTRUCTION_TOKENS = 250;
/** Fewer characters than this a part is no summary: the model is too small for it. */
export const MIN_PART_CHARS = 1200;
/** Merge levels before giving up on notes that will not shrink. */
const MAX_LEVELS = 5;

/** Characters of lines one part may hold for a model of `contextLength` tokens (about 3.5 a token, a fifth kept spare). */
export function partBudget(contextLength: number, answerTokens = NOTE_TOKENS): number {
  return Math.floor((contextLength - answerTokens - INSTRUCTION_TOKENS) * 3.5 * 0.8);
}

/** Why `model` cannot summarise at all (its context holds less than one part), or null. */
export function tooSmallFor(model: { name: string; contextLength: number }, answerTokens = NOTE_TOKENS): string | null {
  if (partBudget(model.contextLength, answerTokens) >= MIN_PART_CHARS) return null;
  return (
    `${model.name} reads only ${model.contextLength} tokens at once, too few to summarise even a short part of a recording. ` +
    'Choose a model with a larger context: download a chat model in Settings → Models (Qwen2.5 1.5B Instruct reads 32,000 tokens), or add a cloud key in Settings.'
  );
}

function label(input: SummaryInput, recordingId: string, startMs: number): string {
  if (input.bare) return `[${clockLabel(startMs)}]`;
  const l = input.sources.find((s) => s.recordingId === recordingId)?.label ?? '';
  return `[${l} @ ${clockLabel(startMs)}]`;
}

function instructions(input: SummaryInput): string {
  const example = input.bare ? `[${clockLabel(input.lines[0]?.startMs ?? 0)}]` : `[${input.sources[0]?.label ?? 'Recording'} @ 01:05]`;
  const what = input.describe ?? `recordings (${input.sources.map((s) => `“${s.label}”`).join(', ')}) from their transcripts`;
  return [
    `You work on ${what}.`,
    input.bare
      ? 'Each line starts with [mm:ss]: the moment it was said.'
      : 'Each line starts with [Recording @ mm:ss]: the recording and the moment it was said.',
    `After every statement, cite the line it comes from exactly in that form, for example ${example}.`,
    'Use only what the lines say. Answer in Markdown.',
  ].join(' ');
}

interface Line {
  text: string;
  at: GivenPassage;
}

/** Each line labelled; a line longer than `budget` becomes several pieces under its label. */
function labelled(input: SummaryInput, budget: number): Line[] {
  const out: Line[] = [];
  for (const l of input.lines) {
    const head = `${label(input, l.recordingId, l.startMs)} `;
    const text = l.text.replace(/\s+/g, ' ').trim();
    if (!text) continue;
    const room = Math.max(1, budget - head.length - 1);
    let rest = text;
    while (rest) {
      // Cut at a word's end where one is near, so no word is split between pieces.
      const space = rest.length <= room ? rest.length : rest.lastIndexOf(' ', room);
      const at = space > room / 2 ? space : Math.min(room, rest.length);
      out.push({ text: head + rest.slice(0, at).trim(), at: { recordingId: l.recordingId, startMs: l.startMs } });
      rest = rest.slice(at).trim();
    }
  }
  return out;
}

/** The transcripts' lines, in order, with their citation labels. */
export function actionLines(recordings: ActionRecording[]): string[] {
  return recordings.flatMap((r) => r.sentences.map((s) => `[${r.label} @ ${clockLabel(s.startMs)}] ${s.text.replace(/\s+/g, ' ').trim()}`));
}

/** Lines cut into parts of at most `budget` characters each (a line longer than that is split into pieces; nothing is dropped). */
export function cutParts(lines: string[], budget: number): string[][] {
  const pieces = lines.flatMap((l) =>
    l.length <= budget ? [l] : Array.from({ length: Math.ceil(l.length / budget) }, (_, i) => l.slice(i * budget, (i + 1) * budget)),
  );
  return group(pieces, (l) => l.length, budget);
}

function group<T>(items: T[], size: (t: T) => number, budget: number): T[][] {
  const parts: T[][] = [];
  let cur: T[] = [];
  let used = 0;
  for (const item of items) {
    const n = size(item) + 1;
    if (used + n > budget && cur.length) {
      parts.push(cur);
      cur = [];
      used = 0;
    }
    cur.push(item);
    used += n;
  }
  if (cur.length) parts.push(cur);
  return parts;
}

const key = (p: GivenPassage) => `${p.recordingId}\u0000${Math.floor(p.startMs / 1000)}`;

/** Notes with citations of anything but `allowed` taken out, and the moments they still cite. */
function keepCited(note: string, input: SummaryInput, allowed: GivenPassage[]): { text: string; cited: GivenPassage[] } {
  const sources = input.bare ? [{ recordingId: input.sources[0]?.recordingId ?? 'session', label: '' }] : input.sources;
  const checked = checkCitations(note, sources, allowed);
  const cited = findCitations(checked.text, sources).map((c) => ({ recordingId: c.recordingId, startMs: c.atMs }));
  return { text: checked.text.trim(), cited };
}

/**
 * Plans `task` over `input` for a model that reads `budget` characters of
 * lines at once: the lines whole when they fit, else the notes of map-reduce.
 */
export async function planSummary(input: SummaryInput, task: string, budget: number, hooks: MapReduceHooks): Promise<SummaryPlan> {
  checkBudget(budget);
  const lines = labelled(input, budget);
  const whole = lines.map((l) => l.text).join('\n');
  if (whole.length <= budget) {
    return {
      messages: [
        { role: 'system', content: `${instructions(input)}\n\nLines:\n${whole}` },
        { role: 'user', content: task },
      ],
      given: lines.map((l) => l.at),
      parts: 1,
    };
  }
  const counter = partCounter(hooks, group(lines, (l) => l.text.length, budget).length);
  const notes = await takeNotes(input, task, budget, hooks, counter);
  return reduceNotes(input, notes, task, budget, hooks, counter);
}

/** Notes on some lines, with the moments they cite (each one of those lines). */
export interface Notes {
  text: string;
  cited: GivenPassage[];
}

function checkBudget(budget: number): void {
  if (budget < MIN_PART_CHARS)
    throw new AppError(
      'unavailable',
      'This model reads too little at once to summarise. Choose a model with a larger context in Settings → Models, or add a cloud key in Settings.',
    );
}

/** Counts model calls for progress: `total` grows when merges are planned. */
export interface PartCounter {
  done: number;
  total: number;
  ask(system: string, user: string): Promise<string>;
}

export function partCounter(hooks: MapReduceHooks, total: number): PartCounter {
  const c: PartCounter = {
    done: 0,
    total,
    async ask(system, user) {
      if (hooks.signal.aborted) throw new AppError('canceled', 'Stopped.');
      hooks.progress(c.done, c.total);
      const answer = await hooks.complete(
        [
          { role: 'system', content: system },
          { role: 'user', content: user },
        ],
        hooks.signal,
      );
      c.done++;
      return answer;
    },
  };
  return c;
}

/** The map step: notes on each part of `input`'s lines, each keeping only citations of its own part's lines. */
export async function takeNotes(input: SummaryInput, task: string, budget: number, hooks: MapReduceHooks, counter?: PartCounter): Promise<Notes[]> {
  checkBudget(budget);
  const parts = group(labelled(input, budget), (l) => l.text.length, budget);
  const c = counter ?? partCounter(hooks, parts.length);
  const notes: Notes[] = [];
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i] as Line[];
    const raw = await c.ask(
      `${instructions(input)} This is part ${i + 1} of ${parts.length}. Take brief notes, as a Markdown list, of what in this part matters for this task: ${task}\n\nPart ${i + 1}:\n${part.map((l) => l.text).join('\n')}`,
      `Notes on part ${i + 1}, each with its citation:`,
    );
    notes.push(
      keepCited(
        raw,
        input,
        part.map((l) => l.at),
      ),
    );
  }
  return notes;
}

/**
 * The reduce step: notes that do not fit at once are merged in groups, level
 * by level (each merge cites only what its notes cite); the final ask gets
 * the notes and may cite only what they cite.
 */
export async function reduceNotes(
  input: SummaryInput,
  first: Notes[],
  task: string,
  budget: number,
  hooks: MapReduceHooks,
  counter?: PartCounter,
): Promise<SummaryPlan> {
  const c = counter ?? partCounter(hooks, 0);
  let notes = first;
  for (let level = 0; notes.reduce((a, n) => a + n.text.length + 2, 0) > budget; level++) {
    if (level >= MAX_LEVELS)
      throw new AppError('unavailable', 'The notes on this recording would not shrink to fit the model. Choose a model with a larger context, then try again.');
    const groups = group(
      notes.flatMap((n) => splitNote(n, budget)),
      (n) => n.text.length + 1,
      budget,
    );
    c.total += groups.length;
    const merged: Notes[] = [];
    for (const g of groups) {
      const raw = await c.ask(
        `${instructions(input)} Below are notes on consecutive parts of the lines, with the citations of the lines they come from. Merge them into shorter notes for this task, keeping those citations: ${task}\n\nNotes:\n${g.map((n) => n.text).join('\n')}`,
        'Merged notes, each with its citation:',
      );
      merged.push(
        keepCited(
          raw,
          input,
          g.flatMap((n) => n.cited),
        ),
      );
    }
    notes = merged;
  }
  if (c.total > 0) hooks.progress(c.done, c.total);
  const cited = new Map<string, GivenPassage>();
  for (const n of notes) for (const p of n.cited) cited.set(key(p), p);
  return {
    messages: [
      {
        role: 'system',
        content: `${instructions(input)} The lines were too long to read at once: below are notes on each of their ${first.length} parts, in order, with the citations of the lines they come from. Cite only those citations.\n\nNotes:\n${notes.map((n, i) => `Part ${i + 1}:\n${n.text}`).join('\n\n')}`,
      },
      { role: 'user', content: task },
    ],
    given: [...cited.values()],
    parts: first.length,
  };
}

/** A note longer than `budget` split at line ends (then hard), each piece keeping the citations it holds. */
function splitNote(n: { text: string; cited: GivenPassage[] }, budget: number): { text: string; cited: GivenPassage[] }[] {
  if (n.text.length <= budget - 1) return [n];
  return cutParts(n.text.split('\n'), budget - 1).map((p) => ({ text: p.join('\n'), cited: n.cited }));
}

/** The chat's action over `recordings`, with map-reduce when they exceed `budget` characters. */
export async function actionPrompt(action: ChatAction, recordings: ActionRecording[], budget: number, hooks: MapReduceHooks): Promise<SummaryPlan> {
  return planSummary(recordingsInput(recordings), action.task, budget, hooks);
}

export function recordingsInput(recordings: ActionRecording[]): SummaryInput {
  return {
    sources: recordings.map((r) => ({ recordingId: r.recordingId, label: r.label })),
    lines: recordings.flatMap((r) => r.sentences.map((s) => ({ recordingId: r.recordingId, startMs: s.startMs, text: s.text }))),
  };
}
