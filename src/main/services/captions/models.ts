/**
 * The gateway models live captions use beside the captions themselves: the
 * chat's default for the current region (the installed local model first,
 * the cloud's with a key), for translation only one that writes, for
 * summaries the offline extractive model too.
 */
import type { ChatModel } from '../../../shared/chat/schema';
import type { GatewayClient } from '../client/gateway';
import type { CaptionModels } from './extras';

export interface ModelSource {
  models(): Promise<{ region: string; models: ChatModel[]; defaultModel: string | null }>;
  gateway(): Promise<GatewayClient>;
}

const NEEDS_MODEL =
  'Translating captions needs a language model: download a chat model in Settings → Models (Qwen2.5 1.5B Instruct is a good start), or add a cloud key in Settings.';

export function captionModels(src: ModelSource): CaptionModels {
  return {
    async translator() {
      const { region, models, defaultModel } = await src.models();
      const m = models.find((x) => x.id === defaultModel);
      if (!m?.generative) return { unavailable: NEEDS_MODEL };
      const gateway = await src.gateway();
      return {
        model: m.id,
        region,
        complete: async (system, user, signal) =>
          (
            await gateway.chat(
              {
                model: m.id,
                messages: [
                  { role: 'system', content: system },
                  { role: 'user', content: user },
                ],
                max_tokens: 300,
                temperature: 0,
              },
              signal,
            )
          ).choices[0]?.message?.content ?? '',
      };
    },
    async summariser() {
      const { models, defaultModel } = await src.models();
      const m = models.find((x) => x.id === defaultModel);
      if (!m) return { unavailable: 'The service offers no model to summarise with. Check the connection in Settings, or use the local engine.' };
      const gateway = await src.gateway();
      return {
        model: m.id,
        generative: m.generative,
        contextLength: m.contextLength,
        stream: (messages, onDelta, signal) => gateway.chatStream({ model: m.id, messages, max_tokens: 600 }, onDelta, signal),
      };
    },
  };
}
