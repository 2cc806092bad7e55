/** Handlers of the vocabulary channels: add a term, and Fix everywhere (find, apply, undo). */
import type { VocabularyService } from '../services/vocabulary/service';
import type { Router } from './router';

export function registerVocabularyHandlers(router: Router, vocabulary: VocabularyService): void {
  router.handle('vocabulary.add', ({ term }) => ({ vocabulary: vocabulary.add(term) }));
  router.handle('vocabulary.fixFind', ({ from, limit }) => vocabulary.find(from, limit));
  router.handle('vocabulary.fixApply', ({ from, to, recordingIds }) => vocabulary.apply(from, to, recordingIds));
  router.handle('vocabulary.fixUndo', ({ batchId }) => vocabulary.undo(batchId));
}
