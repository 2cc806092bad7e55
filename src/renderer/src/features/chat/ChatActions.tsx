/**
 * One-click actions over the chat's recordings (Summary, Action items,
 * Follow-up email), and the line under an answer naming the model that
 * wrote it.
 */
import { useEffect, useState } from 'react';
import { CHAT_ACTIONS, templateQuestion } from '../../../../shared/chat/actions';
import type { ChatDetail } from '../../../../shared/chat/schema';
import { Button } from '../../components/Button';
import { chatModelName } from '../../lib/modelName';
import { useChat } from '../../stores/chat';
import { useTemplates } from '../../stores/templates';

export function ChatActions({ chat, busy }: { chat: ChatDetail; busy: boolean }) {
  const askIt = useChat((s) => s.ask);
  const templates = useTemplates((s) => s.templates);
  const loadTemplates = useTemplates((s) => s.load);
  const [template, setTemplate] = useState('');
  useEffect(() => {
    void loadTemplates();
  }, [loadTemplates]);
  if (chat.scope !== 'recordings' || chat.recordings.length === 0) return null;
  const chosen = templates.find((t) => t.id === template) ?? templates[0];
  return (
    <div className="chat__actions" role="group" aria-label="Actions on the recording">
      {CHAT_ACTIONS.map((a) => (
        <Button key={a.id} size="sm" disabled={busy} onClick={() => void askIt(a.question)} data-testid={`chat-action-${a.id}`}>
          {a.label}
        </Button>
      ))}
      {templates.length > 0 && (
        <>
          <select aria-label="Summary template" value={chosen?.id ?? ''} onChange={(e) => setTemplate(e.target.value)} data-testid="chat-template">
            {templates.map((t) => (
              <option key={t.id} value={t.id}>
                {t.name}
              </option>
            ))}
          </select>
          <Button size="sm" disabled={busy || !chosen} onClick={() => chosen && void askIt(templateQuestion(chosen.name))} data-testid="chat-action-template">
            Summary with template
          </Button>
        </>
      )}
    </div>
  );
}

export function AnsweredBy({ model }: { model: string | null }) {
  const listed = useChat((s) => s.models);
  if (!model) return null;
  const name = chatModelName(model, listed);
  return (
    <p className="message__model" data-testid="answered-by">
      Answered by {name}
    </p>
  );
}
