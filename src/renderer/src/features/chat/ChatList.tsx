/** The saved chats: search (the library's search syntax over titles and messages), open, rename, delete. */
import { useState } from 'react';
import { Button } from '../../components/Button';
import { Icon } from '../../components/Icon';
import { InlineEdit } from '../../components/InlineEdit';
import { useChat } from '../../stores/chat';

function when(iso: string): string {
  const d = new Date(iso);
  const today = new Date().toDateString() === d.toDateString();
  return today ? d.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' }) : d.toLocaleDateString(undefined, { month: 'short', day: 'numeric' });
}

export function ChatList() {
  const chats = useChat((s) => s.chats);
  const query = useChat((s) => s.query);
  const setQuery = useChat((s) => s.setQuery);
  const currentId = useChat((s) => s.current?.id ?? null);
  const open = useChat((s) => s.open);
  const rename = useChat((s) => s.rename);
  const startNew = useChat((s) => s.startNew);
  const loaded = useChat((s) => s.listLoaded);
  const [renaming, setRenaming] = useState<string | null>(null);

  return (
    <nav className="chatlist" aria-label="Saved chats">
      <div className="chatlist__head">
        <Button variant="primary" icon="plus" onClick={() => startNew({ scope: 'library' })}>
          New chat
        </Button>
        <div className="chatlist__search">
          <Icon name="search" size={15} />
          <input
            type="search"
            placeholder="Search chats"
            aria-label="Search chats"
            value={query}
            onChange={(e) => setQuery(e.target.value)}
            onKeyDown={(e) => e.key === 'Escape' && setQuery('')}
          />
        </div>
      </div>
      {loaded && chats.length === 0 && (
        <p className="chatlist__empty muted">
          {query.trim()
            ? 'No chat matches this search.'
            : 'No chats yet. Type a question to ask the whole library, or choose Ask on a transcript or a selection in the library.'}
        </p>
      )}
      <ul className="chatlist__items">
        {chats.map((c) => (
          <li key={c.id} className={`chatlist__item${c.id === currentId ? ' chatlist__item--current' : ''}`}>
            {renaming === c.id ? (
              <InlineEdit
                className="chatlist__rename"
                label="Chat title"
                initial={c.title}
                maxLength={300}
                onCancel={() => setRenaming(null)}
                onCommit={async (v) => {
                  if (v && v !== c.title) await rename(c.id, v);
                  setRenaming(null);
                }}
              />
            ) : (
              <button type="button" className="chatlist__open" aria-current={c.id === currentId ? 'true' : undefined} onClick={() => void open(c.id)}>
                <span className="chatlist__title">{c.title}</span>
                <span className="chatlist__meta">
                  {when(c.updatedAt)} · {c.messageCount} {c.messageCount === 1 ? 'message' : 'messages'}
                </span>
                {c.preview && <span className="chatlist__preview">{c.preview}</span>}
              </button>
            )}
            {renaming !== c.id && <Button size="sm" variant="ghost" icon="edit" aria-label={`Rename ${c.title}`} onClick={() => setRenaming(c.id)} />}
          </li>
        ))}
      </ul>
    </nav>
  );
}
