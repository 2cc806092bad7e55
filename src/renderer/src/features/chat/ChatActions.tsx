/**
 * One-click actions over the chat's recordings (Summary, Action items,
 * Follow-up email), and the line under an answer naming the model that
 * wrote it.
 */
import { CHAT_ACTIONS } from '../../../../shared/chat/actions';
import type { ChatDetail } from '../../../../shared/chat/schema';
import { Button } from '../../components/Button';
import { chatModelName } from '../../lib/modelName';
import { useChat } from '../../stores/chat';

export function ChatActions({ chat, busy }: { chat: ChatDetail; busy: boolean }) {
  const askIt = useChat((s) => s.ask);
  if (chat.scope !== 'recordings' || chat.recordings.length === 0) return null;
  return (
    <div className="chat__actions" role="group" aria-label="Actions on the recording">
      {CHAT_ACTIONS.map((a) => (
        <Button key={a.id} size="sm" disabled={busy} onClick={() => void askIt(a.question)} data-testid={`chat-action-${a.id}`}>
          {a.label}
        </Button>
      ))}
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
