/** Ranked full-text search over every transcript's sentences, offline. */
import type { SearchHit } from '../../../shared/library';
import type { Database, LibraryContext } from './db';
import { ftsQuery, snippetParts, SNIPPET_CLOSE, SNIPPET_OPEN } from './text';
import { findWordForm } from './fix-find';
import type { FixMatch } from '../../../shared/ipc/vocabulary';

/** How many of the newest matching sentences a search ranks (see search()). */
export const SEARCH_RANK_WINDOW = 1000;

const MARK = new RegExp(`${SNIPPET_OPEN}[^${SNIPPET_CLOSE}]*${SNIPPET_CLOSE}`, 'g');

/** BM25 term-frequency part (k1 1.2, b 0.75, average sentence 15 words) from highlight() marks. */
function bm25NoIdf(marked: string): number {
  const tf = marked.match(MARK)?.length ?? 0;
  const len = marked.split(/\s+/).length;
  const k1 = 1.2;
  const norm = k1 * (1 - 0.75 + (0.75 * len) / 15);
  return (tf * (k1 + 1)) / (tf + norm);
}

/** About `tokens` words around the first mark, with … where text was cut. */
function cutSnippet(marked: string, tokens: number): string {
  const words = marked.split(' ');
  if (words.length <= tokens) return marked;
  const first = Math.max(
    0,
    words.findIndex((w) => w.includes(SNIPPET_OPEN)),
  );
  const from = Math.max(0, Math.min(first - Math.floor(tokens / 3), words.length - tokens));
  const to = from + tokens;
  return `${from > 0 ? '…' : ''}${words.slice(from, to).join(' ')}${to < words.length ? '…' : ''}`;
}

export class SearchIndex {
  constructor(
    private readonly db: Database,
    private readonly ctx: LibraryContext,
  ) {}

  /** Merge the index's segments (after a bulk load). */
  optimize(): void {
    this.db.exec(`INSERT INTO sentences_fts(sentences_fts) VALUES ('optimize')`);
  }

  /** Fix everywhere: the recordings whose shown transcript holds `form` as a word (fix-find.ts). */
  findWordForm(form: string, limit = 200): { matches: FixMatch[]; total: number; complete: boolean } {
    return findWordForm(this.db, form, limit);
  }

  sentenceCount(): number {
    return (this.db.prepare(`SELECT count(*) AS n FROM sentences`).get() as { n: number }).n;
  }

  /**
   * Ranked full-text search. FTS5's bm25 needs, for every query, a count of
   * all rows holding each term: a pass over the whole index for a common word
   * (seconds at 10,000 transcripts). So the newest SEARCH_RANK_WINDOW matching
   * sentences are taken in rowid order (cheap), FTS5 marks the matched tokens
   * (highlight(), stemming included), and they are scored here as BM25 without
   * the IDF factor: every hit holds every term, so IDF only reweighs terms.
   * Exact over everything for queries with fewer matches than the window.
   */
  search(query: string, opts: { tag?: string; limit?: number; offset?: number } = {}): SearchHit[] {
    const match = ftsQuery(query);
    if (match === null) return [];
    const limit = opts.limit ?? 50;
    const offset = opts.offset ?? 0;
    const tagSql =
      opts.tag === undefined
        ? ''
        : `AND rowid IN (SELECT s.id FROM sentences s JOIN transcripts t ON t.id = s.transcript_id JOIN tags g ON g.recording_id = t.recording_id WHERE g.name = @tag)`;
    const candidates = this.db
      .prepare(
        `SELECT rowid AS id, highlight(sentences_fts, 0, '${SNIPPET_OPEN}', '${SNIPPET_CLOSE}') AS h
         FROM sentences_fts WHERE sentences_fts MATCH @match ${tagSql} ORDER BY rowid DESC LIMIT ${SEARCH_RANK_WINDOW}`,
      )
      .all({ match, tag: opts.tag }) as { id: number; h: string }[];
    if (candidates.length === 0) return [];
    const scored = candidates.map((c) => ({ ...c, score: bm25NoIdf(c.h) })).sort((a, b) => b.score - a.score || b.id - a.id);
    const page = scored.slice(offset, offset + limit);
    if (page.length === 0) return [];
    const meta = new Map(
      (
        this.db
          .prepare(
            `SELECT s.id, s.start_ms AS startMs, r.id AS recordingId, r.title FROM sentences s
             JOIN transcripts t ON t.id = s.transcript_id JOIN recordings r ON r.id = t.recording_id
             WHERE s.id IN (${page.map(() => '?').join(',')})`,
          )
          .all(...page.map((p) => p.id)) as { id: number; startMs: number; recordingId: string; title: string }[]
      ).map((m) => [m.id, m]),
    );
    return page.flatMap((p) => {
      const m = meta.get(p.id);
      return m ? [{ recordingId: m.recordingId, title: m.title, startMs: m.startMs, rank: -p.score, snippet: snippetParts(cutSnippet(p.h, 16)) }] : [];
    });
  }
}
