/**
 * One chat: what it is about, its model (remembered with it), the rate-limit
 * state, the messages with their citations and sources, and the composer,
 * which becomes Stop while an answer is written or a rate limit is waited out.
 */
import { memo, useCallback, useEffect, useRef, useState } from 'react';
import type { ChatDetail, ChatMessage } from '../../../../shared/chat/schema';
import { Badge } from '../../components/Badge';
import { Button } from '../../components/Button';
import { Dialog } from '../../components/Dialog';
import { useApp } from '../../stores/app';
import { useChat } from '../../stores/chat';
import { AnswerMarkdown } from './AnswerMarkdown';
import { AnsweredBy, ChatActions } from './ChatActions';
import { Composer, Suggestions } from './Composer';
import { ModelPicker } from './ModelPicker';

function useNow(active: boolean): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!active) return;
    const t = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(t);
  }, [active]);
  return now;
}

function RateLimitNote() {
  const rl = useChat((s) => s.rateLimit);
  const now = useNow(rl !== null);
  if (!rl || rl.service !== 'llm-gateway') return null;
  const resetAt = Date.parse(rl.at) + rl.resetSeconds * 1000;
  const left = Math.max(0, Math.ceil((resetAt - now) / 1000));
  const remaining = left === 0 ? rl.limit : rl.remaining;
  return (
    <span
      className={`chat__limit${remaining === 0 ? ' chat__limit--out' : ''}`}
      data-testid="rate-limit"
      title={`${rl.model ?? 'This model'}: ${rl.limit} requests a minute`}
    >
      {remaining}/{rl.limit} requests left{left > 0 && remaining < rl.limit ? ` · resets in ${left} s` : ''}
    </span>
  );
}

function Sources({ m }: { m: ChatMessage }) {
  const openTranscript = useApp((s) => s.openTranscript);
  if (!m.sources.length) return null;
  return (
    <p className="message__sources">
      <span className="muted">From </span>
      {m.sources.map((s, i) => (
        <span key={s.recordingId}>
          {i > 0 && ', '}
          <button type="button" className="linkish" onClick={() => openTranscript(s.recordingId, null)}>
            {s.title}
          </button>
        </span>
      ))}
    </p>
  );
}

/** Messages painted when a chat opens; earlier ones on request (Markdown costs a few ms an answer). */
const FIRST_PAINT = 20;

const Message = memo(function Message({ m, onRetry }: { m: ChatMessage; onRetry(): void }) {
  if (m.role === 'user') {
    return (
      <li className="message message--user">
        <h2 className="visually-hidden">You asked</h2>
        <p>{m.content}</p>
      </li>
    );
  }
  return (
    <li className="message message--assistant" aria-busy={m.status === 'streaming' || undefined} data-testid="answer" data-status={m.status}>
      <h2 className="visually-hidden">Answer{m.model ? ` (${m.model})` : ''}</h2>
      {m.content ? (
        <AnswerMarkdown content={m.content} citations={m.citations} sources={m.sources} />
      ) : m.status === 'streaming' ? (
        <p className="muted">…</p>
      ) : null}
      {m.status === 'stopped' && <Badge tone="warn">Stopped</Badge>}
      {m.status === 'error' && (
        <div className="banner banner--error" role="alert">
          <p>{m.error ?? 'The answer failed.'}</p>
          <Button size="sm" icon="retry" onClick={onRetry}>
            Ask again
          </Button>
        </div>
      )}
      {m.status !== 'streaming' && <Sources m={m} />}
      {m.status !== 'streaming' && <AnsweredBy model={m.model} />}
    </li>
  );
});

function StateLine({ chatId, streaming }: { chatId: string; streaming: boolean }) {
  const st = useChat((s) => s.states[chatId]);
  const now = useNow(st?.state === 'waiting');
  let text = '';
  if (st?.state === 'waiting' && st.retryAt) {
    const left = Math.max(0, Math.ceil((Date.parse(st.retryAt) - now) / 1000));
    const at = new Date(st.retryAt).toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit', second: '2-digit' });
    text = `The model's request limit is reached. You can ask again at ${at}; Verbatim will ask by itself then (in ${left} s).`;
  } else if (st?.state === 'thinking') text = st.message ?? 'Finding the passages and asking the model…';
  else if (st?.state === 'streaming' || streaming) text = 'Writing the answer…';
  return (
    <p className={`chat__state${st?.state === 'waiting' ? ' chat__state--wait' : ''}`} role="status" data-testid="chat-state">
      {text}
    </p>
  );
}

export function Conversation({ chat }: { chat: ChatDetail }) {
  const send = useChat((s) => s.send);
  const remove = useChat((s) => s.remove);
  const exportMarkdown = useChat((s) => s.exportMarkdown);
  const state = useChat((s) => s.states[chat.id]?.state ?? 'idle');
  const openTranscript = useApp((s) => s.openTranscript);
  const [confirmDelete, setConfirmDelete] = useState(false);
  // ChatScreen keys this component by chat: another chat starts again with the latest messages.
  const [shown, setShown] = useState(FIRST_PAINT);
  const end = useRef<HTMLDivElement>(null);
  const streaming = chat.messages.some((m) => m.status === 'streaming');
  const busy = streaming || state === 'thinking' || state === 'waiting';
  const lastLen = chat.messages.at(-1)?.content.length ?? 0;

  // Block bodies: Chromium's scrollIntoView now returns a promise, which React would take for a clean-up.
  useEffect(() => {
    void end.current?.scrollIntoView({ block: 'end' });
  }, [chat.messages.length, lastLen]);

  const lastQuestion = [...chat.messages].reverse().find((m) => m.role === 'user')?.content ?? '';
  const retry = useCallback(() => {
    if (!busy && lastQuestion) void send(lastQuestion);
  }, [busy, lastQuestion, send]);
  const hidden = Math.max(0, chat.messages.length - shown);

  return (
    <section className="chat" aria-labelledby="chat-title">
      <header className="chat__header">
        <div className="chat__heading">
          <h1 id="chat-title">{chat.title}</h1>
          <p className="chat__about">
            {chat.scope === 'library' ? (
              <span className="muted">Over the whole library: each answer says which recordings it used.</span>
            ) : chat.recordings.length === 0 ? (
              <span className="muted">Its recordings were deleted from the library.</span>
            ) : (
              <>
                <span className="muted">About </span>
                {chat.recordings.map((r, i) => (
                  <span key={r.id}>
                    {i > 0 && ', '}
                    <button type="button" className="linkish" onClick={() => openTranscript(r.id, null)}>
                      {r.title}
                    </button>
                  </span>
                ))}
              </>
            )}
          </p>
        </div>
        <div className="chat__tools">
          <ModelPicker chat={chat} />
          <RateLimitNote />
          <Button size="sm" icon="download" onClick={() => void exportMarkdown(chat.id)} disabled={chat.messages.length === 0}>
            Export Markdown
          </Button>
          <Button size="sm" variant="ghost" icon="trash" aria-label="Delete this chat" onClick={() => setConfirmDelete(true)} />
        </div>
      </header>
      <div className="chat__scroll">
        {chat.messages.length === 0 ? (
          <div className="chat__intro">
            <p>Ask anything about {chat.scope === 'library' ? 'your recordings' : chat.recordings.length === 1 ? 'this recording' : 'these recordings'}.</p>
            <p className="muted">Answers cite the moments they come from, like [Standup @ 02:15]: choose one to hear it.</p>
            <Suggestions />
          </div>
        ) : (
          <>
            {hidden > 0 && (
              <p className="chat__earlier">
                <Button size="sm" icon="up" onClick={() => setShown(shown + 100)}>
                  Show {Math.min(100, hidden)} earlier {Math.min(100, hidden) === 1 ? 'message' : 'messages'}
                </Button>
              </p>
            )}
            <ol className="messages" aria-label="Messages">
              {chat.messages.slice(hidden).map((m) => (
                <Message key={m.id} m={m} onRetry={retry} />
              ))}
            </ol>
          </>
        )}
        <div ref={end} />
      </div>
      <StateLine chatId={chat.id} streaming={streaming} />
      <ChatActions chat={chat} busy={busy} />
      <Composer chat={chat} busy={busy} />
      <Dialog
        open={confirmDelete}
        title="Delete this chat?"
        onClose={() => setConfirmDelete(false)}
        footer={
          <>
            <Button data-autofocus onClick={() => setConfirmDelete(false)}>
              Keep it
            </Button>
            <Button
              variant="danger"
              icon="trash"
              onClick={() => {
                setConfirmDelete(false);
                void remove(chat.id);
              }}
            >
              Delete
            </Button>
          </>
        }
      >
        <p>
          “{chat.title}” and its {chat.messages.length} messages will be deleted. The recordings stay in the library.
        </p>
      </Dialog>
    </section>
  );
}
