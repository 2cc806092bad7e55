/**
 * The journal of a backup import in progress: each recording, chat, rules
 * profile and remembered voice the import adds is noted in the same transaction that adds it, and
 * the notes go when the import ends. Notes found when the library opens are
 * an import a crash cut short: what it added is removed, so the library is
 * what it was before it (an import is whole or absent, never part).
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Database } from 'better-sqlite3';
import { isLibraryAudioName } from './audio';

export type JournalKind = 'recording' | 'chat' | 'profile' | 'voice';

/** Notes a row the running import added (call it inside the transaction that adds the row); prepared once per import. */
export function journalWriter(db: Database): (kind: JournalKind, id: string) => void {
  const insert = db.prepare(`INSERT OR IGNORE INTO import_journal (kind, id) VALUES (?, ?)`);
  return (kind, id) => void insert.run(kind, id);
}

/** The import ended (whole, or undone by its own cancel path): nothing left to undo. */
export function clearJournal(db: Database): void {
  db.prepare(`DELETE FROM import_journal`).run();
}

/**
 * Undo an import a crash cut short; answers how many recordings it removed.
 * The audio files go first, then the rows in one transaction: cut short again,
 * the next start finds the journal still there and finishes the job.
 */
export function rollBackInterruptedImport(db: Database, audioDir: string): number {
  const notes = db.prepare(`SELECT kind, id FROM import_journal`).all() as { kind: JournalKind; id: string }[];
  if (notes.length === 0) return 0;
  const recordings = notes.filter((n) => n.kind === 'recording').map((n) => n.id);
  const files = db.prepare(`SELECT audio_file, redacted_audio_file FROM recordings WHERE id = ?`);
  for (const id of recordings) {
    const row = files.get(id) as { audio_file: string | null; redacted_audio_file: string | null } | undefined;
    // Only names the library makes for this recording (never a path out of the folder).
    if (isLibraryAudioName(row?.audio_file, id, 'original')) rmSync(join(audioDir, row.audio_file), { force: true });
    if (isLibraryAudioName(row?.redacted_audio_file, id, 'redacted')) rmSync(join(audioDir, row.redacted_audio_file), { force: true });
  }
  const del = {
    recording: db.prepare(`DELETE FROM recordings WHERE id = ?`),
    chat: db.prepare(`DELETE FROM chats WHERE id = ?`),
    profile: db.prepare(`DELETE FROM subtitle_profiles WHERE id = ?`),
    // A remembered voice a restore added (its voiceprints cascade).
    voice: db.prepare(`DELETE FROM voices WHERE id = ?`),
  };
  db.transaction(() => {
    // Rows hanging off a recording or chat (transcripts, words, search rows, messages) cascade.
    for (const n of notes) del[n.kind]?.run(n.id);
    clearJournal(db);
  }).immediate();
  return recordings.length;
}
