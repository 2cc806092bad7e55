/** Whether a transcript's word times came from its model or were spread over each segment (models without word timings). */
// From the catalog's data alone: shared/models' index also re-exports its schemas, which would bring zod into the first chunk.
import { catalogEntry } from '../../../shared/models/lookup';

export interface ApproximateTimes {
  /** The model's name as the catalog gives it. */
  model: string;
  /** What the model gives: times per segment, or none. */
  timings: 'segments' | 'none';
  /** The sentence shown by the transcript and in its details. */
  note: string;
}

/** For the model a transcript says it used (speech_model_used): null when its word times are the model's own, or the model is not a catalog one. */
export function approximateTimes(model: string | null | undefined): ApproximateTimes | null {
  const entry = model ? catalogEntry(model) : undefined;
  if (!entry || entry.wordTimings === 'words') return null;
  return {
    model: entry.name,
    timings: entry.wordTimings,
    note: `Word times are approximate: ${entry.name} gives no word timings, so each word’s time is estimated from its length within its stretch of speech. The subtitle editor does not snap to them.`,
  };
}
