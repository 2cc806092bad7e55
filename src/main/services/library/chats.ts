/**
 * Chats over recordings in the library database: a chat's recordings (or the
 * whole library), its model, and its messages with their citations and the
 * recordings each answer drew on; searched with the library's FTS5 syntax.
 */
import { randomUUID } from 'node:crypto';
import type { Database } from 'better-sqlite3';
import { AppError } from '../../../shared/errors';
import type { ChatDetail, ChatMessage, ChatSummary, Citation, ChatSource } from '../../../shared/chat/schema';
import { ftsQuery } from './text';

interface ChatRow {
  id: string;
  title: string;
  model: string | null;
  scope: string;
  created_at: string;
  updated_at: string | null;
  message_count: number;
  preview: string | null;
  recordings: string | null;
}

interface MessageRow {
  id: number;
  role: string;
  content: string;
  created_at: string;
  status: string;
  error: string | null;
  model: string | null;
  citations: string;
  sources: string;
}

export interface NewMessage {
  role: 'user' | 'assistant';
  content: string;
  status?: ChatMessage['status'];
  error?: string | null;
  model?: string | null;
  citations?: Citation[];
  sources?: ChatSource[];
}

const CHAT_SELECT = `
  SELECT c.id, c.title, c.model, c.scope, c.created_at, c.updated_at,
         (SELECT count(*) FROM messages m WHERE m.chat_id = c.id) AS message_count,
         (SELECT substr(m.content, 1, 160) FROM messages m WHERE m.chat_id = c.id ORDER BY m.id DESC LIMIT 1) AS preview,
         (SELECT json_group_array(json_array(r.id, r.title)) FROM (SELECT r.id, r.title FROM chat_recordings cr JOIN recordings r ON r.id = cr.recording_id
            WHERE cr.chat_id = c.id ORDER BY cr.position) r) AS recordings
  FROM chats c`;

function parseJson<T>(text: string | null, fallback: T): T {
  if (!text) return fallback;
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
}

function toSummary(r: ChatRow): ChatSummary {
  return {
    id: r.id,
    title: r.title,
    model: r.model,
    scope: r.scope === 'library' ? 'library' : 'recordings',
    recordings: parseJson<[string, string][]>(r.recordings, []).map(([id, title]) => ({ id, title })),
    messageCount: r.message_count,
    createdAt: r.created_at,
    updatedAt: r.updated_at ?? r.created_at,
    // The list shows plain text: Markdown marks of an answer would read as noise there.
    preview: (r.preview ?? '')
      .replace(/[*_#>`]+/g, '')
      .replace(/\s+/g, ' ')
      .trim(),
  };
}

function toMessage(r: MessageRow): ChatMessage {
  return {
    id: r.id,
    role: r.role === 'user' ? 'user' : 'assistant',
    content: r.content,
    createdAt: r.created_at,
    // A stream the app did not live to finish is what the user saw: stopped.
    status: r.status === 'streaming' ? 'stopped' : (r.status as ChatMessage['status']),
    error: r.error,
    model: r.model,
    citations: parseJson<Citation[]>(r.citations, []),
    sources: parseJson<ChatSource[]>(r.sources, []),
  };
}

export class ChatStore {
  constructor(
    private readonly db: Database,
    // The library's context (dataDir, audioDir, changed): chats need none of it yet.
    _ctx?: unknown,
  ) {}

  create(input: { scope: 'recordings' | 'library'; recordingIds: string[]; title: string; model: string | null }): ChatSummary {
    const id = randomUUID();
    const now = new Date().toISOString();
    this.db
      .transaction(() => {
        if (input.scope === 'recordings') {
          const known = this.db.prepare(`SELECT id FROM recordings WHERE id = ?`);
          const missing = input.recordingIds.filter((r) => !known.get(r));
          if (missing.length)
            throw new AppError(
              'not_found',
              `${missing.length === 1 ? 'A recording' : `${missing.length} recordings`} of this chat no longer exist in the library.`,
            );
        }
        this.db
          .prepare(`INSERT INTO chats (id, recording_id, title, model, created_at, updated_at, scope) VALUES (?, NULL, ?, ?, ?, ?, ?)`)
          .run(id, input.title, input.model, now, now, input.scope);
        const ins = this.db.prepare(`INSERT OR IGNORE INTO chat_recordings (chat_id, recording_id, position) VALUES (?, ?, ?)`);
        input.recordingIds.forEach((r, i) => ins.run(id, r, i));
      })
      .immediate();
    return this.summary(id);
  }

  summary(id: string): ChatSummary {
    const row = this.db.prepare(`${CHAT_SELECT} WHERE c.id = ?`).get(id) as ChatRow | undefined;
    if (!row) throw new AppError('not_found', 'This chat no longer exists. It may have been deleted.');
    return toSummary(row);
  }

  detail(id: string): ChatDetail {
    return { ...this.summary(id), messages: this.messages(id) };
  }

  messages(chatId: string): ChatMessage[] {
    return (
      this.db
        .prepare(`SELECT id, role, content, created_at, status, error, model, citations, sources FROM messages WHERE chat_id = ? ORDER BY id`)
        .all(chatId) as MessageRow[]
    ).map(toMessage);
  }

  /** Newest first; `query` matches titles and message text with the library's search syntax. */
  list(opts: { query?: string; limit?: number } = {}): ChatSummary[] {
    const limit = opts.limit ?? 200;
    const q = opts.query?.trim();
    if (!q) return (this.db.prepare(`${CHAT_SELECT} ORDER BY coalesce(c.updated_at, c.created_at) DESC LIMIT ?`).all(limit) as ChatRow[]).map(toSummary);
    const match = ftsQuery(q);
    const like = `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    const rows = this.db
      .prepare(
        `${CHAT_SELECT} WHERE c.title LIKE @like ESCAPE '\\'
           ${match === null ? '' : 'OR c.id IN (SELECT m.chat_id FROM messages_fts f JOIN messages m ON m.id = f.rowid WHERE messages_fts MATCH @match)'}
         ORDER BY coalesce(c.updated_at, c.created_at) DESC LIMIT @limit`,
      )
      .all({ like, match, limit }) as ChatRow[];
    return rows.map(toSummary);
  }

  rename(id: string, title: string): ChatSummary {
    const r = this.db.prepare(`UPDATE chats SET title = ?, updated_at = ? WHERE id = ?`).run(title, new Date().toISOString(), id);
    if (r.changes === 0) throw new AppError('not_found', 'This chat no longer exists. It may have been deleted.');
    return this.summary(id);
  }

  setModel(id: string, model: string): ChatSummary {
    const r = this.db.prepare(`UPDATE chats SET model = ? WHERE id = ?`).run(model, id);
    if (r.changes === 0) throw new AppError('not_found', 'This chat no longer exists. It may have been deleted.');
    return this.summary(id);
  }

  delete(id: string): void {
    const r = this.db.prepare(`DELETE FROM chats WHERE id = ?`).run(id);
    if (r.changes === 0) throw new AppError('not_found', 'This chat no longer exists. It may have been deleted.');
  }

  addMessage(chatId: string, m: NewMessage): ChatMessage {
    const now = new Date().toISOString();
    const info = this.db
      .prepare(`INSERT INTO messages (chat_id, role, content, created_at, status, error, model, citations, sources) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`)
      .run(
        chatId,
        m.role,
        m.content,
        now,
        m.status ?? 'done',
        m.error ?? null,
        m.model ?? null,
        JSON.stringify(m.citations ?? []),
        JSON.stringify(m.sources ?? []),
      );
    this.db.prepare(`UPDATE chats SET updated_at = ? WHERE id = ?`).run(now, chatId);
    return this.message(Number(info.lastInsertRowid));
  }

  updateMessage(id: number, m: Partial<Omit<NewMessage, 'role'>>): ChatMessage {
    const cols: Record<string, unknown> = {
      content: m.content,
      status: m.status,
      error: m.error,
      model: m.model,
      citations: m.citations === undefined ? undefined : JSON.stringify(m.citations),
      sources: m.sources === undefined ? undefined : JSON.stringify(m.sources),
    };
    const sets = Object.keys(cols)
      .filter((k) => cols[k] !== undefined)
      .map((k) => `${k} = @${k}`);
    const vals = { id, ...Object.fromEntries(Object.entries(cols).filter(([, v]) => v !== undefined)) };
    if (sets.length) this.db.prepare(`UPDATE messages SET ${sets.join(', ')} WHERE id = @id`).run(vals);
    return this.message(id);
  }

  message(id: number): ChatMessage {
    const row = this.db.prepare(`SELECT id, role, content, created_at, status, error, model, citations, sources FROM messages WHERE id = ?`).get(id) as
      MessageRow | undefined;
    if (!row) throw new AppError('not_found', 'This message no longer exists.');
    return toMessage(row);
  }
}
