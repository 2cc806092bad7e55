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

/**
 * A sentence's speaker from the start of its stored span, as stripSpan writes it (`{"start":…,"speaker":…}`,
 * found by SQLite in the column so only that piece crosses over); undefined when the piece does not say
 * (another layout, a speaker with a brace in it): the caller then reads the transcript's spans whole.
 */
function speakerIn(piece: string | null, start: number): string | null | undefined {
  const close = piece?.indexOf('}') ?? -1;
  if (!piece || close < 0) return undefined;
  try {
    const span = JSON.parse(piece.slice(0, close + 1)) as { start?: unknown; speaker?: unknown };
    return span.start !== start || !('speaker' in span) ? undefined : typeof span.speaker === 'string' ? span.speaker : null;
  } catch {
    return undefined;
  }
}

/**
 * The sentences among `rows` that a speaker matched to the voice says: the search index keeps no speaker, so
 * each sentence's is read from its transcript's stored spans (one span a sentence, the same start), and kept
 * when voice_matches maps that transcript's speaker to the voice. Reading and parsing every candidate
 * transcript's spans whole was most of a narrowed search's time when the hits are spread over many
 * transcripts (bench/people-search.ts), so there SQLite cuts out each sentence's own span instead.
 */
function spokenBy<T extends { id: number }>(db: Database, rows: T[], voiceId: string): T[] {
  if (rows.length === 0) return rows;
  const ids = (list: number[]) => JSON.stringify(list);
  const where = db
    .prepare(`SELECT id, transcript_id AS t, start_ms AS start FROM sentences WHERE id IN (SELECT value FROM json_each(?))`)
    .all(ids(rows.map((r) => r.id))) as { id: number; t: string; start: number }[];
  // A transcript with many candidates is read whole once; for one with a few, only their spans are cut out.
  const per = new Map<string, number>();
  for (const w of where) per.set(w.t, (per.get(w.t) ?? 0) + 1);
  const few = where.filter((w) => per.get(w.t)! <= 4).map((w) => w.id);
  const pieces = new Map(
    (
      db
        .prepare(
          `SELECT s.id, substr(tr.sentences, instr(tr.sentences, '{"start":' || s.start_ms || ','), 400) AS piece
           FROM sentences s JOIN transcripts tr ON tr.id = s.transcript_id
           WHERE s.id IN (SELECT value FROM json_each(?)) AND instr(tr.sentences, '{"start":' || s.start_ms || ',') > 0`,
        )
        .all(ids(few)) as { id: number; piece: string }[]
    ).map((r) => [r.id, r.piece]),
  );
  const speakers = db.prepare(`SELECT speaker FROM voice_matches WHERE transcript_id = ? AND voice_id = ?`);
  const spans = db.prepare(`SELECT sentences FROM transcripts WHERE id = ?`);
  const whole = new Map<string, Map<number, string | null>>();
  const theirs = new Map<string, Set<string>>();
  const keep = new Set<number>();
  for (const w of where) {
    let speaker = speakerIn(pieces.get(w.id) ?? null, w.start);
    if (speaker === undefined) {
      let at = whole.get(w.t);
      if (!at) {
        const row = spans.get(w.t) as { sentences: string } | undefined;
        let list: { start?: unknown; speaker?: unknown }[] = [];
        try {
          list = row ? (JSON.parse(row.sentences) as typeof list) : [];
        } catch {
          // A damaged column: no sentence of it can be said to be theirs.
        }
        at = new Map(list.map((s) => [Number(s.start), typeof s.speaker === 'string' ? s.speaker : null]));
        whole.set(w.t, at);
      }
      speaker = at.get(w.start) ?? null;
    }
    let mine = theirs.get(w.t);
    if (!mine) {
      mine = new Set((speakers.all(w.t, voiceId) as { speaker: string }[]).map((r) => r.speaker));
      theirs.set(w.t, mine);
    }
    if (speaker && mine.has(speaker)) keep.add(w.id);
  }
  return rows.filter((r) => keep.has(r.id));
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
  findWordForm(form: string, limit = 200): Promise<{ matches: FixMatch[]; total: number; complete: boolean }> {
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
   * With `voiceId`, only sentences a speaker recognised or named as that remembered voice says (spokenBy).
   */
  search(query: string, opts: { tag?: string; limit?: number; offset?: number; voiceId?: string } = {}): SearchHit[] {
    const match = ftsQuery(query);
    if (match === null) return [];
    const limit = opts.limit ?? 50;
    const offset = opts.offset ?? 0;
    const tagSql =
      opts.tag === undefined
        ? ''
        : `AND rowid IN (SELECT s.id FROM sentences s JOIN transcripts t ON t.id = s.transcript_id JOIN tags g ON g.recording_id = t.recording_id WHERE g.name = @tag)`;
    // One person: only matches in transcripts a speaker of theirs is in (the sentences' own speakers are checked
    // below). A join from each match, not \`rowid IN (every sentence of those transcripts)\`: that set was seconds.
    const voiceSql =
      opts.voiceId === undefined
        ? ''
        : `AND EXISTS (SELECT 1 FROM sentences s JOIN voice_matches m ON m.transcript_id = s.transcript_id WHERE s.id = sentences_fts.rowid AND m.voice_id = @voice)`;
    const found = this.db
      .prepare(
        `SELECT rowid AS id, highlight(sentences_fts, 0, '${SNIPPET_OPEN}', '${SNIPPET_CLOSE}') AS h
         FROM sentences_fts WHERE sentences_fts MATCH @match ${tagSql} ${voiceSql} ORDER BY rowid DESC LIMIT ${SEARCH_RANK_WINDOW}`,
      )
      .all({ match, tag: opts.tag, voice: opts.voiceId }) as { id: number; h: string }[];
    const candidates = opts.voiceId === undefined ? found : spokenBy(this.db, found, opts.voiceId);
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
