/** library.json of a backup read as a stream: each table row parsed on its own, within limits, so memory stays flat whatever the file's size. */
import type { FileHandle } from 'node:fs/promises';
import { StringDecoder } from 'node:string_decoder';
import { AppError } from '../../../shared/errors';

export const BACKUP_LIMITS = {
  /** library.json's size. */
  manifestBytes: 4 * 1024 ** 3,
  /** Rows of `recordings`. */
  recordings: 100_000,
  /** One row's JSON text. */
  rowBytes: 16 * 1024 ** 2,
  /** One string field of a row (a transcript's sentences are the largest). */
  fieldChars: 16 * 1024 ** 2,
  /** Rows of any one table. */
  rows: 50_000_000,
} as const;

/** Rows handed on between two turns of the event loop. */
const ROWS_PER_TURN = 1_000;

export interface BackupRow {
  table: string;
  row: Record<string, unknown>;
}

export interface ReadStats {
  /** Bytes of library.json read so far. */
  bytes: number;
  /** Rows left out, with why (first 20 reasons kept). */
  skipped: number;
  reasons: string[];
  /** Row objects of each table (skipped ones included), filled as the file is read. */
  counts?: Map<string, number>;
  /** The document's "version" (a number at its top level), once read. */
  version?: number;
}

function skip(stats: ReadStats, why: string): void {
  stats.skipped++;
  if (stats.reasons.length < 20) stats.reasons.push(why);
}

function fieldsFit(row: Record<string, unknown>): boolean {
  for (const v of Object.values(row)) if (typeof v === 'string' && v.length > BACKUP_LIMITS.fieldChars) return false;
  return true;
}

/**
 * The rows of `{"format":"verbatim-library", "tables": {"<table>": [ {…}, … ]}}`,
 * in file order. `format` must come before `tables` (as exportAll writes
 * it). A row that is not an object, is larger than rowBytes, does not parse
 * or has a field over fieldChars is skipped and counted in `stats`; more
 * than `recordings` recordings refuses the backup. Each 256 KiB read is a
 * turn of the event loop, and so is every ROWS_PER_TURN rows within one
 * (a read can hold 18,000 small rows, ~90 ms of work for the caller).
 */
export async function* backupRows(fh: FileHandle, size: number, stats: ReadStats, signal?: AbortSignal): AsyncGenerator<BackupRow> {
  if (size > BACKUP_LIMITS.manifestBytes)
    throw new AppError(
      'file_unreadable',
      `library.json is ${(size / 1024 ** 3).toFixed(1)} GB; a backup's library.json can be at most 4 GB. Nothing was imported.`,
    );
  const decoder = new StringDecoder('utf8');
  const buf = Buffer.allocUnsafe(256 * 1024);
  let depth = 0;
  let inStr = false;
  let esc = false;
  /** Text of the string being read, kept only at depth ≤ 2 (keys and the format), cut at 200. */
  let str = '';
  let lastStr: string | null = null;
  const keys: (string | null)[] = [];
  let format: string | null = null;
  let inTables = false;
  let row: string[] | null = null;
  let rowLen = 0;
  let rowStart = 0;
  const counts = new Map<string, number>();
  stats.counts = counts;
  /** Digits of the top-level "version" as they are read. */
  let versionText = '';
  let seenStart = false;
  let done = false;
  let sawTables = false;
  let rowsThisTurn: number;
  for (let at = 0; at < size && !done;) {
    if (signal?.aborted) throw new AppError('canceled', 'The import was canceled. Nothing was imported.');
    const { bytesRead } = await fh.read(buf, 0, Math.min(buf.length, size - at), at);
    if (bytesRead === 0) break;
    at += bytesRead;
    stats.bytes = at;
    rowsThisTurn = 0;
    const text = decoder.write(buf.subarray(0, bytesRead));
    if (row) rowStart = 0;
    for (let i = 0; i < text.length; i++) {
      const ch = text.charCodeAt(i);
      if (inStr) {
        if (esc) esc = false;
        else if (ch === 92) esc = true;
        else if (ch === 34) {
          inStr = false;
          if (depth <= 2) lastStr = str;
        } else if (depth <= 2 && str.length < 200) str += text[i];
        continue;
      }
      if (ch === 34) {
        inStr = true;
        str = '';
        continue;
      }
      if (ch === 58 /* : */) {
        keys[depth] = lastStr;
        lastStr = null;
        continue;
      }
      if (ch === 44 /* , */ || ch === 125 /* } */ || ch === 93 /* ] */) {
        if (depth === 1 && keys[1] === 'format' && lastStr !== null) format = lastStr;
        if (depth === 1 && keys[1] === 'version' && versionText) stats.version = Number(versionText);
        versionText = '';
        lastStr = null;
      }
      if (depth === 1 && keys[1] === 'version' && ch >= 48 && ch <= 57 && versionText.length < 10) versionText += text[i];
      if (ch === 123 /* { */ || ch === 91 /* [ */) {
        if (depth === 0) {
          done = true;
          if (ch !== 123) break;
          done = false;
          seenStart = true;
        }
        if (depth === 1 && keys[1] === 'tables') {
          if (format !== 'verbatim-library')
            throw new AppError(
              'file_unreadable',
              'This folder is not a Verbatim library backup (library.json has no "format": "verbatim-library" before its tables).',
            );
          inTables = ch === 123;
          sawTables ||= inTables;
        }
        depth++;
        if (depth === 4 && inTables && ch === 123) {
          row = [];
          rowLen = 0;
          rowStart = i;
        }
        continue;
      }
      if (ch === 125 || ch === 93) {
        depth--;
        if (depth === 3 && row) {
          const table = keys[2] ?? '';
          const piece = text.slice(rowStart, i + 1);
          rowLen += piece.length;
          const json = rowLen > BACKUP_LIMITS.rowBytes ? null : row.join('') + piece;
          row = null;
          const n = (counts.get(table) ?? 0) + 1;
          counts.set(table, n);
          if (table === 'recordings' && n > BACKUP_LIMITS.recordings)
            throw new AppError(
              'file_unreadable',
              `This backup holds more than ${BACKUP_LIMITS.recordings.toLocaleString('en')} recordings, the most one import takes. Nothing more was imported.`,
            );
          if (n > BACKUP_LIMITS.rows) skip(stats, `${table}: more than ${BACKUP_LIMITS.rows} rows`);
          else if (json === null) skip(stats, `${table} row ${n}: larger than ${BACKUP_LIMITS.rowBytes / 1024 ** 2} MB`);
          else {
            let parsed: unknown;
            try {
              parsed = JSON.parse(json);
            } catch {
              parsed = null;
            }
            if (!parsed || typeof parsed !== 'object') skip(stats, `${table} row ${n}: not valid JSON`);
            else if (!fieldsFit(parsed as Record<string, unknown>))
              skip(stats, `${table} row ${n}: a field longer than ${BACKUP_LIMITS.fieldChars / 1024 ** 2} M characters`);
            else yield { table, row: parsed as Record<string, unknown> };
          }
          if (++rowsThisTurn >= ROWS_PER_TURN) {
            rowsThisTurn = 0;
            await new Promise((r) => setImmediate(r));
            if (signal?.aborted) throw new AppError('canceled', 'The import was canceled. Nothing was imported.');
          }
        } else if (depth === 3 && inTables) {
          skip(stats, `${keys[2] ?? ''}: an entry that is not a row object`);
        } else if (depth === 1) inTables = false;
        if (depth === 0) {
          done = true;
          break;
        }
        continue;
      }
    }
    if (row && !done) {
      const piece = text.slice(rowStart);
      rowLen += piece.length;
      // Over the limit: stop keeping text, the row is skipped when it closes.
      if (rowLen <= BACKUP_LIMITS.rowBytes) row.push(piece);
    }
  }
  if (!seenStart || format !== 'verbatim-library' || !sawTables)
    throw new AppError('file_unreadable', 'This folder is not a Verbatim library backup (library.json is not one).');
  // The file ended inside the document: a backup cut short, read as far as it goes, is not the backup.
  if (!done)
    throw new AppError(
      'file_unreadable',
      'This backup is incomplete: library.json ends before its last table closes. Nothing was restored. It was probably cut short while it was being made or copied: make the backup again, or choose a complete copy of it.',
    );
}
