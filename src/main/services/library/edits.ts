/** The user's edits of a transcript: word corrections (the original kept beside), speaker names, edited cues. */
import { AppError } from '../../../shared/errors';
import type { Transcript } from '../../../shared/library';
import { touch, type Database, type LibraryContext } from './db';
import { indexSentences, readTranscript } from './transcripts';
import { packWords, span, stripSpan, type StoredSpan } from './text';

export class EditStore {
  constructor(
    private readonly db: Database,
    private readonly ctx: LibraryContext,
  ) {}

  correctWords(recordingId: string, edits: { index: number; text: string }[]): Transcript {
    this.applyCorrections(recordingId, edits);
    return readTranscript(this.db, recordingId);
  }

  /** correctWords without reading the transcript back (Fix everywhere writes hundreds and shows none). */
  applyCorrections(recordingId: string, edits: { index: number; text: string }[]): void {
    const current = readTranscript(this.db, recordingId);
    const words = current.words.map((w) => ({ ...w }));
    for (const e of edits) {
      const w = words[e.index];
      if (!w) throw new AppError('bad_request', `There is no word number ${e.index} in this transcript.`);
      // The first original is kept; correcting back to it removes the mark.
      const original = w.original ?? w.text;
      w.original = e.text === original ? null : original;
      w.text = e.text;
    }
    const stored = JSON.parse(
      (this.db.prepare(`SELECT sentences, paragraphs FROM transcripts WHERE id = ?`).get(current.transcriptId) as { sentences: string }).sentences,
    ) as StoredSpan[];
    const sentences = stored.map((s) => ({ ...span(words, s.firstWord, s.lastWord), start: s.start, end: s.end }));
    const paragraphs = current.paragraphs.map((p) => ({ ...span(words, p.firstWord, p.lastWord), start: p.start, end: p.end }));
    const text = paragraphs.map((p) => p.text).join(' ');
    this.db
      .transaction(() => {
        this.db.prepare(`UPDATE words SET data = ? WHERE transcript_id = ?`).run(packWords(words), current.transcriptId);
        const keep = this.db.prepare(`INSERT OR REPLACE INTO word_corrections (transcript_id, word_index, original) VALUES (?, ?, ?)`);
        const drop = this.db.prepare(`DELETE FROM word_corrections WHERE transcript_id = ? AND word_index = ?`);
        for (const e of edits) {
          const original = words[e.index]?.original;
          if (original) keep.run(current.transcriptId, e.index, original);
          else drop.run(current.transcriptId, e.index);
        }
        this.db
          .prepare(`UPDATE transcripts SET text = ?, sentences = ?, paragraphs = ? WHERE id = ?`)
          .run(text, JSON.stringify(sentences.map(stripSpan)), JSON.stringify(paragraphs.map(stripSpan)), current.transcriptId);
        updateSentences(this.db, current.transcriptId, sentences);
        touch(this.db, recordingId);
      })
      .immediate();
    this.ctx.changed([recordingId], 'updated');
  }

  renameSpeaker(recordingId: string, speaker: string, name: string | null): Transcript {
    const t = readTranscript(this.db, recordingId);
    this.db
      .prepare(`INSERT INTO speakers (transcript_id, speaker, name) VALUES (?, ?, ?) ON CONFLICT (transcript_id, speaker) DO UPDATE SET name = excluded.name`)
      .run(t.transcriptId, speaker, name === '' ? null : name);
    touch(this.db, recordingId);
    this.ctx.changed([recordingId], 'updated');
    return readTranscript(this.db, recordingId);
  }
}

/**
 * The search rows of a transcript whose words were corrected: its sentences keep their bounds, so
 * only those whose text changed are rewritten (rewriting all 1,400 sentences of a two-hour meeting
 * took most of a correction's 300 ms). Any other shape: all of them again.
 */
function updateSentences(db: Database, transcriptId: string, sentences: { text: string; start: number }[]): void {
  const rows = db.prepare(`SELECT id, text FROM sentences WHERE transcript_id = ? ORDER BY id`).all(transcriptId) as { id: number; text: string }[];
  if (rows.length !== sentences.length) return indexSentences(db, transcriptId, sentences as Parameters<typeof indexSentences>[2]);
  const update = db.prepare(`UPDATE sentences SET text = ? WHERE id = ?`);
  rows.forEach((r, i) => {
    const text = sentences[i]!.text;
    if (r.text !== text) update.run(text, r.id);
  });
}
