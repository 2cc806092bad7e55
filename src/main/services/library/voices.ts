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

/** A name a new speaker letter keeps through a re-cluster (voices/carry.ts): the letter it had `before`, and its remembered voice. */
export interface CarriedName {
  letter: string;
  before: string;
  name: string;
  voiceId: string | null;
  similarity: number | null;
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
   * speaker, the search index) with the note of how they were grouped (null: the note stays). Names given to the old labels are let
   * go (the letters now stand for other groups) except those `carried` to a new letter: the name, its match to
   * a remembered voice, and the voiceprints that voice took from this recording follow the new letter.
   */
  relabel(recordingId: string, transcriptId: string, words: Word[], note: SpeakerNote | null, carried: readonly CarriedName[] = []): void {
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
        const ins = this.db.prepare(`INSERT INTO speakers (transcript_id, speaker, name) VALUES (?, ?, ?)`);
        const nameOf = new Map(carried.map((c) => [c.letter, c]));
        for (const s of speakers) ins.run(transcriptId, s, nameOf.get(s)?.name ?? null);
        this.db.prepare(`DELETE FROM voice_matches WHERE transcript_id = ?`).run(transcriptId);
        this.carry(
          recordingId,
          transcriptId,
          carried.filter((c) => speakers.includes(c.letter)),
        );
        // No note: the grouping is the same (only the letters changed), and so is what was said of it.
        if (note)
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

  /** relabel's part for the names that follow their voices: matches again, and the prints' speaker letters (read first, so that swapped letters do not collide). */
  private carry(recordingId: string, transcriptId: string, carried: readonly CarriedName[]): void {
    const match = this.db.prepare(`INSERT OR REPLACE INTO voice_matches (transcript_id, speaker, voice_id, similarity) VALUES (?, ?, ?, ?)`);
    const prints = this.db.prepare(`SELECT rowid AS r, voice_id AS v, speaker FROM voice_prints WHERE recording_id = ?`).all(recordingId) as {
      r: number;
      v: string;
      speaker: string;
    }[];
    const moveTo = new Map<string, string>();
    for (const c of carried) {
      if (!c.voiceId) continue;
      match.run(transcriptId, c.letter, c.voiceId, c.similarity ?? 1);
      moveTo.set(`${c.voiceId}\u0000${c.before}`, c.letter);
    }
    const move = this.db.prepare(`UPDATE voice_prints SET speaker = ? WHERE rowid = ?`);
    for (const p of prints) {
      const to = moveTo.get(`${p.v}\u0000${p.speaker}`);
      if (to !== undefined && to !== p.speaker) move.run(to, p.r);
    }
  }
}
