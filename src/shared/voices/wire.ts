/**
 * The local engine's voiceprints route (POST /v2/voiceprints, the engine's own, not AssemblyAI's): the
 * voiceprint of each stretch of an uploaded file, taken with the installed speaker-embedding model. The app
 * keeps them to re-cluster a recording's speakers and to remember voices; they never leave the machine.
 */
import { z } from 'zod';

export const MAX_VOICEPRINT_SEGMENTS = 5000;

export const VoiceprintsRequestSchema = z.strictObject({
  /** An upload_url this engine answered (its /v2/files/<id>). */
  upload_url: z.string().max(2000),
  /** Stretches of the file (ms), each of one voice. */
  segments: z
    .array(z.strictObject({ start: z.number().int().min(0), end: z.number().int().min(0) }).refine((s) => s.end > s.start, 'a segment ends after it starts'))
    .min(1)
    .max(MAX_VOICEPRINT_SEGMENTS),
});
export type VoiceprintsRequest = z.infer<typeof VoiceprintsRequestSchema>;

export const VoiceprintsResponseSchema = z.object({
  /** The catalog id of the embedding model that took them (voiceprints of different models never compare). */
  model: z.string(),
  /** One per segment, in order; null for a segment with no audio in the file. */
  embeddings: z.array(z.array(z.number()).nullable()),
});
export type VoiceprintsResponse = z.infer<typeof VoiceprintsResponseSchema>;
