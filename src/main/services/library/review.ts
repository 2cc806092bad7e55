/** Review of doubtful words: which words of a transcript the user accepted as heard (the text stays as it is). */
import { AppError } from '../../../shared/errors';
import type { Database } from './db';

export class ReviewStore {
  constructor(private readonly db: Database) {}

  /** The transcript's row, checked to belong to the recording the renderer has open (an older version or another recording's id is refused). */
  private wordCount(recordingId: string, transcriptId: string): number {
    const row = this.db.prepare(`SELECT word_count FROM transcripts WHERE id = ? AND recording_id = ?`).get(transcriptId, recordingId) as
      { word_count: number } | undefined;
    if (!row) throw new AppError('not_found', 'This transcript is no longer in the library.');
    return row.word_count;
  }

  /** Indexes of the accepted words, ascending. */
  accepted(recordingId: string, transcriptId: string): number[] {
    this.wordCount(recordingId, transcriptId);
    const rows = this.db.prepare(`SELECT word_index FROM review_accepted WHERE transcript_id = ? ORDER BY word_index`).all(transcriptId) as {
      word_index: number;
    }[];
    return rows.map((r) => r.word_index);
  }

  /** Marks words accepted (or, `accepted: false`, doubtful again: an undo); answers all accepted words. */
  accept(recordingId: string, transcriptId: string, indexes: number[], accepted: boolean): number[] {
    const count = this.wordCount(recordingId, transcriptId);
    const bad = indexes.find((i) => i >= count);
    if (bad !== undefined) throw new AppError('bad_request', `There is no word number ${bad} in this transcript.`);
    const sql = accepted
      ? `INSERT OR IGNORE INTO review_accepted (transcript_id, word_index) VALUES (?, ?)`
      : `DELETE FROM review_accepted WHERE transcript_id = ? AND word_index = ?`;
    const stmt = this.db.prepare(sql);
    this.db
      .transaction(() => {
        for (const i of indexes) stmt.run(transcriptId, i);
      })
      .immediate();
    return this.accepted(recordingId, transcriptId);
  }
}
