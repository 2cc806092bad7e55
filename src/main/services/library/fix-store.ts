/**
 * Fix everywhere's writes: one correction over many recordings, and its Undo,
 * a few recordings per transaction between turns of the event loop (400 long
 * transcripts in one transaction held the app for 5 s). Each transaction
 * notes in fix_batch_words the words it changed, so the fix stays one action:
 * Undo reads the notes back, and a fix or Undo a crash cut short is undone
 * at the next start (`recover`), leaving the library as it was before the fix.
 */
import { randomUUID } from 'node:crypto';
import { AppError } from '../../../shared/errors';
import type { Word } from '../../../shared/library';

/** A recording's shown transcript as the fix reads it. */
type ShownWords = { transcriptId: string; words: Pick<Word, 'text'>[] };
import type { Database } from './db';

export interface FixedWord {
  index: number;
  before: string;
  after: string;
}

export interface FixProgress {
  done: number;
  total: number;
}

/** What the store needs of the library: a recording's shown transcript, and the one way words are corrected. */
export interface FixDeps {
  transcript(recordingId: string): ShownWords;
  correctWords(recordingId: string, edits: { index: number; text: string }[]): unknown;
}

/** Main-thread work between two turns of the event loop (each long transcript takes ~13 ms). */
const SLICE_MS = 30;
const yieldTurn = () => new Promise<void>((r) => setImmediate(r));

export class FixStore {
  /** One fix or Undo at a time: a second would interleave with the first's slices. */
  private running = false;

  constructor(
    private readonly db: Database,
    private readonly deps: FixDeps,
  ) {}

  /**
   * Writes `fix(word)` (null: leave it) over the words of these recordings'
   * shown transcripts; answers the batch id Undo takes and what changed.
   */
  async apply(
    recordingIds: readonly string[],
    fix: (text: string) => string | null,
    progress?: (p: FixProgress) => void,
  ): Promise<{ batchId: string; recordings: number; words: number }> {
    const batchId = randomUUID();
    const ids = [...new Set(recordingIds)];
    let recordings = 0;
    let words = 0;
    await this.exclusive(async () => {
      this.db.prepare(`INSERT INTO fix_batches (id, state, created_at) VALUES (?, 'applying', ?)`).run(batchId, new Date().toISOString());
      const note = this.db.prepare(`INSERT INTO fix_batch_words (batch_id, recording_id, transcript_id, words) VALUES (?, ?, ?, ?)`);
      // A failure part-way takes back what the slices before it changed: the fix is whole or absent.
      const undoAll = (e: unknown) => {
        this.rollBack([batchId]);
        throw e;
      };
      await this.slices(ids.length, progress, (i) => {
        const recordingId = ids[i]!;
        let t: ShownWords;
        try {
          t = this.deps.transcript(recordingId);
        } catch {
          return; // deleted since it was found
        }
        const fixed: FixedWord[] = [];
        t.words.forEach((w, index) => {
          const after = fix(w.text);
          if (after !== null && after !== w.text) fixed.push({ index, before: w.text, after });
        });
        if (fixed.length === 0) return;
        this.deps.correctWords(
          recordingId,
          fixed.map((f) => ({ index: f.index, text: f.after })),
        );
        note.run(batchId, recordingId, t.transcriptId, JSON.stringify(fixed));
        recordings++;
        words += fixed.length;
      }).catch(undoAll);
      this.db.prepare(`UPDATE fix_batches SET state = 'done' WHERE id = ?`).run(batchId);
    });
    return { batchId, recordings, words };
  }

  /** Each word the batch changed goes back, unless it was edited since (then the later edit stands). */
  async undo(batchId: string, progress?: (p: FixProgress) => void): Promise<{ recordings: number; words: number }> {
    let recordings = 0;
    let words = 0;
    await this.exclusive(async () => {
      const batch = this.db.prepare(`SELECT state FROM fix_batches WHERE id = ?`).get(batchId) as { state: string } | undefined;
      if (batch?.state !== 'done')
        throw new AppError('not_found', 'That change can no longer be undone (Verbatim was restarted since, or it was undone already).');
      this.db.prepare(`UPDATE fix_batches SET state = 'undoing' WHERE id = ?`).run(batchId);
      const notes = this.notes(batchId);
      await this.slices(notes.length, progress, (i) => {
        const n = this.revert(batchId, notes[i]!);
        if (n) recordings++;
        words += n;
      });
      this.db.prepare(`DELETE FROM fix_batches WHERE id = ?`).run(batchId);
    });
    return { recordings, words };
  }

  /** Forget a batch (it can no longer be undone). */
  forget(batchId: string): void {
    this.db.prepare(`DELETE FROM fix_batches WHERE id = ? AND state = 'done'`).run(batchId);
  }

  /**
   * At start: a fix or Undo a crash cut short is undone (its changed words go
   * back, in one transaction), and finished ones are forgotten (Undo lasts
   * until Verbatim quits). Answers how many recordings went back.
   */
  recover(): number {
    const cut = (this.db.prepare(`SELECT id FROM fix_batches WHERE state != 'done'`).all() as { id: string }[]).map((b) => b.id);
    const n = this.rollBack(cut);
    this.db.prepare(`DELETE FROM fix_batches`).run();
    return n;
  }

  /** These batches' changed words back as they were, and the batches gone, in one transaction; answers how many recordings went back. */
  private rollBack(batchIds: readonly string[]): number {
    let n = 0;
    this.db
      .transaction(() => {
        for (const id of batchIds) {
          for (const note of this.notes(id)) if (this.revert(id, note)) n++;
          this.db.prepare(`DELETE FROM fix_batches WHERE id = ?`).run(id);
        }
      })
      .immediate();
    return n;
  }

  private notes(batchId: string): { recordingId: string; transcriptId: string; words: FixedWord[] }[] {
    return (
      this.db.prepare(`SELECT recording_id, transcript_id, words FROM fix_batch_words WHERE batch_id = ?`).all(batchId) as {
        recording_id: string;
        transcript_id: string;
        words: string;
      }[]
    ).map((r) => ({ recordingId: r.recording_id, transcriptId: r.transcript_id, words: JSON.parse(r.words) as FixedWord[] }));
  }

  /** One recording's words back as they were (its note goes in the same transaction); answers how many. */
  private revert(batchId: string, r: { recordingId: string; transcriptId: string; words: FixedWord[] }): number {
    this.db.prepare(`DELETE FROM fix_batch_words WHERE batch_id = ? AND recording_id = ?`).run(batchId, r.recordingId);
    let t: ShownWords;
    try {
      t = this.deps.transcript(r.recordingId);
    } catch {
      return 0; // deleted since
    }
    if (t.transcriptId !== r.transcriptId) return 0;
    const back = r.words.filter((f) => t.words[f.index]?.text === f.after).map((f) => ({ index: f.index, text: f.before }));
    if (back.length) this.deps.correctWords(r.recordingId, back);
    return back.length;
  }

  /** `step(0…count-1)` in transactions of about SLICE_MS each, a turn of the event loop between them. */
  private async slices(count: number, progress: ((p: FixProgress) => void) | undefined, step: (i: number) => void): Promise<void> {
    let lastReport = 0;
    for (let i = 0; i < count;) {
      const started = performance.now();
      this.db
        .transaction(() => {
          do step(i++);
          while (i < count && performance.now() - started < SLICE_MS);
        })
        .immediate();
      if (progress && (performance.now() - lastReport >= 100 || i === count)) {
        lastReport = performance.now();
        progress({ done: i, total: count });
      }
      await yieldTurn();
    }
  }

  private async exclusive(fn: () => Promise<void>): Promise<void> {
    if (this.running) throw new AppError('conflict', 'Fix everywhere is already changing your transcripts. Wait for it to finish.');
    this.running = true;
    try {
      await fn();
    } finally {
      this.running = false;
    }
  }
}
