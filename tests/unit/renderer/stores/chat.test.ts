// The chat store against a fake VerbatimApi: asking starts a chat about the target, answers stream in by chat.delta, and connectChat's listeners.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createStore } from 'zustand/vanilla';
import { chatState, connectChat, type ChatStoreState } from '../../../../src/renderer/src/stores/chat';
import { useToasts } from '../../../../src/renderer/src/stores/toasts';
import type { ChatDetail, ChatMessage } from '../../../../src/shared/chat/schema';
import { FakeApi } from '../support/fake-api';

const at = '2026-01-01T00:00:00.000Z';
const message = (id: number, role: 'user' | 'assistant', content: string, status: ChatMessage['status'] = 'done'): ChatMessage => ({
  id,
  role,
  content,
  createdAt: at,
  status,
  error: null,
  model: 'verbatim-extractive',
  citations: [],
  sources: [],
});

function setup() {
  const chats = new Map<string, ChatDetail>();
  let n = 0;
  const api = new FakeApi()
    .handle('chat.create', (input) => {
      const chat: ChatDetail = {
        id: `chat-${++n}`,
        title: 'New chat',
        model: input.model ?? null,
        scope: input.scope,
        recordings: (input.recordingIds ?? []).map((id) => ({ id, title: `Title of ${id}` })),
        messageCount: 0,
        createdAt: at,
        updatedAt: at,
        preview: '',
        messages: [],
      };
      chats.set(chat.id, chat);
      return chat;
    })
    .handle('chat.send', ({ text }) => ({ question: message(1, 'user', text), answer: message(2, 'assistant', '', 'streaming') }))
    .handle('chat.get', ({ id }) => {
      const chat = chats.get(id);
      if (!chat) throw new Error('This chat was deleted.');
      return chat;
    })
    .handle('chat.list', () => ({ chats: [...chats.values()] }));
  const store = createStore<ChatStoreState>()(chatState(api));
  return { api, store };
}

afterEach(() => useToasts.setState({ toasts: [] }));

describe('chat store', () => {
  it('asks about the chosen recordings: creates the chat, sends the question, clears the draft', async () => {
    const { api, store } = setup();
    store.getState().startNew({ scope: 'recordings', recordings: [{ id: 'rec-1', title: 'Standup' }] });
    store.getState().setDraft('What was decided?');
    expect(await store.getState().ask('  What was decided?  ')).toBe(true);
    expect(api.callsTo('chat.create')).toEqual([{ scope: 'recordings', recordingIds: ['rec-1'] }]);
    expect(api.callsTo('chat.send')).toEqual([{ id: 'chat-1', text: 'What was decided?' }]);
    expect(store.getState().current?.messages.map((m) => m.role)).toEqual(['user', 'assistant']);
    expect(store.getState().draft).toBe('');
    expect(store.getState().recent).toEqual([{ id: 'rec-1', title: 'Title of rec-1' }]);
  });

  it('writes the answer as its pieces arrive, then takes the finished message', async () => {
    const { api, store } = setup();
    const disconnect = connectChat(api, store);
    await store.getState().ask('Summarise it');
    api.emit('chat.delta', { chatId: 'chat-1', messageId: 2, text: 'The team ' });
    api.emit('chat.delta', { chatId: 'chat-1', messageId: 2, text: 'ships Friday.' });
    api.emit('chat.delta', { chatId: 'other', messageId: 9, text: 'not this chat' });
    expect(store.getState().current?.messages.at(-1)).toMatchObject({ content: 'The team ships Friday.', status: 'streaming' });
    api.emit('chat.message', { chatId: 'chat-1', message: message(2, 'assistant', 'The team ships on Friday.') });
    expect(store.getState().current?.messages.at(-1)).toMatchObject({ content: 'The team ships on Friday.', status: 'done' });
    api.emit('chat.state', { chatId: 'chat-1', state: 'idle', retryAt: null, message: null });
    expect(store.getState().states['chat-1']?.state).toBe('idle');
    disconnect();
    expect(api.listenerCount()).toBe(0);
  });

  it('reloads the list when chats change elsewhere', async () => {
    const { api, store } = setup();
    const disconnect = connectChat(api, store);
    await store.getState().create({ scope: 'library' });
    store.setState({ chats: [] });
    api.emit('chat.changed', { id: 'chat-1', reason: 'created' });
    await vi.waitFor(() => expect(store.getState().chats.map((c) => c.id)).toEqual(['chat-1']));
    disconnect();
  });

  it('says why an empty question is not sent and a missing chat does not open', async () => {
    const { api, store } = setup();
    expect(await store.getState().ask('   ')).toBe(false);
    expect(api.calls).toEqual([]);
    await store.getState().open('gone');
    expect(store.getState().error).toBe('This chat was deleted.');
    expect(store.getState().loading).toBe(false);
  });
});
