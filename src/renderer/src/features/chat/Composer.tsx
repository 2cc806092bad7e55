/**
 * The message box, ready to type (it takes focus when a chat or the Chat
 * screen opens), with what it asks about beside it; Enter asks, and Ask
 * becomes Stop while an answer is written or a rate limit is waited out.
 */
import { useEffect, useRef, type FormEvent, type KeyboardEvent } from 'react';
import type { ChatDetail } from '../../../../shared/chat/schema';
import { Button } from '../../components/Button';
import { useChat } from '../../stores/chat';
import { ScopePicker } from './ScopePicker';

export function Composer({ chat, busy }: { chat: ChatDetail | null; busy: boolean }) {
  const text = useChat((s) => s.draft);
  const setDraft = useChat((s) => s.setDraft);
  const askIt = useChat((s) => s.ask);
  const stop = useChat((s) => s.stop);
  const focusKey = useChat((s) => s.focusKey);
  const box = useRef<HTMLTextAreaElement>(null);

  useEffect(() => {
    box.current?.focus();
  }, [focusKey]);

  const ask = (q: string) => {
    if (!q.trim() || busy) return;
    void askIt(q);
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    ask(text);
  };
  const onKey = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      ask(text);
    }
  };

  return (
    <form className="composer" onSubmit={submit}>
      <ScopePicker chat={chat} />
      <div className="composer__row">
        <label htmlFor="chat-input" className="visually-hidden">
          Ask a question
        </label>
        <textarea
          id="chat-input"
          ref={box}
          rows={2}
          maxLength={4000}
          placeholder="Ask a question (Enter sends, Shift+Enter for a new line)"
          value={text}
          onChange={(e) => setDraft(e.target.value)}
          onKeyDown={onKey}
        />
        {busy ? (
          <Button variant="danger" icon="pause" onClick={() => void stop()}>
            Stop
          </Button>
        ) : (
          <Button type="submit" variant="primary" icon="chat" disabled={!text.trim()}>
            Ask
          </Button>
        )}
      </div>
    </form>
  );
}

/** Questions to start from, asked with one click (in an empty chat or with no chat open). */
const SUGGESTED = ['What was decided?', 'What are the action items?', 'What were the main topics?'];

export function Suggestions() {
  const askIt = useChat((s) => s.ask);
  return (
    <div className="chat__suggest">
      <h2 id="chat-suggest-title" className="chat__suggest-title">
        Suggested questions
      </h2>
      <ul aria-labelledby="chat-suggest-title">
        {SUGGESTED.map((q) => (
          <li key={q}>
            <Button size="sm" onClick={() => void askIt(q)}>
              {q}
            </Button>
          </li>
        ))}
      </ul>
    </div>
  );
}
