/** Backing the library up into a folder (library.json + audio/ + manifest.json) and restoring one, confined to the library's own columns and file names. */
import { existsSync, readdirSync } from 'node:fs';
import { lstat, realpath, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { AppError } from '../../../shared/errors';
import type { Statement } from 'better-sqlite3';
import type { Database, LibraryContext } from './db';
import { isLibraryAudioName } from './audio';
import { readWords } from './transcripts';
import { expandSpans, type StoredSpan } from './text';
import { copyOpened, openRegular, realFolder } from './backup-files';
import { backupRows, type BackupRow, type ReadStats } from './backup-reader';
import { clearJournal, journalWriter } from './backup-journal';
import { VoiceRestore } from './backup-voices';
import { ALL_TABLES, BACKUP_TABLES, BATCH, id, journalKinds, keepRules, sqlValue, wordsCount, type BackupTable, type SqlValue } from './backup-rules';
import { checkAudio, checkCounts, checkFile, incomplete, MANIFEST_FILE, readManifest, type BackupManifest } from './backup-manifest';
import { writeBackup, type WriteProgress } from './backup-writer';

/** Main-thread work between two turns of the event loop (the rule is 100 ms; this leaves room). */
const SLICE_MS = 30;
/** Characters of row text inserted (and checked) per transaction at most: about two two-hour meetings, ~40 ms (500 rows of them were one long turn). */
const BATCH_CHARS = 512 * 1024;
const yieldTurn = () => new Promise<void>((r) => setImmediate(r));
/** The most recordings one change event of an import names. */
const CHANGE_IDS = 1_000;

/** Characters a row's string fields hold (its base64 blobs included): what inserting it costs, roughly. */
function weight(row: Record<string, unknown>): number {
  let n = 0;
  for (const k in row) {
    const v = row[k];
    if (typeof v === 'string') n += v.length;
    else if (v && typeof v === 'object' && typeof (v as { base64?: unknown }).base64 === 'string') n += (v as { base64: string }).base64.length;
  }
  return n;
}

export class BackupStore {
  constructor(
    private readonly db: Database,
    private readonly ctx: LibraryContext,
  ) {}

  /**
   * Back up everything into an empty folder: library.json (all rows) + audio/, each written whole (a temporary
   * name, synced, renamed), and manifest.json last (backup-writer.ts). Remembered voices (the voice tables and
   * each transcript's turn voiceprints) go in only with `voiceprints`: they identify people.
   */
  async exportAll(
    dir: string,
    opts: { voiceprints?: boolean; progress?: (p: WriteProgress) => void } = {},
  ): Promise<{ dir: string; items: number; audioFiles: number }> {
    try {
      if (existsSync(dir) && readdirSync(dir).length > 0)
        throw new AppError('conflict', `The folder ${dir} is not empty. Choose an empty or new folder for the backup.`);
      const out = await writeBackup(this.db, this.ctx.audioDir, dir, opts.voiceprints === true ? ALL_TABLES : BACKUP_TABLES, opts.progress);
      return { dir, ...out };
    } catch (err) {
      // A folder that cannot be made or written (no permission, a file in the way, a full disk) is the user's to change.
      const code = (err as NodeJS.ErrnoException).code;
      if (err instanceof AppError || typeof code !== 'string') throw err;
      throw new AppError('bad_request', `The backup could not be written into ${dir} (${code}). Choose a folder you can write to, with room for the backup.`);
    }
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
    /** library.json is read twice, and checked against its manifest first when it has one (`checked`: 0, or its size once checked). */
    let checking = false;
    let checked = 0;
    const progress = (done: number) => opts.progress?.({ done, total: (checking ? 3 : 2) * size });
    const report = (pass: number) => progress(checked + pass * size + (pass ? second.bytes : stats.bytes));
    const imported: string[] = [];
    const copied: string[] = [];
    const chatIds = new Set<string>();
    const profiles: string[] = [];
    const voicesAdded: string[] = [];
    const voices = new VoiceRestore(this.db);
    const noteImported = journalWriter(this.db);
    let manifest: BackupManifest | null = null;
    try {
      // Before anything is read for its rows: every file as the backup wrote it (a backup made before manifests has none).
      manifest = await readManifest(root);
      if (manifest) {
        checking = true;
        await checkFile('library.json', fh, size, manifest.files['library.json'], opts.signal, progress);
        checked = size;
        await checkAudio(root, manifest, opts.signal);
      }
      // Pass 1: which recordings are new, their transcripts, and which chats are over one of them.
      const existing = new Set<string>();
      const fresh = new Set<string>();
      const transcriptIds = new Set<string>();
      const transcriptOf = new Map<string, string>();
      const chatOver = new Map<string, boolean>();
      const has = this.db.prepare(`SELECT 1 FROM recordings WHERE id = ?`);
      /** Each transcript's word count, from a words row that unpacks as the library stores it; and those whose row does not. */
      const wordsOf = new Map<string, number>();
      const damaged = new Set<string>();
      let recordings = 0;
      let rows = 0;
      for await (const { table, row } of backupRows(fh, size, stats, opts.signal)) {
        if (++rows % BATCH === 0) report(0);
        if (table === 'recordings') {
          recordings++;
          if (typeof row.id === 'string' && row.id.length <= 200 && !existing.has(row.id)) (has.get(row.id) ? existing : fresh).add(row.id);
        } else if (table === 'transcripts' && typeof row.id === 'string' && row.id.length <= 200) transcriptOf.set(row.id, id(row.recording_id));
        else if (table === 'words') {
          const n = wordsCount(row);
          if (n === null) damaged.add(id(row.transcript_id));
          else wordsOf.set(id(row.transcript_id), n);
        } else if (table === 'chat_recordings') {
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
      // library.json closed (the reader checks): its rows now against the counts the manifest gives.
      if (manifest) checkCounts(manifest, stats.counts ?? new Map());
      else if ((stats.version ?? 1) >= 2) throw incomplete(`its ${MANIFEST_FILE}, written when a backup is whole, is missing`);
      // A recording with a transcript whose words are damaged (or inflate past what they claim) stays out whole.
      let refused = 0;
      for (const t of damaged) {
        const r = transcriptOf.get(t);
        if (r !== undefined && fresh.delete(r)) refused++;
      }
      if (refused)
        notes.push(
          `${refused} recording${refused === 1 ? ' was' : 's were'} not restored: ${refused === 1 ? 'its' : 'their'} words are damaged in the backup.`,
        );
      for (const [t, r] of transcriptOf) if (fresh.has(r)) transcriptIds.add(t);
      transcriptOf.clear();
      voices.settle();
      notes.push(...voices.notes);
      const keep = {
        ...keepRules(fresh, transcriptIds, chatOver, chatIds, wordsOf),
        ...voices.rules(
          (r) => fresh.has(r),
          (t) => transcriptIds.has(t),
          (t) => wordsOf.get(t),
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
      let batchChars = 0;
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
        batchChars = 0;
        for (const [name, id] of copies) {
          const why =
            manifest && !manifest.files[`audio/${name}`]
              ? `not listed in the backup's ${MANIFEST_FILE}`
              : await this.copyAudio(join(audioDir as string, name), root, name, opts.signal);
          if (why === null) copied.push(name);
          else {
            notes.push(`audio/${name} was not imported: it is ${why}.`);
            for (const col of ['audio_file', 'redacted_audio_file'])
              this.db.prepare(`UPDATE recordings SET ${col} = NULL WHERE id = ? AND ${col} = ?`).run(id, name);
          }
        }
        report(1);
        await yieldTurn();
      };
      for await (const item of backupRows(fh, size, second, opts.signal)) {
        batch.push(item);
        batchChars += weight(item.row);
        if (batch.length >= BATCH || batchChars >= BATCH_CHARS) await flush();
      }
      await flush();
      // Search rows: a two-hour meeting has ~1,400 sentences, so they go in a time slice at a time (the journal still undoes a cut import).
      const sentence = this.db.prepare(`INSERT INTO sentences (transcript_id, start_ms, text) VALUES (?, ?, ?)`);
      const spansOf = this.db.prepare(`SELECT sentences FROM transcripts WHERE id = ?`);
      const clearSentences = this.db.prepare(`DELETE FROM sentences WHERE transcript_id = ?`);
      let slice = performance.now();
      const turn = async () => {
        if (performance.now() - slice < SLICE_MS) return;
        await yieldTurn();
        slice = performance.now();
        if (opts.signal?.aborted) throw new AppError('canceled', 'The import was canceled. Nothing was imported.');
      };
      for (const t of transcriptIds) {
        const row = spansOf.get(t) as { sentences: string } | undefined;
        if (!row) continue;
        let spans: { start: number; text: string }[];
        try {
          spans = expandSpans(readWords(this.db, t), JSON.parse(row.sentences) as StoredSpan[]);
        } catch {
          continue; // Damaged spans: the transcript is kept, without search rows.
        }
        // A transcript id this library had already (its row was kept): its rows are made again, not doubled.
        clearSentences.run(t);
        for (let i = 0; i < spans.length;) {
          const started = performance.now();
          this.db
            .transaction(() => {
              do sentence.run(t, spans[i]!.start, spans[i]!.text);
              while (++i < spans.length && performance.now() - started < SLICE_MS);
            })
            .immediate();
          await turn();
        }
        await turn();
      }
      // The import is whole: from here a restart keeps it.
      this.db.transaction(() => clearJournal(this.db)).immediate();
      // Told in parts, a turn apart: one change naming 50,000 recordings took main ~50 ms to check against the
      // contract, encode and send (and each listener its own time), all in one turn.
      for (let i = 0; i < imported.length; i += CHANGE_IDS) {
        if (i) await yieldTurn();
        this.ctx.changed(imported.slice(i, i + CHANGE_IDS), 'imported');
      }
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
        await yieldTurn();
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
