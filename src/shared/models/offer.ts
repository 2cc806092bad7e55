/** What the Models screen learns of this computer: the model offered on a first run (by memory, cores, free disk and language) and the speed each model was measured at here. */
import { z } from 'zod';
import { modelIdSchema } from './catalog';
import { lazySchemas } from '../lazy-schemas';

// Made on first use (lazy-schemas.ts): each schema below is a z.lazy of the one build() makes, by the same name.
const schemas = lazySchemas(build);

/** The facts a recommendation is judged by. */
export const machineProfileSchema = z.lazy(() => schemas().machineProfileSchema);
export type MachineProfile = z.infer<typeof machineProfileSchema>;

export const modelOfferSchema = z.lazy(() => schemas().modelOfferSchema);
export type ModelOffer = z.infer<typeof modelOfferSchema>;

/** A model's speed measured on this computer with the clip that ships with the app. */
export const speedTestSchema = z.lazy(() => schemas().speedTestSchema);
export type SpeedTest = z.infer<typeof speedTestSchema>;

function build() {
  const machineProfileSchema = z.object({
    memoryBytes: z.number().int().nonnegative(),
    cores: z.number().int().positive(),
    /** Free space on the models folder's disk, or null when it cannot be read. */
    freeDiskBytes: z.number().int().nonnegative().nullable(),
    /** The language the model is chosen for (ISO 639-1), from the language setting or the system's locale. */
    language: z.string().min(2).max(8),
  });

  const modelOfferSchema = z.object({
    /** The catalog model that suits this computer, or null when none does (then `reason` says why). */
    id: modelIdSchema.nullable(),
    /** One sentence a user reads: why this model, or why none. */
    reason: z.string(),
    profile: machineProfileSchema,
    /** A speech model (files or live captions) is installed already: nothing needs offering. */
    hasSpeechModel: z.boolean(),
    /** The user said "Not now" (remembered across starts). */
    dismissed: z.boolean(),
    /** The user took the offer: its download runs, and the model becomes the one for files once installed. */
    accepted: modelIdSchema.nullable(),
  });

  const speedTestSchema = z.object({
    id: modelIdSchema,
    /** The clip's length in seconds. */
    audioSeconds: z.number().positive(),
    /** How long transcribing it took, the model already loaded. */
    seconds: z.number().nonnegative(),
    /** seconds / audioSeconds: below 1 is faster than real time. */
    rtf: z.number().nonnegative(),
    /** What the model heard, to show that it works. */
    text: z.string(),
    measuredAt: z.string(),
  });
  return { machineProfileSchema, modelOfferSchema, speedTestSchema };
}
