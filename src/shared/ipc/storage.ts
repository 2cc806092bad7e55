/** The library's storage: the room it takes, and the audio retention rule of Settings applied now or undone. */
import { z } from 'zod';
import { none, type Contracts } from './common';
import { lazySchemas } from '../lazy-schemas';

// Made on first use (lazy-schemas.ts): each schema below is a z.lazy of the one build() makes, by the same name.
const schemas = lazySchemas(build);

/** What one application of the retention rule removed; `batchId` is null when there was nothing to remove. */
export const retentionRunSchema = z.lazy(() => schemas().retentionRunSchema);
export type RetentionRun = z.infer<typeof retentionRunSchema>;

export const storageUsageSchema = z.lazy(() => schemas().storageUsageSchema);
export type StorageUsage = z.infer<typeof storageUsageSchema>;

export const storageChannels = {
  /** How much room the library takes. */
  'storage.usage': { input: none, output: storageUsageSchema },
  /** Apply the retention rule of Settings now (it also runs at start and every hour). */
  'storage.applyRetention': { input: none, output: retentionRunSchema },
  /** Bring back the audio a run removed; possible until the next start. */
  'storage.undoRetention': {
    input: z.lazy(() => z.object({ batchId: z.string().regex(/^[0-9]{13}-[0-9a-z]{1,12}$/) }).strict()),
    output: z.lazy(() => z.object({ recordings: z.number().int().nonnegative() })),
  },
} as const satisfies Contracts;

function build() {
  const bytes = z.number().int().nonnegative();

  const retentionRunSchema = z.object({ batchId: z.string().nullable(), recordings: z.number().int().nonnegative(), bytes });

  const storageUsageSchema = z.object({
    audioBytes: bytes,
    audioFiles: z.number().int().nonnegative(),
    /** The database with its write-ahead log. */
    databaseBytes: bytes,
    /** Audio removed since this start, which Undo can still bring back. */
    trashBytes: bytes,
    /** The last run since this start that removed something and was not undone. */
    lastRun: retentionRunSchema.nullable(),
  });
  return { retentionRunSchema, storageUsageSchema };
}
