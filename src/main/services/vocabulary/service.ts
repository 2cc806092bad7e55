/**
 * The vocabulary (a list in Settings, sent as keyterms with every job and live session) and Fix
 * everywhere: one correction applied across the library, kept as a batch that one undo brings back.
 */
import { AppError } from '../../../shared/errors';
import type { Settings, SettingsPatch } from '../../../shared/settings';
import { addTerm, cleanTerm, mergeKeyterms, spellingKey, termProblem, VOCABULARY_MAX_TERMS } from '../../../shared/vocabulary';
import type { Library } from '../library/library';
import type { FixProgress } from '../library/fix-store';

/** The streaming service's keyterm limit (API.md §8.1). */
const LIVE_KEYTERMS_MAX = 100;

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
  /** Batches that can still be undone, oldest first. */
  private batches: string[] = [];

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

  /**
   * Writes `to` over every word reading as `from` in these recordings' shown transcripts: a few at a time
   * between turns of the event loop, journaled, so it stays one action that one Undo brings back (fix-store.ts).
   */
  async apply(
    from: string,
    to: string,
    recordingIds: string[],
    progress?: (p: FixProgress) => void,
  ): Promise<{ batchId: string; recordings: number; words: number }> {
    const key = spellingKey(from);
    const replacement = to.trim();
    if (!key) throw new AppError('bad_request', 'The word to replace has no letters or digits.');
    if (!replacement) throw new AppError('bad_request', 'The correction is empty.');
    if (spellingKey(replacement) === key) throw new AppError('bad_request', 'The correction reads the same as the word it replaces.');
    const out = await this.library.fixes.apply(recordingIds, (w) => (spellingKey(w) === key ? replaceWordForm(w, replacement) : null), progress);
    this.batches.push(out.batchId);
    while (this.batches.length > KEPT_BATCHES) this.library.fixes.forget(this.batches.shift()!);
    return out;
  }

  /** Each word the batch changed goes back, unless it was edited since (then the later edit stands). */
  async undo(batchId: string, progress?: (p: FixProgress) => void): Promise<{ recordings: number; words: number }> {
    const out = await this.library.fixes.undo(batchId, progress);
    this.batches = this.batches.filter((b) => b !== batchId);
    return out;
  }
}
