/**
 * The turns of one run, per source: each streaming Turn message replaces the
 * growing turn with the same key; finished turns are kept. At the end they are
 * merged by time into one word list, labelled You / Others when both sources ran.
 */
import type { LiveSource } from '../../../shared/audio-frame';
import type { Span, Word } from '../../../shared/library';
import type { LiveTurn, LiveWord } from '../../../shared/captions';
import { liveSpeakerId } from '../../../shared/voices/live';
import type { SpeakerRevision, Turn } from '../client/streaming';

export class TurnBook {
  private readonly turns = new Map<string, LiveTurn>();

  constructor(
    private readonly run: number,
    private readonly formatTurns: boolean,
    /** The remembered voices the local engine was told for this run: a label that is one of them is a name. */
    private readonly names: ReadonlySet<string> = new Set(),
  ) {}

  /** Fold a Turn message in; answers the turn as the renderer should now show it (null when it holds nothing). */
  apply(source: LiveSource, t: Turn, receivedAt: number, capturedAt: number | null): LiveTurn | null {
    const key = `${source}:${t.session}:${t.turn_order}`;
    const words: LiveWord[] = t.words.map((w) => ({
      text: w.text,
      start: Math.round(w.start),
      end: Math.round(w.end),
      confidence: w.confidence,
      final: w.word_is_final,
    }));
    const prev = this.turns.get(key);
    // A formatted turn is final; an unformatted end of turn is final only when no formatted one follows.
    if (prev?.final) return null;
    if (words.length === 0 && !prev) return null;
    const final = t.end_of_turn && (t.turn_is_formatted || !this.formatTurns);
    const text = words.map((w) => w.text).join(' ');
    const turn: LiveTurn = {
      run: this.run,
      source,
      key,
      text,
      words,
      final,
      startMs: words[0]?.start ?? prev?.startMs ?? 0,
      endMs: words.at(-1)?.end ?? prev?.endMs ?? 0,
      receivedAt,
      capturedAt,
    };
    // The service labels a finished turn's speaker; UNKNOWN (too little speech) is no label.
    const speaker = t.speaker_label && t.speaker_label !== 'UNKNOWN' && source === 'system' ? t.speaker_label : (prev?.speaker ?? null);
    if (speaker) turn.speaker = speaker;
    if (speaker && this.names.has(speaker)) turn.speakerName = speaker;
    this.turns.set(key, turn);
    return turn;
  }

  /**
   * A SpeakerRevision from the session `session` of `source`: each named turn takes its new label and is marked
   * revised. Answers the turns that changed, as the renderer should now show them.
   */
  revise(source: LiveSource, session: number, revisions: readonly SpeakerRevision[]): LiveTurn[] {
    if (source !== 'system') return [];
    const changed: LiveTurn[] = [];
    for (const r of revisions) {
      const key = `${source}:${session}:${r.turn_order}`;
      const prev = this.turns.get(key);
      const speaker = r.speaker_label === 'UNKNOWN' ? null : r.speaker_label;
      if (!prev || !speaker || prev.speaker === speaker) continue;
      const turn: LiveTurn = { ...prev, speaker, revised: true };
      if (this.names.has(speaker)) turn.speakerName = speaker;
      else delete turn.speakerName;
      this.turns.set(key, turn);
      changed.push(turn);
    }
    return changed;
  }

  /** Every turn so far, in time order. */
  all(): LiveTurn[] {
    return [...this.turns.values()].sort(byTime);
  }

  /** Turns still growing when the run stopped count with what they hold. */
  settle(): LiveTurn[] {
    for (const [k, t] of this.turns) if (!t.final) this.turns.set(k, { ...t, final: true, words: t.words.map((w) => ({ ...w, final: true })) });
    return this.all();
  }
}

function byTime(a: LiveTurn, b: LiveTurn): number {
  return a.startMs - b.startMs || a.endMs - b.endMs || (a.source === b.source ? 0 : a.source === 'mic' ? -1 : 1);
}

/**
 * The library's words and sentences (one per turn) of finished turns merged by
 * time. With both sources, each word's speaker is "You" or "Others"; a system
 * speaker's is its label ("A", or a remembered voice's name: `named` lists those).
 */
export function mergeTurns(turns: LiveTurn[], labelled: boolean): { words: Word[]; sentences: Span[]; text: string; named: string[] } {
  const words: Word[] = [];
  const sentences: Span[] = [];
  const named = new Set<string>();
  for (const t of [...turns].sort(byTime)) {
    if (t.words.length === 0) continue;
    const speaker = liveSpeakerId(t, labelled);
    if (speaker && t.source === 'system' && t.speakerName === speaker) named.add(speaker);
    const first = words.length;
    for (const w of t.words) words.push({ text: w.text, start: w.start, end: Math.max(w.end, w.start), confidence: w.confidence, speaker });
    sentences.push({ text: t.words.map((w) => w.text).join(' '), start: t.startMs, end: t.endMs, firstWord: first, lastWord: words.length - 1, speaker });
  }
  return { words, sentences, text: sentences.map((s) => s.text).join(' '), named: [...named] };
}
