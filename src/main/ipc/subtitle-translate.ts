/** Handlers of subtitle translation (a second track with the same timings): validate (the router), call the service. */
import { sourceCues, type SubtitleTranslator } from '../services/chat/subtitle-translate';
import type { Library } from '../services/library/library';
import type { Router } from './router';

export function registerSubtitleTranslateHandlers(router: Router, library: Library, translator: SubtitleTranslator): void {
  router.handle('subtitles.translate', ({ id, language, model }) => translator.translate({ id, language, model }));
  router.handle('subtitles.translateStop', ({ id }) => ({ stopped: translator.stop(id) }));
  router.handle('subtitles.translations', async ({ id }) => {
    const of = library.translations.state(id);
    return {
      tracks: !of && library.translations.hasTracks(id) ? library.translations.tracks(id, await sourceCues(library, id)) : [],
      of: of && { sourceId: of.from, language: of.language },
      running: translator.current(id),
    };
  });
}
