/** Live captions' handlers: thin; the run lives in services/captions. */
import type { CaptionsService } from '../services/captions/service';
import type { Library } from '../services/library/library';
import type { Router } from './router';

export function registerCaptionsHandlers(router: Router, captions: CaptionsService, library: Library): void {
  router.handle('captions.start', (input) => captions.start(input));
  router.handle('captions.stop', ({ run }) => captions.stop(run));
  router.handle('captions.current', () => captions.current());
  router.handle('captions.improve', ({ id }) => captions.improve(id));
  router.handle('captions.versions', ({ id }) => ({ versions: library.sessions.versions(id) }));
  router.handle('captions.version', ({ id, transcriptId }) => library.transcripts.wire(id, transcriptId));
  router.handle('captions.overlay', ({ show }) => captions.toggleOverlay(show));
}
