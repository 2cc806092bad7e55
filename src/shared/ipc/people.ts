/** Speakers and remembered voices: re-clustering a recording's speakers from its kept voiceprints, and how they were last grouped. */
import { z } from 'zod';
import type { Contracts } from './common';

export const speakerNoteSchema = z.object({
  /** Speakers the transcript has now. */
  speakers: z.number().int().nonnegative(),
  /** Groups with too little speech that were folded into their nearest voice. */
  merged: z.number().int().nonnegative(),
  /** "auto", or the count that was asked for. */
  asked: z.string(),
});
export type SpeakerNote = z.infer<typeof speakerNoteSchema>;

export const peopleChannels = {
  /** Groups the recording's speakers again as `speakers` (1–10), or by similarity when null (Auto), from kept voiceprints: no new transcription. */
  'people.recluster': {
    input: z.object({ id: z.string().min(1), speakers: z.number().int().min(1).max(10).nullable() }).strict(),
    output: speakerNoteSchema,
  },
  /** How the current transcript's speakers were last re-clustered, or null when never. */
  'people.speakerNote': { input: z.object({ id: z.string().min(1) }).strict(), output: speakerNoteSchema.nullable() },
} as const satisfies Contracts;
