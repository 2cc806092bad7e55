/** Handlers of chat over recordings and of speech-understanding actions: validate (the router), call the service. */
import type { ChatService } from '../services/chat/service';
import type { InsightService } from '../services/chat/insights';
import type { Router } from './router';

export function registerChatHandlers(router: Router, chat: ChatService, insights: InsightService): void {
  router.handle('chat.models', async (input) => chat.models(input?.fresh ?? false));
  router.handle('chat.list', (input) => ({ chats: chat.list(input?.query) }));
  router.handle('chat.get', ({ id }) => chat.get(id));
  router.handle('chat.create', ({ scope, recordingIds, model, title }) => chat.create({ scope, recordingIds, model, title }));
  router.handle('chat.rename', ({ id, title }) => chat.rename(id, title));
  router.handle('chat.setModel', ({ id, model }) => chat.setModel(id, model));
  router.handle('chat.delete', ({ id }) => {
    chat.delete(id);
    return { ok: true as const };
  });
  router.handle('chat.send', ({ id, text }) => chat.send(id, text));
  router.handle('chat.stop', ({ id }) => ({ stopped: chat.stop(id) }));
  router.handle('chat.export', ({ id }) => chat.exportMarkdown(id));
  router.handle('insights.list', ({ id }) => ({ insights: insights.list(id) }));
  router.handle('insights.run', ({ id, kind, model, language, formatting, templateId }) =>
    insights.run({ recordingId: id, kind, model, language, formatting, templateId }),
  );
  router.handle('insights.stop', ({ id }) => ({ stopped: insights.stop(id) }));
}
