/** Starting a chat from elsewhere in the app: a transcript's "Ask", a library selection, the whole library. */
import { useApp } from '../../stores/app';
import { useChat } from '../../stores/chat';

export async function askAbout(recordingIds: string[] | null): Promise<boolean> {
  const chat = await useChat.getState().create(recordingIds === null ? { scope: 'library' } : { scope: 'recordings', recordingIds });
  if (!chat) return false;
  useApp.getState().setScreen('chat');
  return true;
}
