/**
 * Retrieval for chats over many recordings: the question's words ranked with
 * BM25 over the library's FTS5 sentence index (the commonest words dropped
 * when rarer ones exist, using the index's own vocabulary; only the newest
 * matching rows scored when every word is common), each hit widened to its
 * neighbouring sentences, and the best passages kept within a budget.
 */
import type { Database, Statement } from 'better-sqlite3';

export interface RetrievalRecording {
  id: string;
  title: string;
  transcriptId: string;
  region: string;
  baseUrl: string | null;
  remoteId: string | null;
  /** Characters of sentence text. */
  chars: number;
}

export interface Sentence {
  id: number;
  startMs: number;
  text: string;
}

export interface Passage {
  recordingId: string;
  title: string;
  startMs: number;
  text: string;
}

export interface Retrieved {
  /** Recordings in the order of their best passage, with their passages in time order. */
  recordings: { recording: RetrievalRecording; passages: Passage[] }[];
  /** Whether whole transcripts were sent (they fitted), rather than ranked passages. */
  whole: boolean;
}

const STOP = new Set(
  (
    'a an the and or but if of to in on at by for with from as is are was were be been being do does did what which who whom whose when where why how this that these those it its ' +
    'i you he she we they me him her us them my your our their there here about into over than then so not no yes can could would should will shall may might must have has had just also very too any some all each every ' +
    'tell please say said says according transcript transcripts recording recordings speaker talk talked mention mentioned discuss discussed anything something'
  ).split(' '),
);

/** The words of a question worth searching for, in order, without repeats. */
export function questionWords(question: string): string[] {
  const words = (question.toLowerCase().match(/[\p{L}\p{N}']+/gu) ?? [])
    .map((w) => w.replace(/'s$/, '').replace(/'/g, ''))
    .filter((w) => w.length > 1 && !STOP.has(w));
  return [...new Set(words)].slice(0, 16);
}

/** Above about this many matching rows, a whole-library question ranks only the newest RANK_CAP of them (see rankMatch()). */
export const RANK_WINDOW = 5_000;
/** How many matching rows at most get a BM25 score when the words are common (FTS5 scores row by row, ~10 µs each). */
export const RANK_CAP = 1_000;

const LATEST = `SELECT id FROM transcripts WHERE recording_id = r.id ORDER BY created_at DESC, rowid DESC LIMIT 1`;

export class RetrievalStore {
  private stemmer: { insert: Statement; read: Statement; clear: Statement } | null = null;
  private readonly df: Statement;
  private readonly maxId: Statement;
  private readonly generation: { data: Statement; changes: Statement };
  private readonly byIds: Statement;
  private readonly recordingsOf: Statement;
  private readonly matchers = new Map<string, Statement>();
  /** Porter stems of question words (the tokenizer never changes). */
  private readonly stemCache = new Map<string, string>();
  /** Sentence counts of stems, valid while the database is unchanged (see fresh()). */
  private dfCache = new Map<string, number>();
  private dfGeneration = '';

  constructor(
    private readonly db: Database,
    _ctx?: unknown,
  ) {
    this.df = db.prepare(`SELECT doc FROM sentences_vocab WHERE term = ?`);
    this.maxId = db.prepare(`SELECT max(id) AS n FROM sentences`);
    this.generation = { data: db.prepare(`PRAGMA data_version`).pluck(), changes: db.prepare(`SELECT total_changes()`).pluck() };
    this.byIds = db.prepare(`SELECT id, transcript_id AS transcriptId, start_ms AS startMs, text FROM sentences WHERE id IN (SELECT value FROM json_each(?))`);
    // One lookup for all of a question's transcripts; chars is not needed for ranked passages and reading every text would cost a page walk each.
    this.recordingsOf = db.prepare(
      `SELECT r.id, r.title, t.id AS transcriptId, t.region, t.base_url AS baseUrl, t.remote_id AS remoteId, 0 AS chars
       FROM transcripts t JOIN recordings r ON r.id = t.recording_id
       WHERE t.id IN (SELECT value FROM json_each(?)) AND t.status = 'completed' AND t.id = (${LATEST})`,
    );
  }

  /** Clears the per-stem counts when anything was written since they were read (this connection: total_changes; others: data_version). */
  private fresh(): void {
    const g = `${this.generation.data.get() as number}:${this.generation.changes.get() as number}`;
    if (g !== this.dfGeneration) {
      this.dfCache = new Map();
      this.dfGeneration = g;
    }
  }

  private docs(stem: string): number {
    let n = this.dfCache.get(stem);
    if (n === undefined) {
      n = (this.df.get(stem) as { doc: number } | undefined)?.doc ?? 0;
      this.dfCache.set(stem, n);
    }
    return n;
  }

  /** The completed recordings among `ids` (all completed ones when null), in the order given. */
  recordings(ids: string[] | null): RetrievalRecording[] {
    const sql = `SELECT r.id, r.title, t.id AS transcriptId, t.region, t.base_url AS baseUrl, t.remote_id AS remoteId, length(coalesce(t.text, '')) AS chars
                 FROM recordings r JOIN transcripts t ON t.id = (${LATEST}) WHERE t.status = 'completed'`;
    if (ids === null) return this.db.prepare(`${sql} ORDER BY r.created_at`).all() as RetrievalRecording[];
    const out: RetrievalRecording[] = [];
    const one = this.db.prepare(`${sql} AND r.id = ?`);
    for (const id of ids) {
      const r = one.get(id) as RetrievalRecording | undefined;
      if (r) out.push(r);
    }
    return out;
  }

  sentences(transcriptId: string): Sentence[] {
    return this.db.prepare(`SELECT id, start_ms AS startMs, text FROM sentences WHERE transcript_id = ? ORDER BY id`).all(transcriptId) as Sentence[];
  }

  /** The porter stems FTS5 gives each word (a throwaway in-memory index: the same tokenizer as sentences_fts). */
  private stems(words: string[]): string[] {
    const missing = words.filter((w) => !this.stemCache.has(w));
    if (missing.length) {
      const stems = this.stemUncached(missing);
      missing.forEach((w, i) => this.stemCache.set(w, stems[i] as string));
    }
    return words.map((w) => this.stemCache.get(w) as string);
  }

  private stemUncached(words: string[]): string[] {
    if (!this.stemmer) {
      this.db.exec(`CREATE VIRTUAL TABLE IF NOT EXISTS temp.question_fts USING fts5(text, tokenize = 'porter unicode61 remove_diacritics 2');
                    CREATE VIRTUAL TABLE IF NOT EXISTS temp.question_terms USING fts5vocab(temp, question_fts, 'instance');`);
      this.stemmer = {
        insert: this.db.prepare(`INSERT INTO temp.question_fts (rowid, text) VALUES (1, ?)`),
        read: this.db.prepare(`SELECT term, offset FROM temp.question_terms ORDER BY offset`),
        clear: this.db.prepare(`DELETE FROM temp.question_fts`),
      };
    }
    const s = this.stemmer;
    s.clear.run();
    s.insert.run(words.join(' '));
    const rows = s.read.all() as { term: string; offset: number }[];
    s.clear.run();
    return words.map((w, i) => rows.find((r) => r.offset === i)?.term ?? w);
  }

  /**
   * The terms to search for: each word's sentence count from the index's
   * vocabulary; words in no sentence are dropped, and words in over 5% of all
   * sentences too when rarer ones remain (they would rank by noise and cost a
   * pass over a large part of the index).
   */
  terms(question: string): { word: string; docs: number }[] {
    const words = questionWords(question);
    if (!words.length) return [];
    const stems = this.stems(words);
    this.fresh();
    const counted = words.map((word, i) => ({ word, docs: this.docs(stems[i] as string) })).filter((t) => t.docs > 0);
    const total = (this.maxId.get() as { n: number | null }).n ?? 0;
    const rare = counted.filter((t) => t.docs <= Math.max(50, total * 0.05));
    return rare.length ? rare.sort((a, b) => a.docs - b.docs).slice(0, 8) : counted.sort((a, b) => a.docs - b.docs).slice(0, 3);
  }

  /** Best sentences by BM25, over the whole library or the given transcripts. */
  rank(question: string, opts: { transcriptIds?: string[] | null; limit?: number } = {}): (Sentence & { transcriptId: string; score: number })[] {
    const terms = this.terms(question);
    if (!terms.length) return [];
    const quoted = terms.map((t) => `"${t.word.replace(/"/g, '')}"`);
    const limit = opts.limit ?? 200;
    const common = terms.every((t) => t.docs > RANK_WINDOW);
    // Only very common words: sentences holding all of them first (a far smaller set to rank), any of them if too few do.
    // That set is scored whole up to RANK_CAP rows (the capped query is exact below it), so it is always capped.
    if (common && quoted.length > 1) {
      const all = this.rankMatch(quoted.join(' AND '), opts.transcriptIds ?? null, limit, Number.POSITIVE_INFINITY);
      if (all.length >= Math.min(limit, 20)) return all;
    }
    return this.rankMatch(
      quoted.join(' OR '),
      opts.transcriptIds ?? null,
      limit,
      terms.reduce((a, t) => a + t.docs, 0),
    );
  }

  private rankMatch(match: string, ids: string[] | null, limit: number, matches: number): (Sentence & { transcriptId: string; score: number })[] {
    // FTS5 computes BM25 for every matching row before ORDER BY rank can stop, about 10 µs a row: for words in a
    // large share of a big library, only the newest RANK_CAP matching rows are scored (rowid order lets FTS5 stop early).
    const capped = !ids && matches > RANK_WINDOW;
    const sql = ids
      ? `SELECT rowid AS id, bm25(sentences_fts) AS score FROM sentences_fts WHERE sentences_fts MATCH @match
           AND rowid IN (SELECT id FROM sentences WHERE transcript_id IN (SELECT value FROM json_each(@ids))) ORDER BY rank LIMIT @limit`
      : capped
        ? `SELECT id, score FROM (SELECT rowid AS id, bm25(sentences_fts) AS score FROM sentences_fts WHERE sentences_fts MATCH @match
             ORDER BY rowid DESC LIMIT ${RANK_CAP}) ORDER BY score LIMIT @limit`
        : `SELECT rowid AS id, bm25(sentences_fts) AS score FROM sentences_fts WHERE sentences_fts MATCH @match ORDER BY rank LIMIT @limit`;
    let stmt = this.matchers.get(sql);
    if (!stmt) {
      stmt = this.db.prepare(sql);
      this.matchers.set(sql, stmt);
    }
    const hits = stmt.all(ids ? { match, ids: JSON.stringify(ids), limit } : { match, limit }) as { id: number; score: number }[];
    if (!hits.length) return [];
    const rows = new Map((this.byIds.all(JSON.stringify(hits.map((h) => h.id))) as (Sentence & { transcriptId: string })[]).map((r) => [r.id, r]));
    return hits.flatMap((h) => {
      const r = rows.get(h.id);
      return r ? [{ ...r, score: -h.score }] : [];
    });
  }

  /**
   * Passages for a question within `budgetChars`: whole transcripts when the
   * chosen recordings fit, else the best-ranked sentences each with one
   * sentence either side, merged where they touch, kept in time order.
   */
  retrieve(question: string, opts: { recordingIds: string[] | null; budgetChars: number; perLine?: number }): Retrieved {
    const perLine = opts.perLine ?? 24;
    // The whole library is looked up hit by hit: listing 10,000 recordings first would cost more than the ranking.
    const recs = opts.recordingIds === null ? [] : this.recordings(opts.recordingIds);
    const byTranscript = new Map(recs.map((r) => [r.transcriptId, r]));
    if (opts.recordingIds !== null) {
      const whole = recs.reduce((a, r) => a + r.chars * 1.05 + perLine * (r.chars / 60 + 1), 0);
      if (whole <= opts.budgetChars) {
        return {
          whole: true,
          recordings: recs.map((r) => ({
            recording: r,
            passages: this.sentences(r.transcriptId).map((s) => ({ recordingId: r.id, title: r.title, startMs: s.startMs, text: s.text })),
          })),
        };
      }
    }
    // About three sentences of ~80 characters a hit: more hits than the budget can hold are not worth ranking.
    const hits = this.rank(question, {
      transcriptIds: opts.recordingIds === null ? null : recs.map((r) => r.transcriptId),
      limit: Math.min(300, Math.ceil(opts.budgetChars / 200) + 10),
    });
    // The recordings of all hits and their neighbouring sentences, each in one query rather than one a hit.
    const unlisted = [...new Set(hits.map((h) => h.transcriptId))].filter((t) => !byTranscript.has(t));
    if (unlisted.length) {
      // Whole-library hits name transcripts this call has not listed (or an older transcript of a recording, which is left out).
      for (const r of this.recordingsOf.all(JSON.stringify(unlisted)) as RetrievalRecording[]) byTranscript.set(r.transcriptId, r);
    }
    const near = new Map<number, Sentence & { transcriptId: string }>(hits.map((h) => [h.id, h]));
    const wanted = [...new Set(hits.flatMap((h) => [h.id - 1, h.id + 1]))].filter((id) => !near.has(id));
    for (const r of this.byIds.all(JSON.stringify(wanted)) as (Sentence & { transcriptId: string })[]) near.set(r.id, r);
    const chosen = new Map<string, Map<number, Sentence>>();
    const order: string[] = [];
    let used = 0;
    for (const h of hits) {
      if (used >= opts.budgetChars) break;
      if (!byTranscript.has(h.transcriptId)) continue;
      const window: Sentence[] = [];
      for (const id of [h.id - 1, h.id, h.id + 1]) {
        const s = near.get(id);
        if (s && s.transcriptId === h.transcriptId) window.push({ id: s.id, startMs: s.startMs, text: s.text });
      }
      let set = chosen.get(h.transcriptId);
      const fresh = window.filter((s) => !set?.has(s.id));
      const cost = fresh.reduce((a, s) => a + s.text.length + perLine, 0);
      if (used + cost > opts.budgetChars) continue;
      if (!set) {
        set = new Map();
        chosen.set(h.transcriptId, set);
        order.push(h.transcriptId);
      }
      for (const s of fresh) set.set(s.id, s);
      used += cost;
    }
    return {
      whole: false,
      recordings: order.map((tid) => {
        const rec = byTranscript.get(tid) as RetrievalRecording;
        const sentences = [...(chosen.get(tid) as Map<number, Sentence>).values()].sort((a, b) => a.id - b.id);
        return { recording: rec, passages: sentences.map((s) => ({ recordingId: rec.id, title: rec.title, startMs: s.startMs, text: s.text })) };
      }),
    };
  }
}
