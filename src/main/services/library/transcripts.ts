/** Transcripts of recordings: status mirrored from jobs, the finished words and spans (with their search rows), and reading one back whole. */
import { randomUUID } from 'node:crypto';
import { AppError } from '../../../shared/errors';
import type { JobError, ServiceRegion } from '../../../shared/jobs';
import type { Cue, Span, Transcript, TranscriptStatus, Word } from '../../../shared/library';
import { recordingOf, touch, type Database, type LibraryContext } from './db';
import { readItem } from './recordings';
import { expandSpans, packWords, paragraphsFromSentences, sentencesFromWords, stripSpan, unpackWords, wordColumns, type StoredSpan } from './text';
import { packSpans } from '../../../shared/transcript-columns';
import type { TranscriptWire } from '../../../shared/transcript-wire';
import { toWebhookStatus, type WebhookColumns } from './webhook-log';

export interface CompletedTranscript {
  remoteId: string | null;
  text: string;
  words: Word[];
  /** From the service's sentences view when available; else built from words. */
  sentences: Span[] | null;
  paragraphs: Span[] | null;
  confidence: number | null;
  language: string | null;
  model: string | null;
  durationMs: number | null;
}

/** The words of a transcript with the user's corrections marked (`original`). */
export function readWords(db: Database, transcriptId: string): Word[] {
  const row = db.prepare(`SELECT data FROM words WHERE transcript_id = ?`).get(transcriptId) as { data: Buffer } | undefined;
  const words = row ? unpackWords(row.data) : [];
  const corrections = db.prepare(`SELECT word_index, original FROM word_corrections WHERE transcript_id = ?`).all(transcriptId) as {
    word_index: number;
    original: string;
  }[];
  for (const c of corrections) {
    const w = words[c.word_index];
    if (w) w.original = c.original;
  }
  return words;
}

/** Replace a transcript's rows in the full-text index. */
export function indexSentences(db: Database, transcriptId: string, sentences: Span[]): void {
  db.prepare(`DELETE FROM sentences WHERE transcript_id = ?`).run(transcriptId);
  const ins = db.prepare(`INSERT INTO sentences (transcript_id, start_ms, text) VALUES (?, ?, ?)`);
  for (const s of sentences) ins.run(transcriptId, s.start, s.text);
}

/** A recording with its latest transcript, or with `transcriptId` (an older version of a live session). */
type TranscriptRow = {
  id: string;
  text: string;
  confidence: number | null;
  sentences: string;
  paragraphs: string;
  options: string;
  status: string;
  word_count: number;
  completed_at: string | null;
} & WebhookColumns;

/** A version of a recording's transcript (the newest when none is named), but its words and spans, which each reader shapes its own way. */
function readShell(
  db: Database,
  recordingId: string,
  transcriptId?: string,
  withCues = true,
): { shell: Omit<Transcript, 'words' | 'sentences' | 'paragraphs'>; row: TranscriptRow } {
  const item = readItem(db, recordingId);
  const t = (
    transcriptId
      ? db.prepare(`SELECT * FROM transcripts WHERE recording_id = ? AND id = ?`).get(recordingId, transcriptId)
      : db.prepare(`SELECT * FROM transcripts WHERE recording_id = ? ORDER BY created_at DESC, rowid DESC LIMIT 1`).get(recordingId)
  ) as TranscriptRow | undefined;
  if (!t) throw new AppError('not_found', 'This version of the transcript is no longer in the library.');
  // An older version is shown with its own state, not the newest one's.
  const shown = transcriptId ? { ...item, status: t.status as TranscriptStatus, wordCount: t.word_count, completedAt: t.completed_at } : item;

  const speakers = db.prepare(`SELECT speaker AS id, name FROM speakers WHERE transcript_id = ? ORDER BY speaker`).all(t.id) as {
    id: string;
    name: string | null;
  }[];
  const shell = {
    item: shown,
    transcriptId: t.id,
    text: t.text,
    confidence: t.confidence,
    speakers,
    cues: withCues ? readCues(db, t.id) : null,
    options: JSON.parse(t.options) as Record<string, unknown>,
    webhook: toWebhookStatus(t),
  };
  return { shell, row: t };
}

/** The subtitle cues the editor last saved; null when it never did. */
function readCues(db: Database, transcriptId: string): Cue[] | null {
  const row = db.prepare(`SELECT data FROM cues WHERE transcript_id = ?`).get(transcriptId) as { data: string } | undefined;
  return row ? (JSON.parse(row.data) as Cue[]) : null;
}

export function readTranscript(db: Database, recordingId: string, transcriptId?: string): Transcript {
  const { shell, row } = readShell(db, recordingId, transcriptId);
  const words = readWords(db, row.id);
  return {
    ...shell,
    words,
    sentences: expandSpans(words, JSON.parse(row.sentences) as StoredSpan[]),
    paragraphs: expandSpans(words, JSON.parse(row.paragraphs) as StoredSpan[]),
  };
}

/** The same transcript as the bridge carries it (transcript-wire.ts), from the stored columns: no object per word, no span text to join. */
/**
 * What library.get answers: the transcript with its words and spans as columns. With `firstWords`,
 * only its first screen when the transcript is longer (transcript-wire.ts `partial`): the paragraphs
 * up to the one that holds word `firstWords`, their sentences and words, and no cues.
 */
export function readTranscriptWire(db: Database, recordingId: string, transcriptId?: string, firstWords?: number): TranscriptWire {
  const { shell, row } = readShell(db, recordingId, transcriptId, false);
  const blob = db.prepare(`SELECT data FROM words WHERE transcript_id = ?`).get(row.id) as { data: Buffer } | undefined;
  const columns = blob ? wordColumns(blob.data) : { text: [], start: [], end: [], confidence: [], speaker: [] };
  const n = columns.text.length;
  const sentences = JSON.parse(row.sentences) as StoredSpan[];
  const paragraphs = JSON.parse(row.paragraphs) as StoredSpan[];
  const cut = firstWords === undefined ? n : firstScreenEnd(n, paragraphs.length ? paragraphs : sentences, firstWords);
  const original = (
    db.prepare(`SELECT word_index, original FROM word_corrections WHERE transcript_id = ? ORDER BY word_index`).all(row.id) as {
      word_index: number;
      original: string;
    }[]
  )
    .filter((c) => c.word_index < cut)
    .map((c): [number, string] => [c.word_index, c.original]);
  if (cut === n) {
    return { ...shell, cues: readCues(db, row.id), words: { ...columns, original }, sentences: packSpans(sentences), paragraphs: packSpans(paragraphs) };
  }
  const text = columns.text.slice(0, cut);
  return {
    ...shell,
    text: text.join(' '),
    cues: null,
    words: {
      text,
      start: columns.start.slice(0, cut),
      end: columns.end.slice(0, cut),
      confidence: columns.confidence.slice(0, cut),
      speaker: columns.speaker.slice(0, cut),
      original,
    },
    sentences: packSpans(sentences.filter((s) => s.lastWord < cut)),
    paragraphs: packSpans(paragraphs.filter((p) => p.lastWord < cut)),
    partial: { words: n, paragraphs: paragraphs.length },
  };
}

/** Where a first screen of `firstWords` words ends: after the span that holds that word (spans keep whole), or at that word when there are no spans. */
function firstScreenEnd(n: number, spans: readonly StoredSpan[], firstWords: number): number {
  if (firstWords >= n) return n;
  if (!spans.length) return firstWords;
  const holding = spans.find((s) => s.lastWord >= firstWords - 1);
  return holding ? Math.min(n, holding.lastWord + 1) : n;
}

/** What a new version of a recording's transcript is asked with. */
export type NewVersion = { region: ServiceRegion; baseUrl: string | null; options: Record<string, unknown> };

/** Inserts a queued transcript of the recording (the one INSERT of a version, for transcripts and live sessions alike); returns its id. */
export function insertQueuedVersion(db: Database, recordingId: string, v: NewVersion): string {
  const transcriptId = randomUUID();
  db.prepare(`INSERT INTO transcripts (id, recording_id, region, base_url, status, options, created_at) VALUES (?, ?, ?, ?, 'queued', ?, ?)`).run(
    transcriptId,
    recordingId,
    v.region,
    v.baseUrl,
    JSON.stringify(v.options),
    new Date().toISOString(),
  );
  return transcriptId;
}

/** Mirror a job's state on its transcript (the library list shows it). */
export function setTranscriptStatus(
  db: Database,
  transcriptId: string,
  status: TranscriptStatus,
  extra: { remoteId?: string | null; error?: JobError | null } = {},
): void {
  const now = new Date().toISOString();
  const sets = ['status = @status'];
  if (extra.remoteId !== undefined) sets.push('remote_id = @remoteId');
  if (status === 'submitted') sets.push('submitted_at = coalesce(submitted_at, @now)');
  if (extra.error !== undefined) sets.push('error_code = @code', 'error_message = @message', 'error_retryable = @retryable');
  db.prepare(`UPDATE transcripts SET ${sets.join(', ')} WHERE id = @id`).run({
    id: transcriptId,
    status,
    now,
    remoteId: extra.remoteId ?? null,
    code: extra.error?.code ?? null,
    message: extra.error?.message ?? null,
    retryable: extra.error ? (extra.error.retryable ? 1 : 0) : null,
  });
  touch(db, recordingOf(db, transcriptId));
}

export class TranscriptStore {
  constructor(
    private readonly db: Database,
    private readonly ctx: LibraryContext,
  ) {}

  setStatus(transcriptId: string, status: TranscriptStatus, extra: { remoteId?: string | null; error?: JobError | null } = {}): void {
    setTranscriptStatus(this.db, transcriptId, status, extra);
  }

  /** A new, queued transcript of a recording (speakers added, a live session improved); the older versions stay. */
  addVersion(recordingId: string, v: NewVersion): string {
    const transcriptId = insertQueuedVersion(this.db, recordingId, v);
    this.ctx.changed([recordingId], 'updated');
    return transcriptId;
  }

  /** Store a finished transcript: words, spans, search rows, in one transaction. */
  complete(transcriptId: string, t: CompletedTranscript): void {
    const sentences = t.sentences ?? sentencesFromWords(t.words);
    const paragraphs = t.paragraphs ?? paragraphsFromSentences(t.words, sentences);
    const recordingId = recordingOf(this.db, transcriptId);
    const now = new Date().toISOString();
    this.db
      .transaction(() => {
        this.db
          .prepare(
            `UPDATE transcripts SET status = 'completed', remote_id = coalesce(@remoteId, remote_id), text = @text, confidence = @confidence,
             language = @language, model = @model, word_count = @count, sentences = @sentences, paragraphs = @paragraphs,
             error_code = NULL, error_message = NULL, error_retryable = NULL, completed_at = @now WHERE id = @id`,
          )
          .run({
            id: transcriptId,
            remoteId: t.remoteId,
            text: t.text,
            confidence: t.confidence,
            language: t.language,
            model: t.model,
            count: t.words.length,
            sentences: JSON.stringify(sentences.map(stripSpan)),
            paragraphs: JSON.stringify(paragraphs.map(stripSpan)),
            now,
          });
        this.db.prepare(`INSERT OR REPLACE INTO words (transcript_id, count, data) VALUES (?, ?, ?)`).run(transcriptId, t.words.length, packWords(t.words));
        indexSentences(this.db, transcriptId, sentences);
        const speakers = [...new Set(t.words.map((w) => w.speaker).filter((s): s is string => s !== null))];
        const insSpeaker = this.db.prepare(`INSERT OR IGNORE INTO speakers (transcript_id, speaker) VALUES (?, ?)`);
        for (const s of speakers) insSpeaker.run(transcriptId, s);
        // The service reports whole seconds: a length measured before upload that agrees within a second is the more precise one.
        this.db
          .prepare(
            `UPDATE recordings SET duration_ms = CASE WHEN duration_ms IS NOT NULL AND abs(duration_ms - @d) < 1000 THEN duration_ms ELSE coalesce(@d, duration_ms) END,
             updated_at = @now WHERE id = @id`,
          )
          .run({ id: recordingId, d: t.durationMs, now });
      })
      .immediate();
  }

  get(recordingId: string, transcriptId?: string): Transcript {
    return readTranscript(this.db, recordingId, transcriptId);
  }

  /** What library.get answers: the transcript with its words and spans as columns (only its first screen with `firstWords`, see readTranscriptWire). */
  wire(recordingId: string, transcriptId?: string, firstWords?: number): TranscriptWire {
    return readTranscriptWire(this.db, recordingId, transcriptId, firstWords);
  }

  words(transcriptId: string): Word[] {
    return readWords(this.db, transcriptId);
  }

  /** A recording's shown (newest) transcript: its id and its words only (what Fix everywhere reads of hundreds of them). */
  shownWords(recordingId: string): { transcriptId: string; words: Word[] } {
    const t = this.db.prepare(`SELECT id FROM transcripts WHERE recording_id = ? ORDER BY created_at DESC, rowid DESC LIMIT 1`).get(recordingId) as
      { id: string } | undefined;
    if (!t) throw new AppError('not_found', 'This recording is no longer in the library.');
    return { transcriptId: t.id, words: readWords(this.db, t.id) };
  }

  /** Transcripts of these recordings that exist on a service: what a remote delete needs. */
  remoteRefs(recordingIds: string[]): { recordingId: string; region: ServiceRegion; baseUrl: string | null; remoteId: string }[] {
    const stmt = this.db.prepare(
      `SELECT recording_id AS recordingId, region, base_url AS baseUrl, remote_id AS remoteId FROM transcripts WHERE recording_id = ? AND remote_id IS NOT NULL`,
    );
    return recordingIds.flatMap((id) => stmt.all(id) as { recordingId: string; region: ServiceRegion; baseUrl: string | null; remoteId: string }[]);
  }
}
