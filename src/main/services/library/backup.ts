/** Backing the library up into a folder (library.json + audio/) and restoring one, confined to the library's own columns and file names. */
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { builtInProfiles } from '../../../shared/subtitles/index';
import { AppError } from '../../../shared/errors';
import { editorCueSchema, rulesProfileSchema, spliceSchema } from '../../../shared/subtitles/schema';
import type { Database, LibraryContext } from './db';
import { isLibraryAudioName } from './audio';
import { indexSentences, readWords } from './transcripts';
import { expandSpans, type StoredSpan } from './text';

export class BackupStore {
  constructor(
    private readonly db: Database,
    private readonly ctx: LibraryContext,
  ) {}

  /** Back up everything into an empty folder: library.json (all rows) + audio/. */
  exportAll(dir: string): { dir: string; items: number; audioFiles: number } {
    if (existsSync(dir) && readdirSync(dir).length > 0)
      throw new AppError('conflict', `The folder ${dir} is not empty. Choose an empty or new folder for the backup.`);
    mkdirSync(join(dir, 'audio'), { recursive: true });
    const dump: Record<string, unknown[]> = {};
    for (const t of BACKUP_TABLES) {
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
   * the library makes for that recording, files are read from the backup's
   * audio/ folder and written into the library's, and `original_path` (a file
   * on the machine the backup came from) is never imported. Rows hang off an
   * imported recording or transcript (a chat off one of its recordings); JSON
   * columns the views read (cues, undo history, profiles) must parse as the
   * library writes them, else the row is skipped.
   */
  importAll(dir: string): { imported: number; skipped: number } {
    const file = join(dir, 'library.json');
    if (!existsSync(file)) throw new AppError('file_unreadable', `${dir} does not contain a Verbatim backup (library.json is missing).`);
    let parsed: { format?: unknown; tables?: unknown };
    try {
      parsed = JSON.parse(readFileSync(file, 'utf8')) as typeof parsed;
    } catch {
      throw new AppError('file_unreadable', `The backup in ${dir} is damaged (library.json is not valid JSON).`);
    }
    if (parsed?.format !== 'verbatim-library' || parsed.tables === null || typeof parsed.tables !== 'object')
      throw new AppError('file_unreadable', `${dir} is not a Verbatim library backup.`);
    const raw = parsed.tables as Record<string, unknown>;
    const rows = (table: string): Record<string, unknown>[] =>
      Array.isArray(raw[table])
        ? (raw[table] as unknown[]).filter((r): r is Record<string, unknown> => r !== null && typeof r === 'object' && !Array.isArray(r))
        : [];
    const recordings = rows('recordings');
    const existing = new Set((this.db.prepare(`SELECT id FROM recordings`).all() as { id: string }[]).map((r) => r.id));
    const fresh = new Set(recordings.map((r) => r.id).filter((id): id is string => typeof id === 'string' && !existing.has(id)));
    const transcriptIds = new Set(
      rows('transcripts')
        .filter((t) => fresh.has(String(t.recording_id)))
        .map((t) => String(t.id)),
    );
    // A chat over chosen recordings comes in only with one of them: a chat over nothing could not answer.
    const chatOver = new Map<string, boolean>();
    for (const r of rows('chat_recordings')) {
      const id = String(r.chat_id);
      chatOver.set(id, (chatOver.get(id) ?? false) || fresh.has(String(r.recording_id)));
    }
    const keep: Record<string, (row: Record<string, unknown>) => boolean> = {
      recordings: (r) => fresh.has(String(r.id)),
      transcripts: (r) => fresh.has(String(r.recording_id)),
      words: (r) => transcriptIds.has(String(r.transcript_id)),
      tags: (r) => fresh.has(String(r.recording_id)),
      speakers: (r) => transcriptIds.has(String(r.transcript_id)),
      cues: (r) => transcriptIds.has(String(r.transcript_id)) && isJson(r.data, z.array(editorCueSchema)),
      chats: (r) => (r.scope === 'library' ? r.recording_id === null : chatOver.get(String(r.id)) === true),
      word_corrections: (r) => transcriptIds.has(String(r.transcript_id)),
      live_sessions: (r) => fresh.has(String(r.recording_id)) && transcriptIds.has(String(r.live_transcript_id)),
      subtitle_docs: (r) => transcriptIds.has(String(r.transcript_id)) && isJson(r.header, stringList) && isJson(r.trailer, stringList),
      subtitle_history: (r) => transcriptIds.has(String(r.transcript_id)) && isJson(r.splice, spliceSchema),
      // Profiles belong to no recording: one this library has (same id) or a built-in one is left as it is.
      subtitle_profiles: (r) => isJson(r.data, rulesProfileSchema) && !builtInProfiles.some((b) => b.id === r.id) && rulesProfileId(r.data) === r.id,
      waveform_peaks: (r) => fresh.has(String(r.recording_id)) && Number.isInteger(r.rate) && (r.rate as number) > 0 && (r.rate as number) <= 1000,
      chat_recordings: (r) => chatIds.has(String(r.chat_id)) && fresh.has(String(r.recording_id)),
      insights: (r) => transcriptIds.has(String(r.transcript_id)),
    };
    const chatIds = new Set<string>();
    const audioIn = (name: unknown, recordingId: string, kind: 'original' | 'redacted'): string | null =>
      isLibraryAudioName(name, recordingId, kind) && existsSync(join(dir, 'audio', name)) ? name : null;
    const copies: [from: string, to: string][] = [];
    this.db.transaction(() => {
      for (const table of BACKUP_TABLES) {
        const columns = new Set((this.db.prepare(`SELECT name FROM pragma_table_info(?)`).all(table) as { name: string }[]).map((c) => c.name));
        // Messages get new row ids here; a recording's original file belongs to the machine the backup came from.
        if (table === 'messages') columns.delete('id');
        if (table === 'recordings') columns.delete('original_path');
        for (const row of rows(table)) {
          if (table === 'messages' ? !chatIds.has(String(row.chat_id)) : !keep[table]!(row)) continue;
          const values = new Map<string, SqlValue>();
          let ok = true;
          for (const c of columns) {
            if (!(c in row)) continue;
            const v = sqlValue(row[c]);
            if (v === undefined) ok = false;
            else values.set(c, v);
          }
          if (!ok) continue;
          if (table === 'recordings') {
            const id = String(row.id);
            for (const [col, kind] of [
              ['audio_file', 'original'],
              ['redacted_audio_file', 'redacted'],
            ] as const) {
              const name = audioIn(row[col], id, kind);
              values.set(col, name);
              if (name) copies.push([join(dir, 'audio', name), join(this.ctx.audioDir, name)]);
            }
          }
          const cols = [...values.keys()];
          try {
            const r = this.db.prepare(`INSERT OR IGNORE INTO ${table} (${cols.join(', ')}) VALUES (${cols.map(() => '?').join(', ')})`).run(...values.values());
            if (table === 'chats' && r.changes) chatIds.add(String(row.id));
          } catch {
            // A row this schema refuses (a broken reference): skipped, the rest still comes in.
          }
        }
      }
      for (const t of transcriptIds) {
        const row = this.db.prepare(`SELECT sentences FROM transcripts WHERE id = ?`).get(t) as { sentences: string } | undefined;
        if (!row) continue;
        try {
          indexSentences(this.db, t, expandSpans(readWords(this.db, t), JSON.parse(row.sentences) as StoredSpan[]));
        } catch {
          // Damaged spans: the transcript is kept, without search rows.
        }
      }
    })();
    for (const [from, to] of copies) copyFileSync(from, to);
    const imported = [...fresh].filter((id) => this.db.prepare(`SELECT 1 FROM recordings WHERE id = ?`).get(id));
    if (imported.length) this.ctx.changed(imported, 'imported');
    return { imported: imported.length, skipped: recordings.length - imported.length };
  }
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
] as const;

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
