/** Handlers for speakers and remembered voices: thin, over VoicesService, PeopleService and the library's VoiceStore. */
import type { Library } from '../services/library/library';
import type { PeopleService } from '../services/voices/people';
import type { VoicesService } from '../services/voices/service';
import type { Router } from './router';

export function registerPeopleHandlers(router: Router, library: Library, voices: VoicesService, people: PeopleService): void {
  router.handle('people.recluster', ({ id, speakers }) => voices.recluster(id, speakers));
  router.handle('people.speakerNote', ({ id }) => library.voices.note(library.voices.currentTranscript(id)));
  router.handle('people.list', () => ({ voices: people.list() }));
  router.handle('people.nameSpeaker', ({ id, speaker, name, remember }) => people.nameSpeaker(id, speaker, name, remember));
  router.handle('people.match', async ({ id }) => ({ matches: await people.match(id) }));
  router.handle('people.matches', ({ id }) => ({ matches: people.matches(id) }));
  router.handle('people.rename', ({ voiceId, name }) => (people.rename(voiceId, name), { ok: true as const }));
  router.handle('people.merge', ({ into, from }) => (people.merge(into, from), { ok: true as const }));
  router.handle('people.split', ({ voiceId, recordingId, name }) => ({ voiceId: people.split(voiceId, recordingId, name).id }));
  router.handle('people.search', ({ voiceId, query }) => ({ hits: people.search(query, voiceId) }));
  router.handle('people.forget', ({ voiceId, unname }) => (people.forget(voiceId, unname), { ok: true as const }));
}
