/**
 * Retrieval for chats over many recordings: the question's words ranked with
 * BM25 over the library's FTS5 sentence index (the commonest words dropped
 * when rarer ones exist, using the index's own vocabulary), each hit widened
 * to its neighbouring sentences, and the best passages kept within a budget.
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

/** About how many matching rows a whole-library question ranks at most (see rank()). */
export const RANK_WINDOW = 5_000;

const LATEST = `SELECT id FROM transcripts WHERE recording_id = r.id ORDER BY created_at DESC, rowid DESC LIMIT 1`;

export class RetrievalStore {
  private stemmer: { insert: Statement; read: Statement; clear: Statement } | null = null;
  private readonly df: Statement;
  private readonly neighbours: Statement;

  constructor(
    private readonly db: Database,
    _ctx?: unknown,
  ) {
    this.df = db.prepare(`SELECT doc FROM sentences_vocab WHERE term = ?`);
    this.neighbours = db.prepare(`SELECT id, start_ms AS startMs, text FROM sentences WHERE transcript_id = ? AND id BETWEEN ? AND ? ORDER BY id`);
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
    const counted = words.map((word, i) => ({ word, docs: (this.df.get(stems[i]) as { doc: number } | undefined)?.doc ?? 0 })).filter((t) => t.docs > 0);
    const total = (this.db.prepare(`SELECT max(id) AS n FROM sentences`).get() as { n: number | null }).n ?? 0;
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
    if (common && quoted.length > 1) {
      const all = this.rankMatch(quoted.join(' AND '), opts.transcriptIds ?? null, limit, 0);
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
    const filter = ids ? `AND rowid IN (SELECT id FROM sentences WHERE transcript_id IN (SELECT value FROM json_each(@ids)))` : '';
    // Ranking reads every matching row: for words in a large share of a big library, only the newest
    // part of the index holding about RANK_WINDOW of their rows is ranked (rowid ranges are cheap in FTS5).
    let minRowid = 0;
    if (!ids && matches > RANK_WINDOW) {
      const max = (this.db.prepare(`SELECT max(id) AS n FROM sentences`).get() as { n: number | null }).n ?? 0;
      minRowid = Math.max(0, Math.floor(max - (max * RANK_WINDOW) / matches));
    }
    const hits = this.db
      .prepare(
        `SELECT rowid AS id, bm25(sentences_fts) AS score FROM sentences_fts WHERE sentences_fts MATCH @match AND rowid >= @minRowid ${filter} ORDER BY rank LIMIT @limit`,
      )
      .all({ match, ids: ids ? JSON.stringify(ids) : null, limit, minRowid }) as { id: number; score: number }[];
    if (!hits.length) return [];
    const rows = new Map(
      (
        this.db
          .prepare(`SELECT id, transcript_id AS transcriptId, start_ms AS startMs, text FROM sentences WHERE id IN (SELECT value FROM json_each(?))`)
          .all(JSON.stringify(hits.map((h) => h.id))) as (Sentence & {
          transcriptId: string;
        })[]
      ).map((r) => [r.id, r]),
    );
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
    const chosen = new Map<string, Map<number, Sentence>>();
    const order: string[] = [];
    let used = 0;
    for (const h of hits) {
      if (used >= opts.budgetChars) break;
      let rec = byTranscript.get(h.transcriptId);
      if (!rec) {
        // Whole-library hits name transcripts this call has not listed (or an older transcript of a recording).
        rec = this.recordingOfTranscript(h.transcriptId) ?? undefined;
        if (!rec) continue;
        byTranscript.set(h.transcriptId, rec);
      }
      const window = this.neighbours.all(h.transcriptId, h.id - 1, h.id + 1) as Sentence[];
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

  private recordingOfTranscript(transcriptId: string): RetrievalRecording | null {
    const r = this.db
      .prepare(
        `SELECT r.id, r.title, t.id AS transcriptId, t.region, t.base_url AS baseUrl, t.remote_id AS remoteId, length(coalesce(t.text, '')) AS chars
         FROM transcripts t JOIN recordings r ON r.id = t.recording_id WHERE t.id = ? AND t.status = 'completed' AND t.id = (${LATEST})`,
      )
      .get(transcriptId) as RetrievalRecording | undefined;
    return r ?? null;
  }
}
