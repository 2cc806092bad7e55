/** Handlers for review of doubtful words: thin, over the library's ReviewStore. */
import type { Library } from '../services/library/library';
import type { Router } from './router';

export function registerReviewHandlers(router: Router, library: Library): void {
  router.handle('review.accepted', ({ id, transcriptId }) => ({ indexes: library.review.accepted(id, transcriptId) }));
  router.handle('review.accept', ({ id, transcriptId, indexes, accepted }) => ({ indexes: library.review.accept(id, transcriptId, indexes, accepted) }));
}
