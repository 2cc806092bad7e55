/**
 * The session's summary, ready at Stop. While captions run, each closed
 * 10-minute window of final turns is read in the background by the one
 * summariser (chat/summarise.ts) with the same model as "What did I miss?",
 * and its notes (with their citations) are kept. At Stop only the last
 * window and the merge remain: the notes of every window are merged into the
 * summary (with the session's template, if one is chosen), every citation
 * checked against the notes', and every bullet against the lines it cites
 * (support-check.ts): one they do not support is marked "not found in the
 * cited moments". A window closes once a turn starts 15 s past its end, so
 * a late final turn of the window still belongs to it; one later still goes
 * with the last window. Nothing here ever holds captions up.
 */
import { randomUUID } from 'node:crypto';
import { checkCitations, clockLabel, type CitationSource } from '../../../shared/chat/citations';
import type { MissedSummary } from '../../../shared/captions-extras';
import type { CaptionsRun, LiveTurn } from '../../../shared/captions';
import { templateTask, type Template } from '../../../shared/templates';
import { partBudget, planSummary, reduceNotes, takeNotes, tooSmallFor, type MapReduceHooks, type Notes, type SummaryInput } from '../chat/summarise';
import type { MissedModel } from './missed';
import { markUnsupported } from './support-check';

export const WINDOW_MS = 10 * 60_000;
const GRACE_MS = 15_000;
const ANSWER_TOKENS = 800;
const SOURCE: CitationSource[] = [{ recordingId: 'session', label: '' }];
const PLAIN_TASK =
  'Summarise this conversation as short Markdown bullet points: what it was about, what was said that matters, what was decided and who does what next. One point a line, each citing the lines it comes from.';

export interface LiveSummaryDeps {
  /** The model "What did I miss?" uses. */
  model(): Promise<MissedModel | { unavailable: string }>;
  /** The session's template (null: a plain summary), or 'off' for no summary at Stop. */
  template(): Template | null | 'off';
  /** The summary as it is written (streaming) and when it ends (done, error). */
  update(s: MissedSummary): void;
  windowMs?: number;
  log?(message: string): void;
}

interface Session {
  run: CaptionsRun;
  turns: Map<string, LiveTurn>;
  /** Windows [0, closed) have been handed to the background queue. */
  closed: number;
  notes: Notes[][];
  /** Turns handed to a closed window's notes. */
  handed: Set<string>;
  /** Each window's turns as handed (the last one's at Stop). */
  windows: LiveTurn[][];
  queue: Promise<void>;
  abort: AbortController;
  /** Set when the model cannot summarise: the reason, said once at Stop. */
  unavailable: string | null;
}

export class LiveSummary {
  private session: Session | null = null;
  /** Sessions whose summary at Stop is being written. */
  private readonly ending = new Set<Session>();
  private readonly windowMs: number;

  constructor(private readonly deps: LiveSummaryDeps) {
    this.windowMs = deps.windowMs ?? WINDOW_MS;
  }

  started(run: CaptionsRun): void {
    this.session?.abort.abort();
    this.session = {
      run,
      turns: new Map(),
      closed: 0,
      notes: [],
      handed: new Set(),
      windows: [],
      queue: Promise.resolve(),
      abort: new AbortController(),
      unavailable: null,
    };
  }

  turn(t: LiveTurn): void {
    const s = this.session;
    if (!s || !t.final || !t.text.trim()) return;
    s.turns.set(t.key, t);
    // Every window that ended more than the grace before this turn's start is closed: its notes are taken in the background.
    while ((s.closed + 1) * this.windowMs + GRACE_MS <= t.startMs) {
      const k = s.closed++;
      const turns = this.inWindow(s, k * this.windowMs, (k + 1) * this.windowMs);
      for (const x of turns) s.handed.add(x.key);
      s.windows[k] = turns;
      s.queue = s.queue.then(() => this.notesOf(s, k, turns));
    }
  }

  /** Windows summarised so far (the bench and tests wait on it). */
  get windowsDone(): number {
    return this.session?.notes.filter(Boolean).length ?? 0;
  }

  /** Waits for the windows handed to the background so far. */
  async idle(): Promise<void> {
    await this.session?.queue;
  }

  /**
   * At Stop: the last window (and any turn that came late for a closed one),
   * then the merge. Resolves with the summary, or null when none is made.
   */
  async ended(endMs: number): Promise<MissedSummary | null> {
    const s = this.session;
    // The session is let go at once: a new one may start while this summary is written.
    this.session = null;
    if (!s) return null;
    const template = this.deps.template();
    if (template === 'off' || s.turns.size === 0) return null;
    const rest = [...s.turns.values()].filter((t) => !s.handed.has(t.key)).sort((a, b) => a.startMs - b.startMs);
    const last = s.closed;
    s.windows[last] = rest;
    s.queue = s.queue.then(() => this.notesOf(s, last, rest));
    this.ending.add(s);
    try {
      await s.queue;
      // A window whose notes failed in the background (a dropped connection) is read again now: none is left out.
      for (let k = 0; k < last; k++) {
        const w = s.windows[k];
        if (!s.notes[k] && w?.length) await this.notesOf(s, k, w);
      }
      return await this.merge(s, template, endMs);
    } finally {
      this.ending.delete(s);
    }
  }

  dispose(): void {
    this.session?.abort.abort();
    for (const s of this.ending) s.abort.abort();
    this.session = null;
  }

  private inWindow(s: Session, from: number, to: number): LiveTurn[] {
    return [...s.turns.values()].filter((t) => t.startMs >= from && t.startMs < to).sort((a, b) => a.startMs - b.startMs);
  }

  private input(turns: LiveTurn[]): SummaryInput {
    return {
      sources: SOURCE,
      lines: turns.map((t) => ({ recordingId: 'session', startMs: t.startMs, text: t.text })),
      bare: true,
      describe: 'the captions of a live conversation',
    };
  }

  private hooks(s: Session, complete: MapReduceHooks['complete']): MapReduceHooks {
    return { signal: s.abort.signal, progress: () => undefined, complete };
  }

  /** Notes on one window's turns, kept by window; a failure is logged and the window's turns go to the merge's notes as none. */
  private async notesOf(s: Session, k: number, turns: LiveTurn[]): Promise<void> {
    if (!turns.length || s.unavailable || s.abort.signal.aborted) return;
    const model = await this.deps.model().catch((e: unknown) => ({ unavailable: e instanceof Error ? e.message : String(e) }));
    if ('unavailable' in model) {
      s.unavailable = model.unavailable;
      return;
    }
    // A model that only quotes writes no summary: nothing to take notes for.
    if (!model.generative) return;
    const small = tooSmallFor({ name: model.model, contextLength: model.contextLength ?? 8192 }, ANSWER_TOKENS);
    if (small) {
      s.unavailable = small;
      return;
    }
    const template = this.deps.template();
    const task = template && template !== 'off' ? templateTask(template) : PLAIN_TASK;
    try {
      s.notes[k] = await takeNotes(
        this.input(turns),
        task,
        partBudget(model.contextLength ?? 8192, ANSWER_TOKENS),
        this.hooks(s, (m, sig) => model.stream(m, () => undefined, sig)),
      );
    } catch (e) {
      if (!s.abort.signal.aborted)
        this.deps.log?.(`live summary: the notes on ${clockLabel(k * this.windowMs)}… failed: ${e instanceof Error ? e.message : String(e)}`);
    }
  }

  private async merge(s: Session, template: Template | null, endMs: number): Promise<MissedSummary | null> {
    const base: MissedSummary = {
      id: randomUUID(),
      recordingId: s.run.recordingId,
      fromMs: 0,
      toMs: Math.max(0, Math.round(endMs)),
      status: 'streaming',
      content: '',
      citations: [],
      model: null,
      extractive: false,
      error: null,
      createdAt: new Date().toISOString(),
      kind: 'meeting',
      ...(template ? { template: template.name } : {}),
    };
    const model = await this.deps.model().catch((e: unknown) => ({ unavailable: e instanceof Error ? e.message : String(e) }));
    // A model that only quotes, or none: no summary at Stop (the session is saved as always).
    if ('unavailable' in model || !model.generative) return null;
    if (s.unavailable) return this.finish({ ...base, model: model.model, status: 'error', error: s.unavailable });
    const task = template ? templateTask(template) : PLAIN_TASK;
    const budget = partBudget(model.contextLength ?? 8192, ANSWER_TOKENS);
    const all = [...s.turns.values()].sort((a, b) => a.startMs - b.startMs);
    const hooks = this.hooks(s, (m, sig) => model.stream(m, () => undefined, sig));
    let content = '';
    try {
      const notes = s.notes.flatMap((n) => n ?? []);
      const missing = s.windows.some((w, k) => w.length > 0 && !s.notes[k]);
      // A session of one window is asked whole (one call when it fits); so is one whose notes could not all be taken, rather than leave part out.
      const plan =
        s.closed === 0 || missing ? await planSummary(this.input(all), task, budget, hooks) : await reduceNotes(this.input(all), notes, task, budget, hooks);
      base.model = model.model;
      this.deps.update(base);
      let timer: NodeJS.Timeout | null = null;
      await model.stream(
        plan.messages,
        (piece) => {
          content += piece;
          timer ??= setTimeout(() => {
            timer = null;
            this.deps.update({ ...base, content });
          }, 40);
        },
        s.abort.signal,
      );
      if (timer) clearTimeout(timer);
      const checked = checkCitations(content, SOURCE, plan.given);
      const marked = markUnsupported(checked.text, all);
      return this.finish({
        ...base,
        status: 'done',
        content: marked.text,
        unsupported: marked.marked,
        citations: checked.citations.map((c) => ({ startMs: c.atMs, label: clockLabel(c.atMs) })),
      });
    } catch (e) {
      if (s.abort.signal.aborted) return null;
      return this.finish({ ...base, model: model.model, status: 'error', content, error: e instanceof Error ? e.message : String(e) });
    }
  }

  private finish(s: MissedSummary): MissedSummary {
    this.deps.update(s);
    return s;
  }
}
