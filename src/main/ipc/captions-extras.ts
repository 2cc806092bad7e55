/** Handlers of what runs beside live captions (translation, "What did I miss?"): thin; the work is in services/captions/extras. */
import type { CaptionExtras } from '../services/captions/extras';
import type { Router } from './router';

export function registerCaptionExtrasHandlers(router: Router, extras: CaptionExtras): void {
  router.handle('captions.translate', ({ language }) => extras.translate(language));
  router.handle('captions.missed', (input) => extras.missed(input));
  router.handle('captions.missedStop', () => extras.stopMissed());
  router.handle('captions.keepRecording', ({ run }) => extras.keepRecording(run));
  router.handle('captions.summaries', ({ id }) => ({ summaries: extras.summaries(id) }));
  router.handle('captions.translations', ({ id }) => ({ translations: extras.savedTranslations(id) }));
}
