/**
 * The local engine's voiceprints route (POST /v2/voiceprints, the engine's own, not AssemblyAI's): the
 * voiceprint of each stretch of an uploaded file, taken with the installed speaker-embedding model. The app
 * keeps them to re-cluster a recording's speakers and to remember voices; they never leave the machine.
 */
import { z } from 'zod';
import { voiceNameSchema } from './name-schema';
import { voiceNameKey } from './names';
import { lazySchemas } from '../lazy-schemas';

// Made on first use (lazy-schemas.ts): each schema below is a z.lazy of the one build() makes, by the same name.
const schemas = lazySchemas(build);

export const MAX_VOICEPRINT_SEGMENTS = 5000;

export const VoiceprintsRequestSchema = z.lazy(() => schemas().VoiceprintsRequestSchema);
export type VoiceprintsRequest = z.infer<typeof VoiceprintsRequestSchema>;

export const VoiceprintsResponseSchema = z.lazy(() => schemas().VoiceprintsResponseSchema);
export type VoiceprintsResponse = z.infer<typeof VoiceprintsResponseSchema>;

/** At most this many remembered voices go to the local engine for live captions. */
export const MAX_KNOWN_VOICES = 500;
/** The longest voiceprint the engine takes (speaker-embedding models give 128–512 values). */
export const MAX_VOICEPRINT_DIM = 1024;

/**
 * PUT /v2/voiceprints/known (the local engine's own route, never sent to a cloud service): the remembered
 * voices a live session with speaker labels names instead of a letter, each the centroid of its prints, and
 * the user's match threshold. It replaces what the engine held; the engine keeps it in memory only.
 */
export const KnownVoicesRequestSchema = z.lazy(() => schemas().KnownVoicesRequestSchema);
export type KnownVoicesRequest = z.infer<typeof KnownVoicesRequestSchema>;

/** What the engine holds (names and models only: a voiceprint is never answered back). */
export const KnownVoicesResponseSchema = z.lazy(() => schemas().KnownVoicesResponseSchema);
export type KnownVoicesResponse = z.infer<typeof KnownVoicesResponseSchema>;

function build() {
  const VoiceprintsRequestSchema = z.strictObject({
    /** An upload_url this engine answered (its /v2/files/<id>). */
    upload_url: z.string().max(2000),
    /** Stretches of the file (ms), each of one voice. */
    segments: z
      .array(z.strictObject({ start: z.number().int().min(0), end: z.number().int().min(0) }).refine((s) => s.end > s.start, 'a segment ends after it starts'))
      .min(1)
      .max(MAX_VOICEPRINT_SEGMENTS),
  });

  const VoiceprintsResponseSchema = z.object({
    /** The catalog id of the embedding model that took them (voiceprints of different models never compare). */
    model: z.string(),
    /** One per segment, in order; null for a segment with no audio in the file. */
    embeddings: z.array(z.array(z.number()).nullable()),
  });

  const KnownVoicesRequestSchema = z
    .strictObject({
      /** The least cosine similarity at which a live speaker takes a voice's name. */
      threshold: z.number().min(0).max(1),
      voices: z
        .array(
          z.strictObject({
            /** The app's own rule for a voice's name (names.ts). */
            name: voiceNameSchema,
            /** The catalog id of the embedding model that took the print: a live session compares only its own model's prints. */
            model: z.string().min(1).max(200),
            vector: z.array(z.number()).min(1).max(MAX_VOICEPRINT_DIM),
          }),
        )
        .max(MAX_KNOWN_VOICES),
    })
    .superRefine((body, ctx) => {
      const dims = new Map<string, number>();
      const names = new Set<string>();
      body.voices.forEach((v, i) => {
        const dim = dims.get(v.model) ?? v.vector.length;
        dims.set(v.model, dim);
        if (v.vector.length !== dim)
          ctx.addIssue({
            code: 'custom',
            path: ['voices', i, 'vector'],
            message: `has ${v.vector.length} values where the other ${v.model} prints have ${dim}`,
          });
        else if (v.vector.every((x) => x === 0)) ctx.addIssue({ code: 'custom', path: ['voices', i, 'vector'], message: 'is all zeros' });
        // Unicode case folding, as People compares names: "Ökan" and "ökan" are one voice.
        const key = voiceNameKey(v.name);
        if (names.has(key))
          ctx.addIssue({ code: 'custom', path: ['voices', i, 'name'], message: `${v.name} is given twice (names differing only in case are one voice)` });
        names.add(key);
      });
    });

  const KnownVoicesResponseSchema = z.object({
    threshold: z.number(),
    voices: z.array(z.object({ name: z.string(), model: z.string() })),
  });
  return { VoiceprintsRequestSchema, VoiceprintsResponseSchema, KnownVoicesRequestSchema, KnownVoicesResponseSchema };
}
