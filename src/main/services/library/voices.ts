/**
 * The library's voices (migration 16): each transcript's turn voiceprints, kept so "Re-cluster" needs no
 * recognition; the note of how a transcript's speakers were last grouped; new speaker labels written back
 * into a transcript. Vectors are stored as float32 blobs.
 */
import type { Word } from '../../../shared/library';
import { touch, type Database, type LibraryContext } from './db';
import { indexSentences, readTranscript } from './transcripts';
import { PeopleStore } from './people';
import { fromBlob, toBlob } from './vectors';
import { packWords, paragraphsFromSentences, sentencesFromWords, stripSpan } from './text';

export interface StoredTurn {
  firstWord: number;
  lastWord: number;
  start: number;
  end: number;
  model: string;
  /** Null: the turn had too little audio for a voiceprint. */
  vector: Float32Array | null;
}

export interface SpeakerNote {
  speakers: number;
  merged: number;
  /** "auto" or the count asked for. */
  asked: string;
}

export class VoiceStore {
  /** Remembered voices (People). */
  readonly people: PeopleStore;

  constructor(
    private readonly db: Database,
    private readonly ctx: LibraryContext,
  ) {
    this.people = new PeopleStore(db, ctx);
  }

  /** The current transcript's id of a recording (what re-clustering rewrites). */
  currentTranscript(recordingId: string): string {
    return readTranscript(this.db, recordingId).transcriptId;
  }

  turns(transcriptId: string): StoredTurn[] {
    const rows = this.db
      .prepare(`SELECT first_word, last_word, start_ms, end_ms, model, vector FROM turn_voices WHERE transcript_id = ? ORDER BY idx`)
      .all(transcriptId) as { first_word: number; last_word: number; start_ms: number; end_ms: number; model: string; vector: Buffer | null }[];
    return rows.map((r) => ({
      firstWord: r.first_word,
      lastWord: r.last_word,
      start: r.start_ms,
      end: r.end_ms,
      model: r.model,
      vector: r.vector ? fromBlob(r.vector) : null,
    }));
  }

  saveTurns(transcriptId: string, turns: readonly StoredTurn[]): void {
    const ins = this.db.prepare(
      `INSERT INTO turn_voices (transcript_id, idx, first_word, last_word, start_ms, end_ms, model, vector) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.db
      .transaction(() => {
        this.db.prepare(`DELETE FROM turn_voices WHERE transcript_id = ?`).run(transcriptId);
        turns.forEach((t, i) => ins.run(transcriptId, i, t.firstWord, t.lastWord, t.start, t.end, t.model, t.vector ? toBlob(t.vector) : null));
      })
      .immediate();
  }

  note(transcriptId: string): SpeakerNote | null {
    return (this.db.prepare(`SELECT speakers, merged, asked FROM speaker_notes WHERE transcript_id = ?`).get(transcriptId) as SpeakerNote | undefined) ?? null;
  }

  /**
   * Writes new speaker labels into a transcript (words, sentences and paragraphs split at the new changes of
   * speaker, the search index) with the note of how they were grouped. Names given to the old labels are let
   * go: the letters now stand for other groups.
   */
  relabel(recordingId: string, transcriptId: string, words: Word[], note: SpeakerNote): void {
    const sentences = sentencesFromWords(words);
    const paragraphs = paragraphsFromSentences(words, sentences);
    const speakers = [...new Set(words.map((w) => w.speaker).filter((s): s is string => s !== null))];
    this.db
      .transaction(() => {
        this.db.prepare(`UPDATE words SET data = ? WHERE transcript_id = ?`).run(packWords(words), transcriptId);
        this.db
          .prepare(`UPDATE transcripts SET sentences = ?, paragraphs = ? WHERE id = ?`)
          .run(JSON.stringify(sentences.map(stripSpan)), JSON.stringify(paragraphs.map(stripSpan)), transcriptId);
        indexSentences(this.db, transcriptId, sentences);
        this.db.prepare(`DELETE FROM speakers WHERE transcript_id = ?`).run(transcriptId);
        const ins = this.db.prepare(`INSERT INTO speakers (transcript_id, speaker) VALUES (?, ?)`);
        for (const s of speakers) ins.run(transcriptId, s);
        this.db.prepare(`DELETE FROM voice_matches WHERE transcript_id = ?`).run(transcriptId);
        this.db
          .prepare(
            `INSERT INTO speaker_notes (transcript_id, speakers, merged, asked) VALUES (?, ?, ?, ?)
             ON CONFLICT (transcript_id) DO UPDATE SET speakers = excluded.speakers, merged = excluded.merged, asked = excluded.asked`,
          )
          .run(transcriptId, note.speakers, note.merged, note.asked);
        touch(this.db, recordingId);
      })
      .immediate();
    this.ctx.changed([recordingId], 'updated');
  }
}
