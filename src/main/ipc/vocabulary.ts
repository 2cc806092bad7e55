/** Handlers of the vocabulary channels: add a term, and Fix everywhere (find, apply, undo). */
import type { VocabularyService } from '../services/vocabulary/service';
import type { Router } from './router';

export function registerVocabularyHandlers(router: Router, vocabulary: VocabularyService): void {
  router.handle('vocabulary.add', ({ term }) => ({ vocabulary: vocabulary.add(term) }));
  router.handle('vocabulary.fixFind', ({ from, limit }) => vocabulary.find(from, limit));
  // Progress of a fix or its Undo (each reports at most 10 times a second).
  const progress = (p: { done: number; total: number }) => router.emit('vocabulary.fixProgress', p);
  router.handle('vocabulary.fixApply', ({ from, to, recordingIds }) => vocabulary.apply(from, to, recordingIds, progress));
  router.handle('vocabulary.fixUndo', ({ batchId }) => vocabulary.undo(batchId, progress));
}
