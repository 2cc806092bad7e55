/** Speakers and remembered voices (People): re-clustering from kept voiceprints, naming and recognising voices, and the People view's rename, merge, split and forget. */
import { z } from 'zod';
import { searchHitSchema } from '../library';
import { voiceNameSchema } from '../voices/name-schema';
import type { Contracts } from './common';
import { lazySchemas } from '../lazy-schemas';

// Made on first use (lazy-schemas.ts): each schema below is a z.lazy of the one build() makes, by the same name.
const schemas = lazySchemas(build);

export const speakerNoteSchema = z.lazy(() => schemas().speakerNoteSchema);
export type SpeakerNote = z.infer<typeof speakerNoteSchema>;

/** One rule for a voice's name everywhere (shared/voices/names.ts). */
const voiceName = voiceNameSchema;

export const voiceSchema = z.lazy(() => schemas().voiceSchema);
export type Voice = z.infer<typeof voiceSchema>;

/** The similarity of a voice recognised during live captions: the local engine names the speaker at or above the match level and says no more. */
export const RECOGNISED_LIVE = -1;

/** `named`: the user named this speaker here (no recognition, whatever the similarity); else it was recognised at `similarity`. */
export const matchSchema = z.lazy(() => schemas().matchSchema);
export type VoiceMatch = z.infer<typeof matchSchema>;

export const peopleChannels = {
  /** Groups the recording's speakers again as `speakers` (1–10), or by similarity when null (Auto), from kept voiceprints: no new transcription. */
  'people.recluster': {
    input: z.lazy(() => z.object({ id: z.string().min(1), speakers: z.number().int().min(1).max(10).nullable() }).strict()),
    output: speakerNoteSchema,
  },
  /** How the current transcript's speakers were last re-clustered, or null when never. */
  'people.speakerNote': { input: z.lazy(() => z.object({ id: z.string().min(1) }).strict()), output: z.lazy(() => speakerNoteSchema.nullable()) },
  /** Every remembered voice with the recordings it speaks in (and how sure each recognition was). */
  'people.list': { input: z.lazy(() => z.object({}).strict()), output: z.lazy(() => z.object({ voices: z.array(voiceSchema) })) },
  /** Names a speaker of a recording; with `remember`, the voice is remembered under that name for later recordings. */
  'people.nameSpeaker': {
    input: z.lazy(() =>
      z.object({ id: z.string().min(1), speaker: z.string().min(1).max(40), name: voiceName.nullable(), remember: z.boolean().default(true) }).strict(),
    ),
    /** `note`: why the voice could not be remembered (the name is kept all the same). */
    output: z.lazy(() => z.object({ voiceId: z.string().nullable(), note: z.string().nullable() })),
  },
  /** Recognises remembered voices among the recording's speakers now (it also happens when a transcript completes). */
  'people.match': { input: z.lazy(() => z.object({ id: z.string().min(1) }).strict()), output: z.lazy(() => z.object({ matches: z.array(matchSchema) })) },
  /** The remembered voices recognised in the recording's current transcript. */
  'people.matches': { input: z.lazy(() => z.object({ id: z.string().min(1) }).strict()), output: z.lazy(() => z.object({ matches: z.array(matchSchema) })) },
  'people.rename': {
    input: z.lazy(() => z.object({ voiceId: z.string().min(1), name: voiceName }).strict()),
    output: z.lazy(() => z.object({ ok: z.literal(true) })),
  },
  /** `from` joins `into` and is gone. */
  'people.merge': {
    input: z.lazy(() => z.object({ into: z.string().min(1), from: z.string().min(1) }).strict()),
    output: z.lazy(() => z.object({ ok: z.literal(true) })),
  },
  /** What one recording gave a voice becomes a voice of its own called `name`. */
  'people.split': {
    input: z.lazy(() => z.object({ voiceId: z.string().min(1), recordingId: z.string().min(1), name: voiceName }).strict()),
    output: z.lazy(() => z.object({ voiceId: z.string() })),
  },
  /** Library search narrowed to what one remembered voice said. */
  'people.search': {
    input: z.lazy(() => z.object({ voiceId: z.string().min(1), query: z.string().trim().min(1).max(500) }).strict()),
    output: z.lazy(() => z.object({ hits: z.array(searchHitSchema) })),
  },
  /** Deletes a voice's voiceprints everywhere in the library; `unname`: the transcripts showing its name say "Speaker A" (a letter) instead. */
  'people.forget': {
    input: z.lazy(() => z.object({ voiceId: z.string().min(1), unname: z.boolean().default(false) }).strict()),
    output: z.lazy(() => z.object({ ok: z.literal(true) })),
  },
} as const satisfies Contracts;

function build() {
  const speakerNoteSchema = z.object({
    /** Speakers the transcript has now. */
    speakers: z.number().int().nonnegative(),
    /** Groups with too little speech that were folded into their nearest voice. */
    merged: z.number().int().nonnegative(),
    /** "auto", or the count that was asked for. */
    asked: z.string(),
  });

  const voiceSchema = z.object({
    id: z.string(),
    name: z.string(),
    /** Turns its voiceprint is made of, and their seconds of speech. */
    prints: z.number().int().nonnegative(),
    seconds: z.number().nonnegative(),
    recordings: z.array(z.object({ id: z.string(), title: z.string(), similarity: z.number().nullable() })),
  });

  const matchSchema = z.object({ speaker: z.string(), voiceId: z.string(), name: z.string(), similarity: z.number(), named: z.boolean() });
  return { speakerNoteSchema, voiceSchema, matchSchema };
}
