/**
 * The subtitle editor's storage: each transcript's cue document (the cues in
 * the `cues` table, its profile and WebVTT header beside them), the undo/redo
 * history as splices (kept, so undo works after the view is closed), users'
 * rules profiles, and waveform peaks (made by peaks.ts) kept once computed.
 * An edit arrives as the command the user ran (`run`): the same `perform` the
 * editor ran, on the stored cues, words and profile, answered with a digest of
 * the result so the editor can tell when the two differ.
 *
 * One source of truth: a cue whose text still has one token per word of its
 * range writes its changed tokens back as word corrections (so the transcript,
 * TXT/JSON/DOCX and search follow), and takes corrected words from the
 * transcript when read.
 */
import { existsSync } from 'node:fs';
import { join, sep } from 'node:path';
import type { Database } from 'better-sqlite3';
import { AppError } from '../../../shared/errors';
import {
  applySplice,
  buildCuesWith,
  builtInProfiles,
  commandLabel,
  commands,
  defaultProfile,
  diffCues,
  findProfile,
  invertSplice,
  spliceFits,
  type Command,
  type Cue,
  type HistoryEntry,
  type RulesProfile,
  type Splice,
} from '../../../shared/subtitles/index';
import type { Word } from '../../../shared/library';
import type { SubtitleRun } from '../../../shared/ipc/subtitles';
import type { Peaks, SubtitleDoc } from '../../../shared/subtitles/schema';
import { fromRanges } from '../../../shared/subtitles/cue-columns';
import { cuesDigest } from '../../../shared/subtitles/digest';
import { withWords, correctionsOf } from './cue-words';
import { CUE_LIMITS, fitCues } from '../../../shared/subtitles/limits';
import { computePeaks, openOriginalFile, PEAKS_PER_SECOND, type OpenedOriginal } from './peaks';

export interface LibraryContext {
  dataDir: string;
  audioDir: string;
  changed(ids: string[], reason: 'added' | 'updated' | 'deleted' | 'imported'): void;
}

/** What the store needs from the rest of the library: the words with their corrections, and correcting them. */
export interface WordAccess {
  words(transcriptId: string): Word[];
  correctWords(recordingId: string, edits: { index: number; text: string }[]): unknown;
}

/** Most entries kept per transcript; older ones are dropped. */
export const HISTORY_LIMIT = 500;
/** Labels sent when the view opens. */
const HISTORY_SENT = 100;

type WireCommand = Omit<SubtitleRun, 'id' | 'version'>;
/**
 * An edit as the editor sends it: a command of shared/subtitles/commands.ts, its argument, and where the user was;
 * replaceFrom with its file's text in hand (a file named by reference is read first, library-offload.ts withText).
 */
export type SubtitleCommand =
  Exclude<WireCommand, { command: 'replaceFrom' }> | { command: 'replaceFrom'; args: { content: string; name: string }; view: WireCommand['view'] };
/** What an edit, an undo or a redo answers: the new version and the digest of the stored cues (shared/subtitles/digest.ts). */
export interface EditResult {
  version: number;
  digest: string;
}

interface DocRow {
  transcript_id: string;
  profile_id: string;
  header: string;
  trailer: string;
  version: number;
}

/** A stored splice within CUE_LIMITS, as the stored cues were repaired (`repaired`), so it still fits them. */
function fitted(splice: Splice): Splice {
  const remove = fitCues(splice.remove);
  const insert = fitCues(splice.insert);
  return remove.changed + remove.dropped + insert.changed + insert.dropped ? { at: splice.at, remove: remove.cues, insert: insert.cues } : splice;
}

export class SubtitleStore {
  private readonly peaksRunning = new Map<string, Promise<Peaks>>();
  /** Peaks made ahead of the view run one at a time, at low priority: a batch of finished jobs does not start a dozen ffmpegs. */
  private peaksAhead: Promise<unknown> = Promise.resolve();
  private readonly stopAhead = new AbortController();
  /** How a user's original file (not the library's copy) is opened for the waveform: the app sets the files owner's check (core.ts); read from that descriptor only. */
  openOriginal: (path: string) => Promise<OpenedOriginal> = openOriginalFile;

  constructor(
    private readonly db: Database,
    private readonly ctx: LibraryContext,
    private readonly words: WordAccess,
  ) {}

  private transcriptOf(recordingId: string): string {
    const row = this.db.prepare(`SELECT id, status FROM transcripts WHERE recording_id = ? ORDER BY created_at DESC, rowid DESC LIMIT 1`).get(recordingId) as
      { id: string; status: string } | undefined;
    if (!row) throw new AppError('not_found', 'This recording is no longer in the library.');
    if (row.status !== 'completed') throw new AppError('conflict', 'This transcript is not finished yet: subtitles can be edited once it is.');
    return row.id;
  }

  private docRow(transcriptId: string): DocRow {
    return (
      (this.db.prepare(`SELECT * FROM subtitle_docs WHERE transcript_id = ?`).get(transcriptId) as DocRow | undefined) ?? {
        transcript_id: transcriptId,
        profile_id: defaultProfile.id,
        header: '[]',
        trailer: '[]',
        version: 0,
      }
    );
  }

  profiles(): RulesProfile[] {
    const own = (this.db.prepare(`SELECT data FROM subtitle_profiles ORDER BY created_at`).all() as { data: string }[]).map(
      (r) => JSON.parse(r.data) as RulesProfile,
    );
    return [...builtInProfiles, ...own];
  }

  profile(id: string): RulesProfile {
    return findProfile(id, this.profiles()) ?? defaultProfile;
  }

  /** Saves a user's profile (a new id, or one of theirs to change); built-in profiles cannot be replaced. */
  saveProfile(p: RulesProfile): RulesProfile[] {
    if (builtInProfiles.some((b) => b.id === p.id)) throw new AppError('conflict', `“${p.name}” is a built-in profile; save your changes under a new name.`);
    this.db
      .prepare(`INSERT INTO subtitle_profiles (id, data, created_at) VALUES (?, ?, ?) ON CONFLICT (id) DO UPDATE SET data = excluded.data`)
      .run(p.id, JSON.stringify(p), new Date().toISOString());
    return this.profiles();
  }

  deleteProfile(id: string): RulesProfile[] {
    this.db.prepare(`DELETE FROM subtitle_profiles WHERE id = ?`).run(id);
    return this.profiles();
  }

  /** The cues as they are now: the edited ones (with corrected words taken in), else built from the words by the profile. */
  /** The editor's cues and what they are made from; `known` is the transcript's words when the caller has read them already (an export), so they are not decoded twice. */
  cues(
    recordingId: string,
    known?: { transcriptId: string; words: Word[] },
  ): { cues: Cue[]; edited: boolean; words: Word[]; profile: RulesProfile; header: string[]; trailer: string[] } {
    const transcriptId = this.transcriptOf(recordingId);
    const words = known?.transcriptId === transcriptId ? known.words : this.words.words(transcriptId);
    const row = this.docRow(transcriptId);
    const profile = this.profile(row.profile_id);
    const stored = this.db.prepare(`SELECT data FROM cues WHERE transcript_id = ?`).get(transcriptId) as { data: string } | undefined;
    const header = JSON.parse(row.header) as string[];
    const trailer = JSON.parse(row.trailer) as string[];
    if (!stored) return { cues: buildCuesWith(words, profile), edited: false, words, profile, header, trailer };
    const cues = this.repaired(transcriptId, JSON.parse(stored.data) as Cue[]).map((c) => withWords(c, words));
    return { cues, edited: true, words, profile, header, trailer };
  }

  open(recordingId: string): SubtitleDoc {
    const transcriptId = this.transcriptOf(recordingId);
    const { cues, edited, profile, header, trailer } = this.cues(recordingId);
    const row = this.docRow(transcriptId);
    const hist = this.history(transcriptId);
    return {
      recordingId,
      version: row.version,
      edited,
      profileId: profile.id,
      profiles: this.profiles(),
      cues,
      header,
      trailer,
      undo: hist.undo.slice(-HISTORY_SENT),
      redo: hist.redo.slice(0, HISTORY_SENT),
    };
  }

  /** The stored history's labels (the splices stay here: undo runs in main). */
  private history(transcriptId: string): { undo: string[]; redo: string[] } {
    const rows = this.db.prepare(`SELECT label, undone FROM subtitle_history WHERE transcript_id = ? ORDER BY seq`).all(transcriptId) as {
      label: string;
      undone: number;
    }[];
    const undo: string[] = [];
    const redo: string[] = [];
    for (const r of rows) (r.undone ? redo : undo).push(r.label);
    return { undo, redo };
  }

  /** Stored cues brought within CUE_LIMITS (an item imported before the limits, which subtitles.open could not send): written back once. */
  private repaired(transcriptId: string, cues: Cue[]): Cue[] {
    const fit = fitCues(cues);
    if (fit.changed + fit.dropped === 0) return cues;
    this.db.prepare(`UPDATE cues SET data = ? WHERE transcript_id = ?`).run(JSON.stringify(fit.cues), transcriptId);
    return fit.cues;
  }

  private checkVersion(transcriptId: string, version: number): DocRow {
    const row = this.docRow(transcriptId);
    if (row.version !== version)
      throw new AppError('conflict', 'These subtitles were changed in another window. Close and reopen the Subtitles view to see the latest.');
    return row;
  }

  /** Writes the cue list and doc state, then sends the words the changed cues now say back as corrections. */
  private store(recordingId: string, transcriptId: string, row: DocRow, cues: Cue[], changedCues: readonly Cue[], words: Word[]): number {
    const version = row.version + 1;
    this.db
      .prepare(`INSERT OR REPLACE INTO cues (transcript_id, data, updated_at) VALUES (?, ?, ?)`)
      .run(transcriptId, JSON.stringify(cues), new Date().toISOString());
    this.db
      .prepare(
        `INSERT INTO subtitle_docs (transcript_id, profile_id, header, trailer, version) VALUES (@t, @p, @h, @tr, @v)
         ON CONFLICT (transcript_id) DO UPDATE SET profile_id = @p, header = @h, trailer = @tr, version = @v`,
      )
      .run({ t: transcriptId, p: row.profile_id, h: row.header, tr: row.trailer, v: version });
    const byIndex = new Map<number, string>();
    for (const c of changedCues) for (const e of correctionsOf(c, words)) byIndex.set(e.index, e.text);
    // Only a changed word changes the transcript: cue-only edits do not make every open view reload 30,000 words.
    if (byIndex.size)
      this.words.correctWords(
        recordingId,
        [...byIndex].map(([index, text]) => ({ index, text })),
      );
    return version;
  }

  /** Stores `splice` on `cues` as one edit for undo (its header and trailer too, when given). */
  private apply(
    recordingId: string,
    transcriptId: string,
    row: DocRow,
    at: { cues: Cue[]; words: Word[] },
    label: string,
    splice: Splice,
    doc?: { header?: string[]; trailer?: string[] },
  ): EditResult {
    if (doc?.header) row.header = JSON.stringify(doc.header);
    if (doc?.trailer) row.trailer = JSON.stringify(doc.trailer);
    const next = applySplice(at.cues, splice);
    if (next.length > CUE_LIMITS.cues)
      throw new AppError(
        'bad_request',
        `This would make ${next.length.toLocaleString('en')} cues; Verbatim keeps at most ${CUE_LIMITS.cues.toLocaleString('en')}. Nothing was changed.`,
      );
    this.db.prepare(`DELETE FROM subtitle_history WHERE transcript_id = ? AND undone = 1`).run(transcriptId);
    const seq = ((this.db.prepare(`SELECT max(seq) AS s FROM subtitle_history WHERE transcript_id = ?`).get(transcriptId) as { s: number | null }).s ?? 0) + 1;
    this.db
      .prepare(`INSERT INTO subtitle_history (transcript_id, seq, label, splice, undone) VALUES (?, ?, ?, ?, 0)`)
      .run(transcriptId, seq, label, JSON.stringify(splice));
    this.db.prepare(`DELETE FROM subtitle_history WHERE transcript_id = ? AND seq <= ?`).run(transcriptId, seq - HISTORY_LIMIT);
    return { version: this.store(recordingId, transcriptId, row, next, splice.insert, at.words), digest: cuesDigest(next) };
  }

  /** Stores a splice on `version` as one edit (an import's cues; the library's own callers and tests). */
  save(recordingId: string, version: number, label: string, splice: Splice, doc?: { header?: string[]; trailer?: string[] }): EditResult {
    const transcriptId = this.transcriptOf(recordingId);
    return this.db
      .transaction(() => {
        const row = this.checkVersion(transcriptId, version);
        const at = this.cues(recordingId);
        if (!spliceFits(at.cues, splice))
          throw new AppError('conflict', 'This edit no longer matches the stored subtitles. Close and reopen the Subtitles view.');
        return this.apply(recordingId, transcriptId, row, at, label, splice, doc);
      })
      .immediate();
  }

  /**
   * One edit made in the view, as the command the user ran on `version`: the
   * same `perform` on the stored cues, words and profile, stored and recorded
   * for undo. A command that changes nothing here changes nothing.
   */
  run(recordingId: string, version: number, edit: SubtitleCommand): EditResult {
    const transcriptId = this.transcriptOf(recordingId);
    const command = commands[edit.command] as Command<unknown>;
    return this.db
      .transaction(() => {
        const row = this.checkVersion(transcriptId, version);
        const at = this.cues(recordingId);
        const r = command.perform(
          {
            cues: at.cues,
            selection: fromRanges(edit.view.selection, at.cues.length),
            caret: edit.view.caret,
            playheadMs: edit.view.playheadMs,
            words: at.words,
            profile: at.profile,
          },
          edit.args,
        );
        const splice = r && diffCues(at.cues, r.cues);
        const blocks = r && (r.header || r.trailer) ? { header: r.header, trailer: r.trailer } : undefined;
        if (!splice && !blocks) return { version, digest: cuesDigest(at.cues) };
        return this.apply(recordingId, transcriptId, row, at, commandLabel(edit.command, edit.args), splice ?? { at: 0, remove: [], insert: [] }, blocks);
      })
      .immediate();
  }

  /** Undoes the latest edit (also one made before the view was last closed). */
  undo(recordingId: string, version: number): EditResult & { label: string | null } {
    return this.step(recordingId, version, 'undo');
  }

  redo(recordingId: string, version: number): EditResult & { label: string | null } {
    return this.step(recordingId, version, 'redo');
  }

  private step(recordingId: string, version: number, dir: 'undo' | 'redo'): EditResult & { label: string | null } {
    const transcriptId = this.transcriptOf(recordingId);
    return this.db
      .transaction(() => {
        const row = this.checkVersion(transcriptId, version);
        const h =
          dir === 'undo'
            ? (this.db
                .prepare(`SELECT seq, label, splice FROM subtitle_history WHERE transcript_id = ? AND undone = 0 ORDER BY seq DESC LIMIT 1`)
                .get(transcriptId) as { seq: number; label: string; splice: string } | undefined)
            : (this.db
                .prepare(`SELECT seq, label, splice FROM subtitle_history WHERE transcript_id = ? AND undone = 1 ORDER BY seq ASC LIMIT 1`)
                .get(transcriptId) as { seq: number; label: string; splice: string } | undefined);
        const { cues, words } = this.cues(recordingId);
        if (!h) return { version, digest: cuesDigest(cues), label: null };
        const entry: HistoryEntry = { label: h.label, splice: fitted(JSON.parse(h.splice) as Splice) };
        const s = dir === 'undo' ? invertSplice(entry.splice) : entry.splice;
        if (!spliceFits(cues, s))
          throw new AppError(
            'conflict',
            `“${entry.label}” cannot be ${dir === 'undo' ? 'undone' : 'redone'}: the subtitles changed since. Close and reopen the Subtitles view.`,
          );
        this.db.prepare(`UPDATE subtitle_history SET undone = ? WHERE transcript_id = ? AND seq = ?`).run(dir === 'undo' ? 1 : 0, transcriptId, h.seq);
        const next = applySplice(cues, s);
        return { version: this.store(recordingId, transcriptId, row, next, s.insert, words), digest: cuesDigest(next), label: entry.label };
      })
      .immediate();
  }

  /** The profile the view checks and builds by. */
  setProfile(recordingId: string, profileId: string): void {
    const transcriptId = this.transcriptOf(recordingId);
    if (!findProfile(profileId, this.profiles())) throw new AppError('not_found', 'This rules profile no longer exists.');
    const row = this.docRow(transcriptId);
    this.db
      .prepare(
        `INSERT INTO subtitle_docs (transcript_id, profile_id, header, trailer, version) VALUES (@t, @p, @h, @tr, @v)
         ON CONFLICT (transcript_id) DO UPDATE SET profile_id = @p`,
      )
      .run({ t: transcriptId, p: profileId, h: row.header, tr: row.trailer, v: row.version });
  }

  /** A recording's stored peaks, or null when none were made yet. */
  storedPeaks(recordingId: string): Peaks | null {
    const row = this.db.prepare(`SELECT rate, duration_ms AS durationMs, data FROM waveform_peaks WHERE recording_id = ?`).get(recordingId) as
      { rate: number; durationMs: number; data: Buffer } | undefined;
    return row ? { rate: row.rate, durationMs: row.durationMs, data: row.data.toString('base64') } : null;
  }

  /** Stored peaks of a recording's audio; computed with ffmpeg the first time (when nothing made them ahead) and kept in the library. */
  async peaks(recordingId: string, audioPath: string | null, background = false): Promise<Peaks> {
    const stored = this.storedPeaks(recordingId);
    if (stored) return stored;
    if (!audioPath || !existsSync(audioPath))
      throw new AppError('not_found', 'There is no audio for this recording, so there is no waveform. The cues can still be edited.');
    let running = this.peaksRunning.get(recordingId);
    if (!running) {
      const opts = background ? { background: true, signal: this.stopAhead.signal } : {};
      // The library's own copy by its path; the user's original through the check, read from the descriptor it opened (never the path again).
      const own = audioPath.startsWith(join(this.ctx.audioDir, sep));
      const read = async () => {
        const original = own ? null : await this.openOriginal(audioPath);
        try {
          return await computePeaks(original?.handle ?? audioPath, PEAKS_PER_SECOND, opts);
        } finally {
          await original?.close();
        }
      };
      running = read().then((p) => {
        // The library may have closed while ffmpeg ran (the app quit).
        if (!this.db.open) throw new AppError('canceled', 'The library closed before the waveform was stored.');
        this.db
          .prepare(`INSERT OR REPLACE INTO waveform_peaks (recording_id, rate, duration_ms, data) VALUES (?, ?, ?, ?)`)
          .run(recordingId, p.rate, p.durationMs, p.bytes);
        return { rate: p.rate, durationMs: p.durationMs, data: p.bytes.toString('base64') };
      });
      this.peaksRunning.set(recordingId, running);
      void running.finally(() => this.peaksRunning.delete(recordingId)).catch(() => undefined);
    }
    return running;
  }

  /**
   * Makes and stores a recording's peaks ahead of the Subtitles view (a job
   * completed, a live session was saved), queued behind earlier ones. Resolves
   * false when there is no audio to read; a failure is the caller's to log,
   * and the view then computes them when it opens.
   */
  precomputePeaks(recordingId: string): Promise<boolean> {
    const run = this.peaksAhead.then(async () => {
      if (this.stopAhead.signal.aborted || !this.db.open) return false;
      if (this.storedPeaks(recordingId)) return true;
      const path = this.audioOf(recordingId);
      if (!path) return false;
      await this.peaks(recordingId, path, true);
      return true;
    });
    this.peaksAhead = run.catch(() => undefined);
    return run;
  }

  /** Stops peaks being made ahead (the app is closing) and waits until none runs, so the library can close. */
  async stopBackground(): Promise<void> {
    this.stopAhead.abort();
    await this.peaksAhead;
  }

  /** Where a recording's audio is (the library's copy, else the original file): for peaks. */
  audioOf(recordingId: string): string | null {
    const r = this.db.prepare(`SELECT audio_file, original_path FROM recordings WHERE id = ?`).get(recordingId) as
      { audio_file: string | null; original_path: string | null } | undefined;
    if (r?.audio_file && existsSync(join(this.ctx.audioDir, r.audio_file))) return join(this.ctx.audioDir, r.audio_file);
    return r?.original_path && existsSync(r.original_path) ? r.original_path : null;
  }
}
