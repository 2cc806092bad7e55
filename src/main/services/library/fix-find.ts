/**
 * Fix everywhere's search: which transcripts hold a word in a given wrong form. The FTS index finds
 * the sentences that hold its tokens (stemming widens that: "phebe" also finds "phebes"); each
 * sentence's words are then compared exactly (any case, punctuation around a word ignored), and only
 * a recording's shown (newest) transcript counts, as it is the one a fix would change.
 */
import type { FixMatch } from '../../../shared/ipc/vocabulary';
import { spellingKey } from '../../../shared/vocabulary';
import type { Database } from './db';
import { SNIPPET_CLOSE, SNIPPET_OPEN, snippetParts } from './text';

/**
 * Reading stops once this many times `limit` transcripts hold the form (a very common word would
 * otherwise read the whole library, over a second at 10,000 transcripts): `complete` is then false.
 */
const READ_AHEAD = 2;

/** The FTS5 phrase for a word: its letter-and-digit tokens in order, quoted. */
function phraseOf(form: string): string | null {
  const tokens = form
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
  return tokens.length ? `"${tokens.join(' ')}"` : null;
}

/** One sentence with the matching words marked, as a search snippet is. */
function marked(text: string, key: string): string {
  return text
    .split(' ')
    .map((w) => (spellingKey(w) === key ? `${SNIPPET_OPEN}${w}${SNIPPET_CLOSE}` : w))
    .join(' ');
}

/** Sentences read per query; between pages the event loop turns once this turn's work passes SLICE_MS. */
const PAGE = 500;
const SLICE_MS = 30;

export async function findWordForm(db: Database, form: string, limit: number): Promise<{ matches: FixMatch[]; total: number; complete: boolean }> {
  const key = spellingKey(form);
  const phrase = phraseOf(form);
  if (!key || !phrase) return { matches: [], total: 0, complete: true };
  // Read in pages newest first (an iterator held across turns would keep the connection busy for everyone else).
  const page = db.prepare(
    `SELECT s.transcript_id AS tid, s.text AS text, f.rowid AS rid FROM sentences_fts f JOIN sentences s ON s.id = f.rowid
     WHERE sentences_fts MATCH ? AND f.rowid < ? ORDER BY f.rowid DESC LIMIT ${PAGE}`,
  );
  const byTranscript = new Map<string, { count: number; first: string }>();
  let complete = true;
  let slice = performance.now();
  let below = Number.MAX_SAFE_INTEGER;
  let stopped = false;
  for (;;) {
    const rows = page.all(phrase, below) as { tid: string; text: string; rid: number }[];
    for (const r of rows) {
      below = r.rid;
      // A transcript's sentences are rows in a run: stop between transcripts, so each one read is counted whole.
      if (byTranscript.size >= limit * READ_AHEAD && !byTranscript.has(r.tid)) {
        complete = false;
        stopped = true;
        break;
      }
      countIn(byTranscript, r, key);
    }
    if (stopped || rows.length < PAGE) break;
    if (performance.now() - slice >= SLICE_MS) {
      await new Promise((r) => setImmediate(r));
      slice = performance.now();
    }
  }
  return shownMatches(db, byTranscript, limit, complete, key);
}

/** One sentence's matching words counted for its transcript. */
function countIn(byTranscript: Map<string, { count: number; first: string }>, r: { tid: string; text: string }, key: string): void {
  let n = 0;
  for (const w of r.text.split(' ')) if (spellingKey(w) === key) n++;
  if (n === 0) return;
  const seen = byTranscript.get(r.tid);
  if (seen) {
    seen.count += n;
    // Rows come newest first; the earliest sentence of a transcript reads best as its example.
    seen.first = r.text;
  } else byTranscript.set(r.tid, { count: n, first: r.text });
}

/** The transcripts found that are their recording's shown one, newest first, at most `limit`. */
function shownMatches(
  db: Database,
  byTranscript: Map<string, { count: number; first: string }>,
  limit: number,
  complete: boolean,
  key: string,
): { matches: FixMatch[]; total: number; complete: boolean } {
  if (byTranscript.size === 0) return { matches: [], total: 0, complete };
  const ids = [...byTranscript.keys()];
  const shown = db.prepare(
    `SELECT t.id AS tid, r.id AS recordingId, r.title AS title, r.created_at AS created FROM transcripts t JOIN recordings r ON r.id = t.recording_id
     WHERE t.id = ? AND t.id = (SELECT id FROM transcripts WHERE recording_id = r.id ORDER BY created_at DESC, rowid DESC LIMIT 1)`,
  );
  const found: (FixMatch & { created: string })[] = [];
  for (const tid of ids) {
    const m = shown.get(tid) as { tid: string; recordingId: string; title: string; created: string } | undefined;
    const hit = byTranscript.get(tid);
    if (!m || !hit) continue;
    found.push({ recordingId: m.recordingId, title: m.title, count: hit.count, snippet: snippetParts(marked(hit.first, key)), created: m.created });
  }
  found.sort((a, b) => b.created.localeCompare(a.created));
  return { matches: found.slice(0, limit).map(({ created: _created, ...m }) => m), total: found.length, complete };
}
