/** Handlers for speakers and remembered voices: thin, over VoicesService and the library's VoiceStore. */
import type { Library } from '../services/library/library';
import type { VoicesService } from '../services/voices/service';
import type { Router } from './router';

export function registerPeopleHandlers(router: Router, library: Library, voices: VoicesService): void {
  router.handle('people.recluster', ({ id, speakers }) => voices.recluster(id, speakers));
  router.handle('people.speakerNote', ({ id }) => library.voices.note(library.voices.currentTranscript(id)));
}
