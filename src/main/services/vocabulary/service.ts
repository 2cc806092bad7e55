/**
 * The vocabulary (a list in Settings, sent as keyterms with every job and live session) and Fix
 * everywhere: one correction applied across the library, kept as a batch that one undo brings back.
 */
import { randomUUID } from 'node:crypto';
import { AppError } from '../../../shared/errors';
import type { Settings, SettingsPatch } from '../../../shared/settings';
import { addTerm, cleanTerm, mergeKeyterms, spellingKey, termProblem, VOCABULARY_MAX_TERMS } from '../../../shared/vocabulary';
import type { Library } from '../library/library';

/** The streaming service's keyterm limit (API.md §8.1). */
const LIVE_KEYTERMS_MAX = 100;

interface FixedWord {
  index: number;
  before: string;
  after: string;
}
interface FixBatch {
  recordings: { recordingId: string; transcriptId: string; words: FixedWord[] }[];
}

/** How many Fix everywhere batches can still be undone (the newest). */
const KEPT_BATCHES = 20;

/** The word `w` with its letters replaced by `to`, the punctuation around it kept ("Phebe," → "Phoebe,"). */
export function replaceWordForm(w: string, to: string): string {
  const lead = /^[^\p{L}\p{N}]*/u.exec(w)?.[0] ?? '';
  const trail = /[^\p{L}\p{N}]*$/u.exec(w.slice(lead.length))?.[0] ?? '';
  return `${lead}${to}${trail}`;
}

/** A live session's keyterms: its own first, then the vocabulary's; undefined when there are none. */
export function liveKeyterms(own: string[] | undefined, vocabulary: readonly string[] | undefined): string[] | undefined {
  const all = mergeKeyterms(own, vocabulary ?? [], LIVE_KEYTERMS_MAX);
  return all.length ? all : undefined;
}

export class VocabularyService {
  private readonly batches = new Map<string, FixBatch>();

  constructor(
    private readonly library: Library,
    private readonly settings: { get(): Settings; set(patch: SettingsPatch): unknown },
  ) {}

  list(): string[] {
    return this.settings.get().vocabulary ?? [];
  }

  add(term: string): string[] {
    const list = this.list();
    const t = cleanTerm(term);
    if (!t) throw new AppError('bad_request', 'There is nothing to add: the word has no letters or digits.');
    const problem = termProblem(t);
    if (problem) throw new AppError('bad_request', `${problem} Nothing was added.`);
    if (list.length >= VOCABULARY_MAX_TERMS)
      throw new AppError('conflict', `Your vocabulary holds ${VOCABULARY_MAX_TERMS} terms, the most it can. Remove one in Settings → Vocabulary first.`);
    const next = addTerm(list, t);
    if (next.length !== list.length) this.settings.set({ vocabulary: next });
    return next;
  }

  find(from: string, limit: number) {
    return this.library.search.findWordForm(from, limit);
  }

  /** Writes `to` over every word reading as `from` in these recordings' shown transcripts, in one transaction. */
  apply(from: string, to: string, recordingIds: string[]): { batchId: string; recordings: number; words: number } {
    const key = spellingKey(from);
    const replacement = to.trim();
    if (!key) throw new AppError('bad_request', 'The word to replace has no letters or digits.');
    if (!replacement) throw new AppError('bad_request', 'The correction is empty.');
    if (spellingKey(replacement) === key) throw new AppError('bad_request', 'The correction reads the same as the word it replaces.');
    const batch: FixBatch = { recordings: [] };
    let words = 0;
    this.library.transaction(() => {
      for (const recordingId of new Set(recordingIds)) {
        const t = this.library.transcripts.get(recordingId);
        const fixed: FixedWord[] = [];
        t.words.forEach((w, index) => {
          if (spellingKey(w.text) === key) fixed.push({ index, before: w.text, after: replaceWordForm(w.text, replacement) });
        });
        if (fixed.length === 0) continue;
        this.library.edits.correctWords(
          recordingId,
          fixed.map((f) => ({ index: f.index, text: f.after })),
        );
        batch.recordings.push({ recordingId, transcriptId: t.transcriptId, words: fixed });
        words += fixed.length;
      }
    });
    const batchId = randomUUID();
    this.batches.set(batchId, batch);
    for (const id of [...this.batches.keys()].slice(0, Math.max(0, this.batches.size - KEPT_BATCHES))) this.batches.delete(id);
    return { batchId, recordings: batch.recordings.length, words };
  }

  /** Each word the batch changed goes back, unless it was edited since (then the later edit stands). */
  undo(batchId: string): { recordings: number; words: number } {
    const batch = this.batches.get(batchId);
    if (!batch) throw new AppError('not_found', 'That change can no longer be undone (Verbatim was restarted since, or it was undone already).');
    let recordings = 0;
    let words = 0;
    this.library.transaction(() => {
      for (const r of batch.recordings) {
        let t;
        try {
          t = this.library.transcripts.get(r.recordingId);
        } catch {
          continue; // deleted since
        }
        if (t.transcriptId !== r.transcriptId) continue;
        const back = r.words.filter((f) => t.words[f.index]?.text === f.after).map((f) => ({ index: f.index, text: f.before }));
        if (back.length === 0) continue;
        this.library.edits.correctWords(r.recordingId, back);
        recordings++;
        words += back.length;
      }
    });
    this.batches.delete(batchId);
    return { recordings, words };
  }
}
