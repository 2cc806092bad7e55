/** What a create request gets beyond the job's own options: the user's vocabulary as keyterms, and a local model a job names itself (a watch folder's). */
import type { TranscriptionOptions } from '../../../shared/jobs';
import { catalogEntry } from '../../../shared/models/lookup';
import { JOB_KEYTERMS_MAX, mergeKeyterms } from '../../../shared/vocabulary';

/** The job's keyterms, then the vocabulary's (each once), for every service: the cloud and the local engine take the same field. */
export function keytermsWithVocabulary(options: TranscriptionOptions, vocabulary: readonly string[] | undefined): string[] {
  return mergeKeyterms(options.keytermsPrompt, vocabulary ?? [], JOB_KEYTERMS_MAX);
}

/**
 * A local speech model the job asks for by name (a watch folder set to one), or null: the engine
 * then runs the Settings default. Only catalog speech models and the built-in PocketSphinx count, so
 * a cloud name (universal-2, slam-1…) never reaches the engine as a model id.
 */
export function jobLocalModel(options: TranscriptionOptions): string | null {
  const first = options.speechModels?.[0];
  if (!first) return null;
  if (first === 'pocketsphinx') return first;
  return catalogEntry(first)?.task === 'files' ? first : null;
}
