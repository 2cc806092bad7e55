/** Backing the library up into a folder (library.json + audio/) and restoring one, confined to the library's own columns and file names. */
import { copyFileSync, existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { lstat, realpath, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { builtInProfiles } from '../../../shared/subtitles/index';
import { AppError } from '../../../shared/errors';
import { editorCueSchema, rulesProfileSchema, spliceSchema } from '../../../shared/subtitles/schema';
import type { Statement } from 'better-sqlite3';
import type { Database, LibraryContext } from './db';
import { isLibraryAudioName } from './audio';
import { indexSentences, readWords } from './transcripts';
import { expandSpans, type StoredSpan } from './text';
import { copyOpened, openRegular, realFolder } from './backup-files';
import { backupRows, type BackupRow, type ReadStats } from './backup-reader';
import { clearJournal, journalWriter } from './backup-journal';
import { VOICE_TABLES, VoiceRestore, type VoiceTable } from './backup-voices';
import { CUE_LIMITS } from '../../../shared/subtitles/limits';
import { missedCitationSchema } from '../../../shared/captions-extras';

export class BackupStore {
  constructor(
    private readonly db: Database,
    private readonly ctx: LibraryContext,
  ) {}

  /**
   * Back up everything into an empty folder: library.json (all rows) + audio/. Remembered voices (the voice
   * tables and each transcript's turn voiceprints) go in only with `voiceprints`: they identify people.
   */
  exportAll(dir: string, opts: { voiceprints?: boolean } = {}): { dir: string; items: number; audioFiles: number } {
    try {
      if (existsSync(dir) && readdirSync(dir).length > 0)
        throw new AppError('conflict', `The folder ${dir} is not empty. Choose an empty or new folder for the backup.`);
      return this.writeAll(dir, opts.voiceprints === true);
    } catch (err) {
      // A folder that cannot be made or written (no permission, a file in the way, a full disk) is the user's to change.
      const code = (err as NodeJS.ErrnoException).code;
      if (err instanceof AppError || typeof code !== 'string') throw err;
      throw new AppError('bad_request', `The backup could not be written into ${dir} (${code}). Choose a folder you can write to, with room for the backup.`);
    }
  }

  private writeAll(dir: string, voiceprints: boolean): { dir: string; items: number; audioFiles: number } {
    mkdirSync(join(dir, 'audio'), { recursive: true });
    const dump: Record<string, unknown[]> = {};
    for (const t of voiceprints ? ALL_TABLES : BACKUP_TABLES) {
      dump[t] = (this.db.prepare(`SELECT * FROM ${t}`).all() as Record<string, unknown>[]).map((row) =>
        Object.fromEntries(Object.entries(row).map(([k, v]) => [k, Buffer.isBuffer(v) ? { base64: v.toString('base64') } : v])),
      );
    }
    let audioFiles = 0;
    for (const r of dump.recordings as { id: string; audio_file: string | null; redacted_audio_file: string | null }[]) {
      for (const [f, kind] of [
        [r.audio_file, 'original'],
        [r.redacted_audio_file, 'redacted'],
      ] as const) {
        if (isLibraryAudioName(f, r.id, kind) && existsSync(join(this.ctx.audioDir, f))) {
          copyFileSync(join(this.ctx.audioDir, f), join(dir, 'audio', f));
          audioFiles++;
        }
      }
    }
    writeFileSync(join(dir, 'library.json'), JSON.stringify({ format: 'verbatim-library', version: 1, exportedAt: new Date().toISOString(), tables: dump }));
    return { dir, items: dump.recordings?.length ?? 0, audioFiles };
  }

  /**
   * Restore a backup made by exportAll, adding only recordings this library
   * does not have. A backup is untrusted input: columns come from this
   * database's schema (never from the JSON's keys), audio names must be ones
   * the library makes for that recording, and `original_path` (a file on the
   * machine the backup came from) is never imported. Only regular files
   * reached without links are opened (backup-files.ts), library.json is read
   * as a stream of rows within limits (backup-reader.ts), twice: the first
   * pass learns which recordings, transcripts and chats are new, the second
   * inserts in batches of BATCH rows, each its own transaction followed by a
   * turn of the event loop, so memory is flat and the app stays responsive.
   * Rows hang off an imported recording or transcript (a chat off one of its
   * recordings); JSON columns the views read must parse as the library
   * writes them, else the row is skipped. `signal` cancels: what this import
   * added is removed again.
   */
  async importAll(
    dir: string,
    opts: { signal?: AbortSignal; progress?: (p: { done: number; total: number }) => void } = {},
  ): Promise<{ imported: number; skipped: number; notes: string[] }> {
    const root = await realpath(dir).catch(() => null);
    const rootStat = root ? await lstat(root) : null;
    if (!root || !rootStat?.isDirectory()) throw new AppError('file_unreadable', `${dir} is not a folder. Choose the folder a backup was saved into.`);
    const opened = await openRegular(join(root, 'library.json'), root);
    if ('refused' in opened)
      throw new AppError(
        'file_unreadable',
        opened.refused === 'missing'
          ? `${dir} does not contain a Verbatim backup (library.json is missing).`
          : `library.json in ${dir} is ${opened.refused}, not a regular file. Nothing was imported.`,
      );
    const { fh, size } = opened;
    const audioDir = await realFolder(join(root, 'audio'), 'audio/');
    const stats: ReadStats = { bytes: 0, skipped: 0, reasons: [] };
    const notes: string[] = [];
    const second: ReadStats = { bytes: 0, skipped: 0, reasons: [] };
    const report = (pass: number) => opts.progress?.({ done: pass * size + (pass ? second.bytes : stats.bytes), total: 2 * size });
    const imported: string[] = [];
    const copied: string[] = [];
    const chatIds = new Set<string>();
    const profiles: string[] = [];
    const voicesAdded: string[] = [];
    const voices = new VoiceRestore(this.db);
    const noteImported = journalWriter(this.db);
    try {
      // Pass 1: which recordings are new, their transcripts, and which chats are over one of them.
      const existing = new Set<string>();
      const fresh = new Set<string>();
      const transcriptIds = new Set<string>();
      const transcriptOf = new Map<string, string>();
      const chatOver = new Map<string, boolean>();
      const has = this.db.prepare(`SELECT 1 FROM recordings WHERE id = ?`);
      let recordings = 0;
      let rows = 0;
      for await (const { table, row } of backupRows(fh, size, stats, opts.signal)) {
        if (++rows % BATCH === 0) report(0);
        if (table === 'recordings') {
          recordings++;
          if (typeof row.id === 'string' && row.id.length <= 200 && !existing.has(row.id)) (has.get(row.id) ? existing : fresh).add(row.id);
        } else if (table === 'transcripts' && typeof row.id === 'string' && row.id.length <= 200) transcriptOf.set(row.id, id(row.recording_id));
        else if (table === 'chat_recordings') {
          const chat = id(row.chat_id);
          chatOver.set(chat, (chatOver.get(chat) ?? false) || fresh.has(id(row.recording_id)));
        } else
          voices.learn(
            table,
            row,
            (r) => fresh.has(r),
            (t) => fresh.has(transcriptOf.get(t) ?? ''),
          );
      }
      for (const [t, r] of transcriptOf) if (fresh.has(r)) transcriptIds.add(t);
      transcriptOf.clear();
      voices.settle();
      notes.push(...voices.notes);
      const keep = {
        ...keepRules(fresh, transcriptIds, chatOver, chatIds),
        ...voices.rules(
          (r) => fresh.has(r),
          (t) => transcriptIds.has(t),
        ),
      };
      const columnsOf = new Map<string, Set<string>>();
      for (const table of ALL_TABLES) {
        const columns = new Set((this.db.prepare(`SELECT name FROM pragma_table_info(?)`).all(table) as { name: string }[]).map((c) => c.name));
        // Messages get new row ids here; a recording's original file belongs to the machine the backup came from.
        if (table === 'messages') columns.delete('id');
        if (table === 'recordings') columns.delete('original_path');
        columnsOf.set(table, columns);
      }
      // Pass 2: the rows, in batches; a statement is prepared once per table and set of columns (preparing one per row was half a batch's time).
      const inserts = new Map<string, Statement>();
      const insertFor = (sql: string): Statement => {
        const known = inserts.get(sql);
        if (known) return known;
        // Rows of a hostile backup may each name other columns: the cache stays small.
        if (inserts.size >= 200) inserts.clear();
        const st = this.db.prepare(sql);
        inserts.set(sql, st);
        return st;
      };
      let batch: BackupRow[] = [];
      const flush = async () => {
        const copies: [string, string][] = [];
        this.db
          .transaction(() => {
            for (const { table, row } of batch) {
              const columns = columnsOf.get(table);
              if (!columns || !keep[table as BackupTable](row)) continue;
              const values = new Map<string, SqlValue>();
              let ok = true;
              for (const c of columns) {
                if (!Object.hasOwn(row, c)) continue;
                const v = sqlValue(row[c]);
                if (v === undefined) ok = false;
                else values.set(c, v);
              }
              if (!ok) continue;
              if (table === 'recordings') {
                const rid = id(row.id);
                for (const [col, kind] of [
                  ['audio_file', 'original'],
                  ['redacted_audio_file', 'redacted'],
                ] as const) {
                  const name = audioDir && isLibraryAudioName(row[col], rid, kind) ? row[col] : null;
                  values.set(col, name);
                  if (name) copies.push([name, rid]);
                }
              }
              const cols = [...values.keys()];
              try {
                const sql = `INSERT OR IGNORE INTO ${table} (${cols.join(', ')}) VALUES (${cols.map(() => '?').join(', ')})`;
                const r = insertFor(sql).run(...values.values());
                if (!r.changes) continue;
                // Noted in this batch's transaction: a crash before the import ends is undone at the next start.
                if (table === 'chats') chatIds.add(id(row.id));
                if (table === 'recordings') imported.push(id(row.id));
                if (table === 'subtitle_profiles') profiles.push(id(row.id));
                if (table === 'voices') voicesAdded.push(id(row.id));
                const kind = journalKinds[table];
                if (kind) noteImported(kind, id(row.id));
              } catch {
                // A row this schema refuses (a broken reference): skipped, the rest still comes in.
              }
            }
          })
          .immediate();
        batch = [];
        for (const [name, id] of copies) {
          const why = await this.copyAudio(join(audioDir as string, name), root, name, opts.signal);
          if (why === null) copied.push(name);
          else {
            notes.push(`audio/${name} was not imported: it is ${why}.`);
            for (const col of ['audio_file', 'redacted_audio_file'])
              this.db.prepare(`UPDATE recordings SET ${col} = NULL WHERE id = ? AND ${col} = ?`).run(id, name);
          }
        }
        report(1);
        await new Promise((r) => setImmediate(r));
      };
      for await (const item of backupRows(fh, size, second, opts.signal)) {
        batch.push(item);
        if (batch.length >= BATCH) await flush();
      }
      await flush();
      // Search rows, a few transcripts at a time.
      let n = 0;
      for (const t of transcriptIds) {
        if (opts.signal?.aborted) throw new AppError('canceled', 'The import was canceled. Nothing was imported.');
        const row = this.db.prepare(`SELECT sentences FROM transcripts WHERE id = ?`).get(t) as { sentences: string } | undefined;
        if (!row) continue;
        try {
          this.db.transaction(() => indexSentences(this.db, t, expandSpans(readWords(this.db, t), JSON.parse(row.sentences) as StoredSpan[]))).immediate();
        } catch {
          // Damaged spans: the transcript is kept, without search rows.
        }
        if (++n % 20 === 0) await new Promise((r) => setImmediate(r));
      }
      // The import is whole: from here a restart keeps it.
      this.db.transaction(() => clearJournal(this.db)).immediate();
      if (imported.length) this.ctx.changed(imported, 'imported');
      if (stats.skipped) notes.unshift(`${stats.skipped} rows of library.json were skipped (${stats.reasons.slice(0, 3).join('; ')}).`);
      return { imported: imported.length, skipped: recordings - imported.length, notes };
    } catch (e) {
      // Canceled or failed part-way: what this import added goes again (rows cascade from their recording).
      const del = this.db.prepare(`DELETE FROM recordings WHERE id = ?`);
      const delChat = this.db.prepare(`DELETE FROM chats WHERE id = ?`);
      const delProfile = this.db.prepare(`DELETE FROM subtitle_profiles WHERE id = ?`);
      const delVoice = this.db.prepare(`DELETE FROM voices WHERE id = ?`);
      // In batches, like the import: removing 20,000 recordings with their rows in one transaction holds the event loop for about half a second.
      for (let i = 0; i < imported.length; i += BATCH) {
        this.db
          .transaction(() => {
            for (const rid of imported.slice(i, i + BATCH)) del.run(rid);
          })
          .immediate();
        await new Promise((r) => setImmediate(r));
      }
      this.db
        .transaction(() => {
          for (const chat of chatIds) delChat.run(chat);
          for (const profile of profiles) delProfile.run(profile);
          for (const voice of voicesAdded) delVoice.run(voice);
        })
        .immediate();
      for (const name of copied) await unlink(join(this.ctx.audioDir, name)).catch(() => undefined);
      this.db.transaction(() => clearJournal(this.db)).immediate();
      throw e;
    } finally {
      await fh.close();
    }
  }

  /** One audio file from the backup into the library (null), or why not. */
  private async copyAudio(from: string, root: string, name: string, signal?: AbortSignal): Promise<string | null> {
    const to = join(this.ctx.audioDir, name);
    const src = await openRegular(from, root);
    if ('refused' in src) return src.refused;
    try {
      await copyOpened(src.fh, src.size, to, signal);
      return null;
    } finally {
      await src.fh.close();
    }
  }
}

/** A row's id column as a string ('' for anything else: String() of a deeply nested array would overflow the stack). */
const id = (v: unknown): string => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '');

/** Rows inserted per transaction, between turns of the event loop. */
const BATCH = 500;

type BackupTable = (typeof BACKUP_TABLES)[number] | VoiceTable;

/** The tables whose added rows the import journal notes (rows of the others hang off them and cascade). */
const journalKinds: Partial<Record<string, 'chat' | 'recording' | 'profile' | 'voice'>> = {
  chats: 'chat',
  recordings: 'recording',
  subtitle_profiles: 'profile',
  voices: 'voice',
};

/** Which rows of each table come in: those hanging off a new recording or transcript, with JSON columns as the library writes them. */
function keepRules(
  fresh: Set<string>,
  transcriptIds: Set<string>,
  chatOver: Map<string, boolean>,
  chatIds: Set<string>,
): Record<Exclude<BackupTable, VoiceTable>, (row: Record<string, unknown>) => boolean> {
  return {
    recordings: (r) => fresh.has(id(r.id)),
    transcripts: (r) => fresh.has(id(r.recording_id)) && transcriptIds.has(id(r.id)),
    words: (r) => transcriptIds.has(id(r.transcript_id)),
    tags: (r) => fresh.has(id(r.recording_id)),
    speakers: (r) => transcriptIds.has(id(r.transcript_id)),
    cues: (r) => transcriptIds.has(id(r.transcript_id)) && isJson(r.data, z.array(editorCueSchema).max(CUE_LIMITS.cues)),
    // A chat over chosen recordings comes in only with one of them: a chat over nothing could not answer.
    chats: (r) => (r.scope === 'library' ? r.recording_id === null : chatOver.get(id(r.id)) === true),
    word_corrections: (r) => transcriptIds.has(id(r.transcript_id)),
    live_sessions: (r) => fresh.has(id(r.recording_id)) && transcriptIds.has(id(r.live_transcript_id)),
    subtitle_docs: (r) => transcriptIds.has(id(r.transcript_id)) && isJson(r.header, stringList) && isJson(r.trailer, stringList),
    subtitle_history: (r) => transcriptIds.has(id(r.transcript_id)) && isJson(r.splice, spliceSchema),
    // Profiles belong to no recording: one this library has (same id) or a built-in one is left as it is.
    subtitle_profiles: (r) => isJson(r.data, rulesProfileSchema) && !builtInProfiles.some((b) => b.id === r.id) && rulesProfileId(r.data) === r.id,
    waveform_peaks: (r) => fresh.has(id(r.recording_id)) && Number.isInteger(r.rate) && (r.rate as number) > 0 && (r.rate as number) <= 1000,
    chat_recordings: (r) => chatIds.has(id(r.chat_id)) && fresh.has(id(r.recording_id)),
    messages: (r) => chatIds.has(id(r.chat_id)),
    insights: (r) => transcriptIds.has(id(r.transcript_id)),
    review_accepted: (r) => transcriptIds.has(id(r.transcript_id)) && Number.isInteger(r.word_index) && (r.word_index as number) >= 0,
    speaker_notes: (r) => transcriptIds.has(id(r.transcript_id)),
    live_translations: (r) => fresh.has(id(r.recording_id)),
    live_summaries: (r) => fresh.has(id(r.recording_id)) && isJson(r.citations, z.array(missedCitationSchema)),
  };
}

type SqlValue = string | number | bigint | Buffer | null;

/** Parents before children: a row's references exist when it is inserted. */
const BACKUP_TABLES = [
  'recordings',
  'transcripts',
  'words',
  'word_corrections',
  'tags',
  'speakers',
  'cues',
  'live_sessions',
  'subtitle_docs',
  'subtitle_history',
  'subtitle_profiles',
  'waveform_peaks',
  'chats',
  'chat_recordings',
  'messages',
  'insights',
  'review_accepted',
  'speaker_notes',
  'live_translations',
  'live_summaries',
  // Voiceprints (VOICE_TABLES) are left out unless the user asks for them: they identify people, and stay on this machine.
] as const;

/** Every table a backup may hold: with the voice tables last, after the recordings and transcripts they hang off. */
const ALL_TABLES = [...BACKUP_TABLES, ...VOICE_TABLES] as const;

const stringList = z.array(z.string());

/** Whether a JSON text column holds what the library reads from it (a damaged one would break the view that opens it). */
function isJson(v: unknown, schema: z.ZodType): boolean {
  if (typeof v !== 'string') return false;
  try {
    return schema.safeParse(JSON.parse(v)).success;
  } catch {
    return false;
  }
}

function rulesProfileId(data: unknown): unknown {
  return (JSON.parse(String(data)) as { id?: unknown }).id;
}

/** A JSON value as SQLite takes it (Buffers travel as {base64}); undefined for anything else. */
function sqlValue(v: unknown): SqlValue | undefined {
  if (v === null || typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v))) return v;
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (typeof v === 'object' && !Array.isArray(v) && typeof (v as { base64?: unknown }).base64 === 'string')
    return Buffer.from((v as { base64: string }).base64, 'base64');
  return undefined;
}
