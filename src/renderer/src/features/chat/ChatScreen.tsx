/** Chat over recordings: the saved chats beside the open one. */
import { useEffect } from 'react';
import { Button } from '../../components/Button';
import { EmptyScreen } from '../../components/EmptyScreen';
import { useChat } from '../../stores/chat';
import { askAbout } from './ask';
import { ChatList } from './ChatList';
import { Conversation } from './Conversation';

export function ChatScreen() {
  const current = useChat((s) => s.current);
  const loading = useChat((s) => s.loading);
  const error = useChat((s) => s.error);
  const loadModels = useChat((s) => s.loadModels);
  const loadList = useChat((s) => s.loadList);

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
        {current ? (
          <Conversation key={current.id} chat={current} />
        ) : loading ? (
          <div className="chat" aria-busy="true" aria-label="Opening the chat" />
        ) : (
          <EmptyScreen
            icon="chat"
            title="Chat with your recordings"
            actions={
              <Button variant="primary" icon="chat" onClick={() => void askAbout(null)}>
                Ask the whole library
              </Button>
            }
          >
            <p>Ask questions about one recording, a selection, or everything in the library. Every answer cites the moments it comes from.</p>
            <p className="muted">To ask about one recording, open it and choose Ask; for several, select them in the library and choose Ask.</p>
          </EmptyScreen>
        )}
      </div>
    </div>
  );
}
