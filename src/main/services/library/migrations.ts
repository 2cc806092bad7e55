/**
 * The library database's schema as numbered migrations (PRAGMA user_version).
 * A migration is never edited once released: add the next one instead.
 */
import type { Database } from 'better-sqlite3';
import { migration16Voices } from './migration-16-voices';
import { migration17Watch } from './migration-17-watch';
import { migration18 } from './migration-18-review';
import { migration19Captions } from './migration-19-captions';
import { migration20Fixes } from './migration-20-fixes';
import { migration21Templates } from './migration-21-templates';

export interface Migration {
  version: number;
  name: string;
  up(db: Database): void;
}

export const migrations: Migration[] = [
  {
    version: 1,
    name: 'recordings, transcripts, words, tags',
    up(db) {
      db.exec(`
        CREATE TABLE recordings (
          id TEXT PRIMARY KEY,
          title TEXT NOT NULL,
          source TEXT NOT NULL,
          source_kind TEXT NOT NULL,
          audio_file TEXT,
          duration_ms INTEGER,
          size_bytes INTEGER,
          created_at TEXT NOT NULL,
          updated_at TEXT NOT NULL
        );
        CREATE INDEX recordings_created ON recordings(created_at);
        CREATE TABLE transcripts (
          id TEXT PRIMARY KEY,
          recording_id TEXT NOT NULL REFERENCES recordings(id) ON DELETE CASCADE,
          region TEXT NOT NULL,
          base_url TEXT,
          remote_id TEXT,
          status TEXT NOT NULL,
          error_code TEXT,
          error_message TEXT,
          error_retryable INTEGER,
          text TEXT NOT NULL DEFAULT '',
          language TEXT,
          model TEXT,
          confidence REAL,
          options TEXT NOT NULL DEFAULT '{}',
          word_count INTEGER NOT NULL DEFAULT 0,
          created_at TEXT NOT NULL,
          submitted_at TEXT,
          completed_at TEXT
        );
        CREATE INDEX transcripts_recording ON transcripts(recording_id);
        CREATE TABLE words (
          transcript_id TEXT PRIMARY KEY REFERENCES transcripts(id) ON DELETE CASCADE,
          count INTEGER NOT NULL,
          data BLOB NOT NULL
        );
        CREATE TABLE tags (
          recording_id TEXT NOT NULL REFERENCES recordings(id) ON DELETE CASCADE,
          name TEXT NOT NULL,
          PRIMARY KEY (recording_id, name)
        );
        CREATE INDEX tags_name ON tags(name);
      `);
    },
  },
  {
    version: 2,
    name: 'sentences, paragraphs, speakers, edited cues, full-text search',
    up(db) {
      db.exec(`
        ALTER TABLE transcripts ADD COLUMN sentences TEXT NOT NULL DEFAULT '[]';
        ALTER TABLE transcripts ADD COLUMN paragraphs TEXT NOT NULL DEFAULT '[]';
        ALTER TABLE recordings ADD COLUMN redacted_audio_file TEXT;
        CREATE TABLE speakers (
          transcript_id TEXT NOT NULL REFERENCES transcripts(id) ON DELETE CASCADE,
          speaker TEXT NOT NULL,
          name TEXT,
          PRIMARY KEY (transcript_id, speaker)
        );
        CREATE TABLE cues (
          transcript_id TEXT PRIMARY KEY REFERENCES transcripts(id) ON DELETE CASCADE,
          data TEXT NOT NULL,
          updated_at TEXT NOT NULL
        );
        -- One row per sentence (or utterance) with where it starts; the FTS
        -- index reads its text from here (external content, kept by triggers).
        CREATE TABLE sentences (
          id INTEGER PRIMARY KEY,
          transcript_id TEXT NOT NULL REFERENCES transcripts(id) ON DELETE CASCADE,
          start_ms INTEGER NOT NULL,
          text TEXT NOT NULL
        );
        CREATE INDEX sentences_transcript ON sentences(transcript_id);
        CREATE VIRTUAL TABLE sentences_fts USING fts5(
          text,
          content = 'sentences',
          content_rowid = 'id',
          tokenize = 'porter unicode61 remove_diacritics 2'
        );
        CREATE TRIGGER sentences_ai AFTER INSERT ON sentences BEGIN
          INSERT INTO sentences_fts(rowid, text) VALUES (new.id, new.text);
        END;
        CREATE TRIGGER sentences_ad AFTER DELETE ON sentences BEGIN
          INSERT INTO sentences_fts(sentences_fts, rowid, text) VALUES ('delete', old.id, old.text);
        END;
        CREATE TRIGGER sentences_au AFTER UPDATE ON sentences BEGIN
          INSERT INTO sentences_fts(sentences_fts, rowid, text) VALUES ('delete', old.id, old.text);
          INSERT INTO sentences_fts(rowid, text) VALUES (new.id, new.text);
        END;
      `);
    },
  },
  {
    version: 3,
    name: 'durable jobs, chats and messages',
    up(db) {
      db.exec(`
        CREATE TABLE jobs (
          id TEXT PRIMARY KEY,
          recording_id TEXT NOT NULL,
          transcript_id TEXT NOT NULL,
          source_kind TEXT NOT NULL,
          source TEXT NOT NULL,
          name TEXT NOT NULL,
          status TEXT NOT NULL,
          region TEXT NOT NULL,
          base_url TEXT NOT NULL,
          upload_url TEXT,
          remote_id TEXT,
          bytes_sent INTEGER NOT NULL DEFAULT 0,
          bytes_total INTEGER,
          error_code TEXT,
          error_message TEXT,
          error_retryable INTEGER,
          attempts INTEGER NOT NULL DEFAULT 0,
          options TEXT NOT NULL DEFAULT '{}',
          created_at TEXT NOT NULL,
          updated_at TEXT NOT NULL,
          completed_at TEXT
        );
        CREATE INDEX jobs_status ON jobs(status);
        CREATE TABLE chats (
          id TEXT PRIMARY KEY,
          recording_id TEXT REFERENCES recordings(id) ON DELETE CASCADE,
          title TEXT NOT NULL,
          model TEXT,
          created_at TEXT NOT NULL
        );
        CREATE TABLE messages (
          id INTEGER PRIMARY KEY AUTOINCREMENT,
          chat_id TEXT NOT NULL REFERENCES chats(id) ON DELETE CASCADE,
          role TEXT NOT NULL,
          content TEXT NOT NULL,
          created_at TEXT NOT NULL
        );
        CREATE INDEX messages_chat ON messages(chat_id);
      `);
    },
  },
  {
    version: 4,
    name: 'prefix indexes for search-as-you-type',
    up(db) {
      // Same content, plus prefix indexes of 2–4 characters: a short prefix
      // then reads one doclist instead of merging every word it starts.
      db.exec(`
        DROP TABLE sentences_fts;
        CREATE VIRTUAL TABLE sentences_fts USING fts5(
          text,
          content = 'sentences',
          content_rowid = 'id',
          tokenize = 'porter unicode61 remove_diacritics 2',
          prefix = '2 3 4'
        );
        INSERT INTO sentences_fts(sentences_fts) VALUES ('rebuild');
      `);
    },
  },
  {
    version: 5,
    name: 'covering index for the latest transcript of a recording',
    up(db) {
      // Transcript rows are wide (the whole text); listing must not read them to find ids.
      db.exec(`CREATE INDEX transcripts_latest ON transcripts(recording_id, created_at, id)`);
    },
  },
  {
    version: 6,
    name: 'indexes for the library list sorts',
    up(db) {
      db.exec(`
        CREATE INDEX recordings_title ON recordings(title COLLATE NOCASE);
        CREATE INDEX recordings_duration ON recordings(duration_ms);
        CREATE INDEX recordings_updated ON recordings(updated_at);
      `);
    },
  },
  {
    version: 7,
    name: 'word corrections kept beside the original words',
    up(db) {
      db.exec(`
        CREATE TABLE word_corrections (
          transcript_id TEXT NOT NULL REFERENCES transcripts(id) ON DELETE CASCADE,
          word_index INTEGER NOT NULL,
          original TEXT NOT NULL,
          PRIMARY KEY (transcript_id, word_index)
        ) WITHOUT ROWID;
      `);
    },
  },
  {
    version: 8,
    name: 'jobs remember when they were resumed after a restart',
    up(db) {
      db.exec(`ALTER TABLE jobs ADD COLUMN resumed_at TEXT`);
    },
  },
  {
    version: 9,
    name: "the user's webhook and what its server answered",
    up(db) {
      db.exec(`
        ALTER TABLE transcripts ADD COLUMN webhook_url TEXT;
        ALTER TABLE transcripts ADD COLUMN webhook_status_code INTEGER;
        ALTER TABLE transcripts ADD COLUMN webhook_checked_at TEXT;
        ALTER TABLE transcripts ADD COLUMN webhook_settled INTEGER NOT NULL DEFAULT 0;
      `);
    },
  },
  {
    version: 10,
    name: 'recordings remember the original file, to play it when no copy was kept',
    up(db) {
      db.exec(`ALTER TABLE recordings ADD COLUMN original_path TEXT`);
    },
  },
  {
    version: 11,
    name: 'live caption sessions: sources, the live transcript beside improved ones, what was lost to reconnects',
    up(db) {
      db.exec(`
        CREATE TABLE live_sessions (
          recording_id TEXT PRIMARY KEY REFERENCES recordings(id) ON DELETE CASCADE,
          live_transcript_id TEXT NOT NULL,
          sources TEXT NOT NULL,
          record_only INTEGER NOT NULL DEFAULT 0,
          recording_mime TEXT,
          started_at TEXT NOT NULL,
          ended_at TEXT,
          lost_ms INTEGER NOT NULL DEFAULT 0,
          reconnects INTEGER NOT NULL DEFAULT 0
        );
      `);
    },
  },
  {
    version: 12,
    name: 'subtitle editor: cue documents, undo history, rules profiles, waveform peaks',
    up(db) {
      db.exec(`
        CREATE TABLE subtitle_docs (
          transcript_id TEXT PRIMARY KEY REFERENCES transcripts(id) ON DELETE CASCADE,
          profile_id TEXT NOT NULL,
          header TEXT NOT NULL DEFAULT '[]',
          trailer TEXT NOT NULL DEFAULT '[]',
          version INTEGER NOT NULL DEFAULT 0
        );
        CREATE TABLE subtitle_history (
          transcript_id TEXT NOT NULL REFERENCES transcripts(id) ON DELETE CASCADE,
          seq INTEGER NOT NULL,
          label TEXT NOT NULL,
          splice TEXT NOT NULL,
          undone INTEGER NOT NULL DEFAULT 0,
          PRIMARY KEY (transcript_id, seq)
        ) WITHOUT ROWID;
        CREATE TABLE subtitle_profiles (id TEXT PRIMARY KEY, data TEXT NOT NULL, created_at TEXT NOT NULL);
        CREATE TABLE waveform_peaks (
          recording_id TEXT PRIMARY KEY REFERENCES recordings(id) ON DELETE CASCADE,
          rate INTEGER NOT NULL,
          duration_ms INTEGER NOT NULL,
          data BLOB NOT NULL
        );
      `);
    },
  },
  {
    version: 13,
    name: 'chats over many recordings, messages with citations, saved speech-understanding results',
    up(db) {
      // chats.recording_id stays for old rows; chat_recordings lists what a chat is over,
      // so deleting one recording of a selection leaves the chat (its citations say the recording is gone).
      db.exec(`
        ALTER TABLE chats ADD COLUMN scope TEXT NOT NULL DEFAULT 'recordings';
        ALTER TABLE chats ADD COLUMN updated_at TEXT;
        UPDATE chats SET updated_at = created_at;
        CREATE TABLE chat_recordings (
          chat_id TEXT NOT NULL REFERENCES chats(id) ON DELETE CASCADE,
          recording_id TEXT NOT NULL REFERENCES recordings(id) ON DELETE CASCADE,
          position INTEGER NOT NULL,
          PRIMARY KEY (chat_id, recording_id)
        ) WITHOUT ROWID;
        CREATE INDEX chat_recordings_recording ON chat_recordings(recording_id);
        INSERT INTO chat_recordings (chat_id, recording_id, position) SELECT id, recording_id, 0 FROM chats WHERE recording_id IS NOT NULL;
        CREATE INDEX chats_updated ON chats(updated_at);
        ALTER TABLE messages ADD COLUMN status TEXT NOT NULL DEFAULT 'done';
        ALTER TABLE messages ADD COLUMN error TEXT;
        ALTER TABLE messages ADD COLUMN model TEXT;
        ALTER TABLE messages ADD COLUMN citations TEXT NOT NULL DEFAULT '[]';
        ALTER TABLE messages ADD COLUMN sources TEXT NOT NULL DEFAULT '[]';
        CREATE VIRTUAL TABLE messages_fts USING fts5(
          content,
          content = 'messages',
          content_rowid = 'id',
          tokenize = 'porter unicode61 remove_diacritics 2'
        );
        INSERT INTO messages_fts(messages_fts) VALUES ('rebuild');
        CREATE TRIGGER messages_ai AFTER INSERT ON messages BEGIN
          INSERT INTO messages_fts(rowid, content) VALUES (new.id, new.content);
        END;
        CREATE TRIGGER messages_ad AFTER DELETE ON messages BEGIN
          INSERT INTO messages_fts(messages_fts, rowid, content) VALUES ('delete', old.id, old.content);
        END;
        CREATE TRIGGER messages_au AFTER UPDATE OF content ON messages BEGIN
          INSERT INTO messages_fts(messages_fts, rowid, content) VALUES ('delete', old.id, old.content);
          INSERT INTO messages_fts(rowid, content) VALUES (new.id, new.content);
        END;
        -- How many sentences hold each term: retrieval drops the commonest words of a question.
        CREATE VIRTUAL TABLE sentences_vocab USING fts5vocab(sentences_fts, 'row');
        CREATE TABLE insights (
          transcript_id TEXT NOT NULL REFERENCES transcripts(id) ON DELETE CASCADE,
          kind TEXT NOT NULL,
          variant TEXT NOT NULL DEFAULT '',
          model TEXT,
          result TEXT NOT NULL,
          created_at TEXT NOT NULL,
          PRIMARY KEY (transcript_id, kind, variant)
        ) WITHOUT ROWID;
      `);
    },
  },
  {
    version: 14,
    name: 'live turns saved as they end',
    up(db) {
      // A live session's finished turns, each written when it is shown, so a crash keeps them (the transcript is made from them at stop or at the next start).
      db.exec(`
        CREATE TABLE live_turns (
          recording_id TEXT NOT NULL REFERENCES recordings(id) ON DELETE CASCADE,
          key TEXT NOT NULL,
          turn TEXT NOT NULL,
          PRIMARY KEY (recording_id, key)
        ) WITHOUT ROWID;
      `);
    },
  },
  {
    version: 15,
    name: 'backup import journal',
    up(db) {
      // What a running backup import added, noted with each batch: a crash part-way is undone at the next start (backup-journal.ts).
      db.exec(`CREATE TABLE import_journal (kind TEXT NOT NULL, id TEXT NOT NULL, PRIMARY KEY (kind, id)) WITHOUT ROWID;`);
    },
  },
  migration16Voices,
  migration17Watch,
  migration18,
  migration19Captions,
  migration20Fixes,
  migration21Templates,
];

export const latestVersion = migrations[migrations.length - 1]?.version ?? 0;

/** Bring `db` up to `target` (default: latest), each step in its own transaction. */
export function migrate(db: Database, target = latestVersion): number {
  const current = db.pragma('user_version', { simple: true }) as number;
  if (current > latestVersion) {
    throw new Error(`This library was written by a newer Verbatim (schema ${current}, this one knows ${latestVersion}). Update Verbatim to open it.`);
  }
  for (const m of migrations) {
    if (m.version <= current || m.version > target) continue;
    db.transaction(() => {
      m.up(db);
      db.pragma(`user_version = ${m.version}`);
    }).immediate();
  }
  return db.pragma('user_version', { simple: true }) as number;
}
