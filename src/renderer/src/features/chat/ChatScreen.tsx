/** Chat over recordings: the saved chats beside the open one, or the message box ready for a new question. */
import { useEffect } from 'react';
import { Button } from '../../components/Button';
import { Icon } from '../../components/Icon';
import { useChat } from '../../stores/chat';
import { useTemplates } from '../../stores/templates';
import { ChatList } from './ChatList';
import { Composer, Suggestions } from './Composer';
import { Conversation } from './Conversation';
import { ModelPicker } from './ModelPicker';
import { TemplatesPanel } from './TemplatesPanel';

/** No chat open: the box is focused and asks the whole library unless another scope is chosen beside it. */
function NewChat() {
  const target = useChat((s) => s.target);
  const about =
    target.scope === 'library'
      ? 'everything in the library'
      : target.recordings.length === 1
        ? `“${target.recordings[0]?.title ?? ''}”`
        : `${target.recordings.length} recordings`;
  return (
    <section className="chat" aria-labelledby="chat-title">
      <header className="chat__header">
        <div className="chat__heading">
          <h1 id="chat-title">Chat with your recordings</h1>
          <p className="chat__about muted">A new chat about {about}. Every answer cites the moments it comes from.</p>
        </div>
        <div className="chat__tools">
          <ModelPicker chat={null} />
          <Button size="sm" variant="ghost" onClick={() => useTemplates.getState().show(true)}>
            Summary templates
          </Button>
        </div>
      </header>
      <div className="chat__scroll">
        <div className="chat__intro">
          <div className="empty__icon chat__intro-icon">
            <Icon name="chat" size={28} />
          </div>
          <p>Ask about one recording, a selection, or everything in the library: choose beside the box.</p>
          <p className="muted">To ask about one recording, open it and choose Ask; for several, select them in the library and choose Ask.</p>
          <Suggestions />
        </div>
      </div>
      <Composer chat={null} busy={false} />
    </section>
  );
}

export function ChatScreen() {
  const current = useChat((s) => s.current);
  const loading = useChat((s) => s.loading);
  const error = useChat((s) => s.error);
  const loadModels = useChat((s) => s.loadModels);
  const loadList = useChat((s) => s.loadList);
  const templates = useTemplates((s) => s.showing);

  useEffect(() => {
    void loadModels();
    void loadList();
  }, [loadModels, loadList]);

  return (
    <div className="chatscreen">
      <ChatList />
      <div className="chatscreen__main">
        {error && (
          <p className="banner banner--error" role="alert">
            {error}
          </p>
        )}
        {templates ? (
          <TemplatesPanel />
        ) : current ? (
          <Conversation key={current.id} chat={current} />
        ) : loading ? (
          <div className="chat" aria-busy="true" aria-label="Opening the chat" />
        ) : (
          <NewChat />
        )}
      </div>
    </div>
  );
}
