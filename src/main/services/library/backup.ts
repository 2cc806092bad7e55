/** Backing the library up into a folder (library.json + audio/) and restoring one, confined to the library's own columns and file names. */
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { AppError } from '../../../shared/errors';
import type { Database, LibraryContext } from './db';
import { indexSentences, readWords } from './transcripts';
import { expandSpans, type StoredSpan } from './text';

export class BackupStore {
  constructor(
    private readonly db: Database,
    private readonly ctx: LibraryContext,
  ) {}

  /** Back up everything into an empty folder: library.json (all rows) + audio/. */
  exportAll(dir: string): { dir: string; items: number; audioFiles: number } {
    if (existsSync(dir) && readdirSync(dir).length > 0) throw new AppError('conflict', `The folder ${dir} is not empty. Choose an empty or new folder for the backup.`);
    mkdirSync(join(dir, 'audio'), { recursive: true });
    const tables = ['recordings', 'transcripts', 'words', 'tags', 'speakers', 'cues', 'chats', 'messages'] as const;
    const dump: Record<string, unknown[]> = {};
    for (const t of tables) {
      dump[t] = (this.db.prepare(`SELECT * FROM ${t}`).all() as Record<string, unknown>[]).map((row) =>
        Object.fromEntries(Object.entries(row).map(([k, v]) => [k, Buffer.isBuffer(v) ? { base64: v.toString('base64') } : v])),
      );
    }
    let audioFiles = 0;
    for (const r of dump.recordings as { audio_file: string | null; redacted_audio_file: string | null }[]) {
      for (const f of [r.audio_file, r.redacted_audio_file]) {
        if (f && existsSync(join(this.ctx.audioDir, f))) {
          copyFileSync(join(this.ctx.audioDir, f), join(dir, 'audio', f));
          audioFiles++;
        }
      }
    }
    writeFileSync(join(dir, 'library.json'), JSON.stringify({ format: 'verbatim-library', version: 1, exportedAt: new Date().toISOString(), tables: dump }));
    return { dir, items: dump.recordings?.length ?? 0, audioFiles };
  }

  importAll(dir: string): { imported: number; skipped: number } {
    const file = join(dir, 'library.json');
    if (!existsSync(file)) throw new AppError('file_unreadable', `${dir} does not contain a Verbatim backup (library.json is missing).`);
    let parsed: { format?: string; tables?: Record<string, Record<string, unknown>[]> };
    try {
      parsed = JSON.parse(readFileSync(file, 'utf8')) as typeof parsed;
    } catch {
      throw new AppError('file_unreadable', `The backup in ${dir} is damaged (library.json is not valid JSON).`);
    }
    if (parsed.format !== 'verbatim-library' || !parsed.tables) throw new AppError('file_unreadable', `${dir} is not a Verbatim library backup.`);
    const tables = parsed.tables;
    const recordings = tables.recordings ?? [];
    const existing = new Set((this.db.prepare(`SELECT id FROM recordings`).all() as { id: string }[]).map((r) => r.id));
    const fresh = new Set(recordings.map((r) => String(r.id)).filter((id) => !existing.has(id)));
    const transcriptIds = new Set((tables.transcripts ?? []).filter((t) => fresh.has(String(t.recording_id))).map((t) => String(t.id)));
    const keep: Record<string, (row: Record<string, unknown>) => boolean> = {
      recordings: (r) => fresh.has(String(r.id)),
      transcripts: (r) => fresh.has(String(r.recording_id)),
      words: (r) => transcriptIds.has(String(r.transcript_id)),
      tags: (r) => fresh.has(String(r.recording_id)),
      speakers: (r) => transcriptIds.has(String(r.transcript_id)),
      cues: (r) => transcriptIds.has(String(r.transcript_id)),
      chats: (r) => r.recording_id === null || fresh.has(String(r.recording_id)),
    };
    const chatIds = new Set<string>();
    this.db.transaction(() => {
      for (const table of ['recordings', 'transcripts', 'words', 'tags', 'speakers', 'cues', 'chats', 'messages']) {
        for (const row of tables[table] ?? []) {
          if (table === 'messages' ? !chatIds.has(String(row.chat_id)) : !keep[table]!(row)) continue;
          if (table === 'chats') chatIds.add(String(row.id));
          const cols = Object.keys(row).filter((c) => !(table === 'messages' && c === 'id'));
          const values = cols.map((c) => {
            const v = row[c];
            return v !== null && typeof v === 'object' && 'base64' in v ? Buffer.from(String((v as { base64: string }).base64), 'base64') : v;
          });
          this.db.prepare(`INSERT OR IGNORE INTO ${table} (${cols.join(', ')}) VALUES (${cols.map(() => '?').join(', ')})`).run(...values);
        }
      }
      for (const t of transcriptIds) {
        const row = this.db.prepare(`SELECT sentences FROM transcripts WHERE id = ?`).get(t) as { sentences: string };
        indexSentences(this.db, t, expandSpans(readWords(this.db, t), JSON.parse(row.sentences) as StoredSpan[]));
      }
    })();
    for (const r of recordings) {
      if (!fresh.has(String(r.id))) continue;
      for (const f of [r.audio_file, r.redacted_audio_file]) {
        if (typeof f === 'string' && existsSync(join(dir, 'audio', f))) copyFileSync(join(dir, 'audio', f), join(this.ctx.audioDir, f));
      }
    }
    if (fresh.size) this.ctx.changed([...fresh], 'imported');
    return { imported: fresh.size, skipped: recordings.length - fresh.size };
  }
}
