/**
 * Remembered voices (People): a voice is a name and the voiceprints of the turns a user named with it, kept
 * only in this library. Matching later recordings reads the voices' centroids; rename, merge, split and forget
 * change them. Forget deletes with SQLite's secure_delete on and then truncates the write-ahead log, so the
 * voiceprint's bytes are gone from the database files, not merely unlinked.
 */
import { randomUUID } from 'node:crypto';
import { AppError } from '../../../shared/errors';
import { centroid } from '../../../shared/voices/cluster';
import { RECOGNISED_LIVE } from '../../../shared/ipc/people';
import { checkVoiceName, voiceNameKey } from '../../../shared/voices/names';
import { touch, type Database, type LibraryContext } from './db';
import { fromBlob, toBlob } from './vectors';

export interface VoiceSummary {
  id: string;
  name: string;
  /** Turns its voiceprint is made of. */
  prints: number;
  /** Seconds of speech in them. */
  seconds: number;
  recordings: { id: string; title: string; similarity: number | null }[];
}

export interface KnownVoice {
  id: string;
  name: string;
  vector: Float32Array;
}

export class PeopleStore {
  constructor(
    private readonly db: Database,
    private readonly ctx: LibraryContext,
  ) {
    // Every delete on this connection overwrites the freed bytes, so no copy of a voiceprint lingers in a free page.
    db.pragma('secure_delete = ON');
  }

  private exists(id: string): { id: string; name: string; model: string } {
    const v = this.db.prepare(`SELECT id, name, model FROM voices WHERE id = ?`).get(id) as { id: string; name: string; model: string } | undefined;
    if (!v) throw new AppError('not_found', 'That voice is not remembered (it may have been forgotten).');
    return v;
  }

  /** The voice called `name` under Unicode case folding (SQLite's NOCASE folds ASCII only), but `except`; the name checked first. */
  private byName(name: string, except?: string): { id: string; model: string } | undefined {
    const why = checkVoiceName(name);
    if (why) throw new AppError('bad_request', why);
    const key = voiceNameKey(name);
    const all = this.db.prepare(`SELECT id, name, model FROM voices`).all() as { id: string; name: string; model: string }[];
    return all.find((v) => v.id !== except && voiceNameKey(v.name) === key);
  }

  list(): VoiceSummary[] {
    const voices = this.db
      .prepare(
        `SELECT v.id, v.name, count(p.voice_id) AS prints, coalesce(sum(p.ms), 0) AS ms FROM voices v LEFT JOIN voice_prints p ON p.voice_id = v.id GROUP BY v.id ORDER BY v.name COLLATE NOCASE`,
      )
      .all() as { id: string; name: string; prints: number; ms: number }[];
    const recs = this.db.prepare(
      // A recording the voice was named in says so (null); one it was only recognised in gives the match.
      `SELECT r.id, r.title, CASE WHEN max(m.named) = 1 THEN NULL ELSE max(m.similarity) END AS similarity FROM recordings r
       JOIN (SELECT recording_id AS rid, NULL AS similarity, 1 AS named FROM voice_prints WHERE voice_id = @v
             UNION ALL SELECT t.recording_id AS rid, vm.similarity, 0 AS named FROM voice_matches vm JOIN transcripts t ON t.id = vm.transcript_id WHERE vm.voice_id = @v) m ON m.rid = r.id
       GROUP BY r.id ORDER BY r.created_at DESC`,
    );
    return voices.map((v) => ({
      id: v.id,
      name: v.name,
      prints: v.prints,
      seconds: Math.round(v.ms / 100) / 10,
      recordings: (recs.all({ v: v.id }) as { id: string; title: string; similarity: number | null }[]).map((r) => ({
        ...r,
        similarity: r.similarity ?? null,
      })),
    }));
  }

  /** Adds the voiceprints of one speaker's turns to the voice of that name (made when new); answers its id. */
  remember(recordingId: string, name: string, model: string, prints: { vector: Float32Array; ms: number }[], speaker: string): string {
    if (prints.length === 0) throw new AppError('bad_request', 'This speaker has no turn long enough to remember the voice.');
    const now = new Date().toISOString();
    return this.db
      .transaction(() => {
        const found = this.byName(name);
        if (found && found.model !== model)
          throw new AppError('conflict', `${name}'s voice was remembered with another speaker model; forget it in People to remember it again.`);
        const id = found?.id ?? randomUUID();
        if (!found) this.db.prepare(`INSERT INTO voices (id, name, model, created_at, updated_at) VALUES (?, ?, ?, ?, ?)`).run(id, name, model, now, now);
        // Naming the same speaker again replaces what it gave before.
        this.db.prepare(`DELETE FROM voice_prints WHERE voice_id = ? AND recording_id = ? AND speaker = ?`).run(id, recordingId, speaker);
        const ins = this.db.prepare(`INSERT INTO voice_prints (voice_id, recording_id, speaker, ms, vector) VALUES (?, ?, ?, ?, ?)`);
        for (const p of prints) ins.run(id, recordingId, speaker, Math.round(p.ms), toBlob(p.vector));
        this.db.prepare(`UPDATE voices SET updated_at = ? WHERE id = ?`).run(now, id);
        return id;
      })
      .immediate();
  }

  /** The speaker-embedding models the remembered voices were taken with. */
  models(): string[] {
    return (this.db.prepare(`SELECT DISTINCT model FROM voices`).all() as { model: string }[]).map((r) => r.model);
  }

  /** Each voice of `model` with the centroid of its voiceprints. */
  known(model: string): KnownVoice[] {
    const rows = this.db.prepare(`SELECT v.id, v.name, p.vector FROM voices v JOIN voice_prints p ON p.voice_id = v.id WHERE v.model = ?`).all(model) as {
      id: string;
      name: string;
      vector: Buffer;
    }[];
    const by = new Map<string, { name: string; vs: Float32Array[] }>();
    for (const r of rows) {
      const e = by.get(r.id) ?? { name: r.name, vs: [] };
      e.vs.push(fromBlob(r.vector));
      by.set(r.id, e);
    }
    return [...by].map(([id, e]) => ({ id, name: e.name, vector: centroid(e.vs) }));
  }

  /** Records that a transcript's speaker was recognised as a voice, and gives the speaker its name. */
  setMatch(recordingId: string, transcriptId: string, speaker: string, voiceId: string, similarity: number): void {
    const v = this.exists(voiceId);
    this.db
      .transaction(() => {
        this.db
          .prepare(`INSERT OR REPLACE INTO voice_matches (transcript_id, speaker, voice_id, similarity) VALUES (?, ?, ?, ?)`)
          .run(transcriptId, speaker, voiceId, similarity);
        this.db
          .prepare(
            `INSERT INTO speakers (transcript_id, speaker, name) VALUES (?, ?, ?) ON CONFLICT (transcript_id, speaker) DO UPDATE SET name = excluded.name`,
          )
          .run(transcriptId, speaker, v.name);
        touch(this.db, recordingId);
      })
      .immediate();
    this.ctx.changed([recordingId], 'updated');
  }

  /**
   * The voices recognised or named in a transcript, with the match's similarity; `named`: the user named that
   * speaker here (the voice holds prints of it from this recording), so it is no recognition, whatever the similarity.
   */
  matches(transcriptId: string): { speaker: string; voiceId: string; name: string; similarity: number; named: boolean }[] {
    const rows = this.db
      .prepare(
        `SELECT m.speaker, m.voice_id AS voiceId, v.name, m.similarity,
           EXISTS (SELECT 1 FROM voice_prints p JOIN transcripts t ON t.recording_id = p.recording_id
                   WHERE t.id = m.transcript_id AND p.voice_id = m.voice_id AND p.speaker = m.speaker) AS named
         FROM voice_matches m JOIN voices v ON v.id = m.voice_id WHERE m.transcript_id = ? ORDER BY m.speaker`,
      )
      .all(transcriptId) as { speaker: string; voiceId: string; name: string; similarity: number; named: number }[];
    return rows.map((r) => ({ ...r, named: r.named === 1 }));
  }

  /** The voices named in a recording (they hold prints of it), with the speaker letter each was named as. */
  namedIn(recordingId: string): { voiceId: string; name: string; speaker: string }[] {
    return this.db
      .prepare(
        `SELECT DISTINCT p.voice_id AS voiceId, v.name, p.speaker FROM voice_prints p JOIN voices v ON v.id = p.voice_id WHERE p.recording_id = ? ORDER BY p.speaker`,
      )
      .all(recordingId) as { voiceId: string; name: string; speaker: string }[];
  }

  /**
   * Links a live session to the remembered voices the local engine named in it: a speaker whose label is a
   * voice's name (the engine labels a recognised voice with the name itself) is matched to that voice, at
   * RECOGNISED_LIVE, so People lists the session under the person and "Said by" finds what they said.
   * Answers whether anything was linked.
   */
  linkLiveNames(recordingId: string): boolean {
    const rows = this.db
      .prepare(
        `SELECT s.transcript_id AS t, s.speaker FROM speakers s JOIN transcripts t ON t.id = s.transcript_id
         WHERE t.recording_id = ? AND s.name IS NOT NULL AND s.speaker = s.name
           AND NOT EXISTS (SELECT 1 FROM voice_matches m WHERE m.transcript_id = s.transcript_id AND m.speaker = s.speaker)`,
      )
      .all(recordingId) as { t: string; speaker: string }[];
    if (rows.length === 0) return false;
    const voices = new Map(
      (this.db.prepare(`SELECT id, name FROM voices ORDER BY created_at`).all() as { id: string; name: string }[]).map((v) => [voiceNameKey(v.name), v.id]),
    );
    const ins = this.db.prepare(`INSERT OR IGNORE INTO voice_matches (transcript_id, speaker, voice_id, similarity) VALUES (?, ?, ?, ?)`);
    let linked = 0;
    this.db
      .transaction(() => {
        for (const r of rows) {
          const voice = voices.get(voiceNameKey(r.speaker));
          if (voice) linked += ins.run(r.t, r.speaker, voice, RECOGNISED_LIVE).changes;
        }
      })
      .immediate();
    if (linked > 0) this.ctx.changed([recordingId], 'updated');
    return linked > 0;
  }

  /** Renames a voice, and the speakers named after it. */
  rename(id: string, name: string): void {
    const v = this.exists(id);
    const clash = this.byName(name, id);
    if (clash) throw new AppError('conflict', `There is already a voice called ${name}: merge the two instead.`);
    this.db
      .transaction(() => {
        this.db.prepare(`UPDATE voices SET name = ?, updated_at = ? WHERE id = ?`).run(name, new Date().toISOString(), id);
        this.db
          .prepare(
            `UPDATE speakers SET name = ? WHERE name = ? AND (transcript_id, speaker) IN (SELECT transcript_id, speaker FROM voice_matches WHERE voice_id = ?)`,
          )
          .run(name, v.name, id);
      })
      .immediate();
    this.ctx.changed(this.recordingsOf(id), 'updated');
  }

  /** Moves `from`'s voiceprints and matches into `into`; `from` is gone. */
  merge(into: string, from: string): void {
    if (into === from) throw new AppError('bad_request', 'Choose two different voices to merge.');
    const target = this.exists(into);
    const source = this.exists(from);
    if (target.model !== source.model) throw new AppError('conflict', 'These two voices were remembered with different speaker models and cannot be merged.');
    const touched = [...this.recordingsOf(into), ...this.recordingsOf(from)];
    this.db
      .transaction(() => {
        this.db.prepare(`UPDATE voice_prints SET voice_id = ? WHERE voice_id = ?`).run(into, from);
        this.db
          .prepare(`UPDATE speakers SET name = ? WHERE (transcript_id, speaker) IN (SELECT transcript_id, speaker FROM voice_matches WHERE voice_id = ?)`)
          .run(target.name, from);
        this.db.prepare(`UPDATE OR REPLACE voice_matches SET voice_id = ? WHERE voice_id = ?`).run(into, from);
        this.db.prepare(`DELETE FROM voices WHERE id = ?`).run(from);
      })
      .immediate();
    this.ctx.changed([...new Set(touched)], 'updated');
  }

  /** Splits off the voiceprints one recording gave into a new voice called `name`; answers its id. */
  split(id: string, recordingId: string, name: string): string {
    const v = this.exists(id);
    const n = (this.db.prepare(`SELECT count(*) AS n FROM voice_prints WHERE voice_id = ? AND recording_id = ?`).get(id, recordingId) as { n: number }).n;
    if (n === 0) throw new AppError('bad_request', `${v.name}'s voice has nothing from that recording to split off.`);
    const total = (this.db.prepare(`SELECT count(*) AS n FROM voice_prints WHERE voice_id = ?`).get(id) as { n: number }).n;
    if (n === total) throw new AppError('bad_request', `Everything ${v.name}'s voice holds comes from that recording: rename it instead.`);
    const clash = this.byName(name);
    if (clash) throw new AppError('conflict', `There is already a voice called ${name}.`);
    const fresh = randomUUID();
    const now = new Date().toISOString();
    this.db
      .transaction(() => {
        this.db.prepare(`INSERT INTO voices (id, name, model, created_at, updated_at) VALUES (?, ?, ?, ?, ?)`).run(fresh, name, v.model, now, now);
        this.db.prepare(`UPDATE voice_prints SET voice_id = ? WHERE voice_id = ? AND recording_id = ?`).run(fresh, id, recordingId);
        const speakers = this.db.prepare(`SELECT DISTINCT speaker FROM voice_prints WHERE voice_id = ? AND recording_id = ?`).all(fresh, recordingId) as {
          speaker: string;
        }[];
        for (const s of speakers) {
          this.db
            .prepare(`UPDATE speakers SET name = ? WHERE speaker = ? AND transcript_id IN (SELECT id FROM transcripts WHERE recording_id = ?)`)
            .run(name, s.speaker, recordingId);
        }
        this.db
          .prepare(`DELETE FROM voice_matches WHERE voice_id = ? AND transcript_id IN (SELECT id FROM transcripts WHERE recording_id = ?)`)
          .run(id, recordingId);
      })
      .immediate();
    this.ctx.changed([recordingId], 'updated');
    return fresh;
  }

  private recordingsOf(id: string): string[] {
    return (
      this.db
        .prepare(
          `SELECT recording_id AS id FROM voice_prints WHERE voice_id = @v UNION SELECT t.recording_id FROM voice_matches m JOIN transcripts t ON t.id = m.transcript_id WHERE m.voice_id = @v`,
        )
        .all({ v: id }) as { id: string }[]
    ).map((r) => r.id);
  }

  /**
   * Before Forget, for a person who asks to be forgotten: the speakers showing this voice's name in the
   * recordings it was named or recognised in lose the name (they read "Speaker A" again). A live session's
   * speaker whose label is the name itself cannot lose it this way: those are answered, for the caller to
   * give a letter (VoiceStore.relabel). Answers them.
   */
  unname(id: string): { recordingId: string; transcriptId: string; speaker: string }[] {
    const v = this.exists(id);
    const key = voiceNameKey(v.name);
    const recordings = this.recordingsOf(id);
    const rows = recordings.flatMap(
      (r) =>
        this.db
          .prepare(
            `SELECT t.recording_id AS recordingId, s.transcript_id AS transcriptId, s.speaker, s.name FROM speakers s JOIN transcripts t ON t.id = s.transcript_id WHERE t.recording_id = ? AND s.name IS NOT NULL`,
          )
          .all(r) as { recordingId: string; transcriptId: string; speaker: string; name: string }[],
    );
    const mine = rows.filter((r) => voiceNameKey(r.name) === key);
    const clear = this.db.prepare(`UPDATE speakers SET name = NULL WHERE transcript_id = ? AND speaker = ?`);
    this.db
      .transaction(() => {
        for (const r of mine) if (voiceNameKey(r.speaker) !== key) clear.run(r.transcriptId, r.speaker);
      })
      .immediate();
    this.ctx.changed(recordings, 'updated');
    return mine.filter((r) => voiceNameKey(r.speaker) === key).map(({ recordingId, transcriptId, speaker }) => ({ recordingId, transcriptId, speaker }));
  }

  /**
   * Forgets a voice everywhere: its voiceprints, its matches, and the kept turn voiceprints of the
   * recordings it was named or recognised in (they hold the same voice; re-clustering takes them again from
   * the audio). Deleted with secure_delete on, then the write-ahead log is checkpointed and truncated, so
   * the bytes are overwritten in the database file and none are left in the log.
   */
  forget(id: string): void {
    this.exists(id);
    const recordings = this.recordingsOf(id);
    this.db
      .transaction(() => {
        this.db
          .prepare(
            `DELETE FROM turn_voices WHERE transcript_id IN (SELECT id FROM transcripts WHERE recording_id IN (SELECT recording_id FROM voice_prints WHERE voice_id = @v))
             OR transcript_id IN (SELECT transcript_id FROM voice_matches WHERE voice_id = @v)`,
          )
          .run({ v: id });
        this.db.prepare(`DELETE FROM voice_prints WHERE voice_id = ?`).run(id);
        this.db.prepare(`DELETE FROM voice_matches WHERE voice_id = ?`).run(id);
        this.db.prepare(`DELETE FROM voices WHERE id = ?`).run(id);
      })
      .immediate();
    this.db.pragma('wal_checkpoint(TRUNCATE)');
    this.ctx.changed(recordings, 'updated');
  }
}
