/** What the Models screen sees over IPC: each catalog model with its install and download state, and the download progress event. */
import { z } from 'zod';
import { catalogEntrySchema, modelIdSchema } from './catalog';
import { lazySchemas } from '../lazy-schemas';

// Made on first use (lazy-schemas.ts): each schema below is a z.lazy of the one build() makes, by the same name.
const schemas = lazySchemas(build);

export const downloadStateSchema = z.lazy(() => schemas().downloadStateSchema);
export type DownloadState = z.infer<typeof downloadStateSchema>;

export const modelErrorSchema = z.lazy(() => schemas().modelErrorSchema);

/** The progress event (and a model row's download): bytes so far, speed, ETA, state. */
export const downloadStatusSchema = z.lazy(() => schemas().downloadStatusSchema);
export type DownloadStatus = z.infer<typeof downloadStatusSchema>;

export const modelRowSchema = z.lazy(() => schemas().modelRowSchema);
export type ModelRow = z.infer<typeof modelRowSchema>;

export const modelsListSchema = z.lazy(() => schemas().modelsListSchema);
export type ModelsList = z.infer<typeof modelsListSchema>;

function build() {
  const downloadStateSchema = z.enum(['queued', 'downloading', 'paused', 'verifying', 'unpacking', 'failed', 'installed', 'canceled']);

  const modelErrorSchema = z.object({
    /** dns, tls, proxy, network, stalled, http, not_archive, checksum, size, disk, unsafe_archive, incomplete_model, unknown_model, canceled. */
    kind: z.string(),
    /** What happened and what to try, for the person reading it. */
    message: z.string(),
  });

  const downloadStatusSchema = z.object({
    id: modelIdSchema,
    state: downloadStateSchema,
    bytes: z.number().int().nonnegative(),
    /** The download's size, as the server states it (the catalog's until then). */
    total: z.number().int().nonnegative().nullable(),
    /** Bytes per second over the last few seconds. */
    speed: z.number().nonnegative(),
    /** Seconds left at that speed, or null when unknown. */
    etaSeconds: z.number().nonnegative().nullable(),
    error: modelErrorSchema.nullable(),
  });

  const modelRowSchema = z.object({
    entry: catalogEntrySchema,
    installed: z.object({ bytes: z.number().int().nonnegative(), installedAt: z.string() }).nullable(),
    download: downloadStatusSchema.nullable(),
  });

  const modelsListSchema = z.object({
    models: z.array(modelRowSchema),
    /** Installed folders with a manifest but no catalog entry (made by hand or by a test). */
    others: z.array(z.object({ id: modelIdSchema, name: z.string(), task: z.string(), bytes: z.number().int().nonnegative() })),
    dir: z.string(),
    /** Free space on the models folder's disk, or null when it cannot be read. */
    freeBytes: z.number().int().nonnegative().nullable(),
  });
  return { downloadStateSchema, modelErrorSchema, downloadStatusSchema, modelRowSchema, modelsListSchema };
}
