/**
 * Shared types of the durable transcription jobs (DESIGN.md §5): the options a
 * user picks, a job row as the renderer sees it, and its progress events.
 */
import { z } from 'zod';
import { PII_POLICIES, SERVICE_REGIONS, type PiiPolicy } from './defaults';
import { errorCodes } from './errors';
import { FINAL_JOB_STATUSES, isFinalJobStatus, JOB_STATUSES, type FinalJobStatus, type JobStatus } from './job-states';
import { lazySchemas } from './lazy-schemas';

// Made on first use (lazy-schemas.ts): each schema below is a z.lazy of the one build() makes, by the same name.
const schemas = lazySchemas(build);

/** Where a transcript was made; each library item remembers it (API.md §1). */
export const serviceRegionSchema = z.lazy(() => schemas().serviceRegionSchema);
export type ServiceRegion = z.infer<typeof serviceRegionSchema>;

export const piiPolicies = PII_POLICIES as [PiiPolicy, ...PiiPolicy[]];

/**
 * What the user can choose per job (API.md §3, in camelCase; main maps them to
 * the wire names). Every field is optional: absent = the Settings default.
 */
export const transcriptionOptionsSchema = z.lazy(() => schemas().transcriptionOptionsSchema);
export type TranscriptionOptions = z.infer<typeof transcriptionOptionsSchema>;

export const jobStatusSchema = z.lazy(() => schemas().jobStatusSchema);
export { FINAL_JOB_STATUSES, isFinalJobStatus, type FinalJobStatus, type JobStatus };

export const jobErrorSchema = z.lazy(() => schemas().jobErrorSchema);
export type JobError = z.infer<typeof jobErrorSchema>;

export const jobSchema = z.lazy(() => schemas().jobSchema);
export type Job = z.infer<typeof jobSchema>;

/** Upload progress, at most ~10 per second per job. */
export const jobProgressSchema = z.lazy(() => schemas().jobProgressSchema);
export type JobProgress = z.infer<typeof jobProgressSchema>;

/** A job changed state (`job`), or was removed (`job: null`). */
export const jobChangedSchema = z.lazy(() => schemas().jobChangedSchema);
export type JobChanged = z.infer<typeof jobChangedSchema>;

export const engineStateSchema = z.lazy(() => schemas().engineStateSchema);
export const engineStatusSchema = z.lazy(() => schemas().engineStatusSchema);
export type EngineStatus = z.infer<typeof engineStatusSchema>;

/** Gateway rate-limit state from the X-RateLimit-* headers (API.md §9). */
export const rateLimitSchema = z.lazy(() => schemas().rateLimitSchema);
export type RateLimit = z.infer<typeof rateLimitSchema>;

function build() {
  const serviceRegionSchema = z.enum(SERVICE_REGIONS);

  const transcriptionOptionsSchema = z
    .object({
      /** Priority list of models, e.g. ["universal-3-pro", "universal-2"]. */
      speechModels: z.array(z.string().min(1).max(64)).min(1).max(4),
      /** e.g. "en_us"; the local engine accepts en, en_us, en_uk, en_au. */
      languageCode: z.string().min(2).max(16),
      punctuate: z.boolean(),
      formatText: z.boolean(),
      disfluencies: z.boolean(),
      filterProfanity: z.boolean(),
      /** Words to boost (names, jargon). */
      keytermsPrompt: z.array(z.string().min(1).max(100)).max(200),
      /** Who said what: the cloud, or the local engine with a segmentation and a speaker-embedding model installed. */
      speakerLabels: z.boolean(),
      /** Up to 10, the cloud's documented limit (the local engine's too). */
      speakersExpected: z.number().int().min(1).max(10).nullable(),
      redactPii: z.boolean(),
      // Bounded like every array a channel takes (a few dozen policies exist; each named once is the use).
      redactPiiPolicies: z.array(z.enum(piiPolicies)).max(500),
      redactPiiSub: z.enum(['hash', 'entity_name']),
      /** Also make a copy of the audio with the redacted spans beeped; it is downloaded into the library. */
      redactPiiAudio: z.boolean(),
      redactPiiAudioQuality: z.enum(['mp3', 'wav']),
      /** Transcribe only a window of the file (milliseconds). */
      audioStartFrom: z.number().int().nonnegative().nullable(),
      audioEndAt: z.number().int().positive().nullable(),
    })
    .partial()
    .strict();

  const jobStatusSchema = z.enum(JOB_STATUSES);

  const jobErrorSchema = z.object({
    code: z.enum(errorCodes),
    message: z.string(),
    /** true when "Retry" makes sense (server faults, network); false for e.g. a corrupt file. */
    retryable: z.boolean(),
  });

  const jobSchema = z.object({
    id: z.string(),
    /** The library item this job fills; opens in the library once completed. */
    recordingId: z.string(),
    /** File name or URL shown to the user. */
    name: z.string(),
    source: z.enum(['file', 'url', 'upload', 'live']),
    status: jobStatusSchema,
    region: serviceRegionSchema,
    /** The service's transcript id once submitted (null before). */
    remoteId: z.string().nullable(),
    bytesSent: z.number().nonnegative(),
    /** File size; null for URL jobs. */
    bytesTotal: z.number().nonnegative().nullable(),
    /** Length of the recording: measured by the renderer before upload when it could, then the service's. */
    durationMs: z.number().int().nonnegative().nullable(),
    error: jobErrorSchema.nullable(),
    /** How many times the job has been attempted (retries included). */
    attempts: z.number().int().nonnegative(),
    /** ISO 8601 times. */
    createdAt: z.string(),
    updatedAt: z.string(),
    completedAt: z.string().nullable(),
    /** Set when a restart of the app picked this unfinished job up again (ISO 8601). */
    resumedAt: z.string().nullable(),
  });

  const jobProgressSchema = z.object({
    id: z.string(),
    bytes: z.number().nonnegative(),
    total: z.number().nonnegative().nullable(),
    bytesPerSecond: z.number().nonnegative(),
    /** null until the rate is known (or for unknown totals). */
    etaSeconds: z.number().nonnegative().nullable(),
  });

  const jobChangedSchema = z.object({ id: z.string(), job: jobSchema.nullable() });

  const engineStateSchema = z.enum(['stopped', 'starting', 'running', 'restarting', 'failed']);

  const engineStatusSchema = z.object({
    state: engineStateSchema,
    /** http://127.0.0.1:PORT while running. */
    url: z.string().nullable(),
    /** How many times it was restarted after dying. */
    restarts: z.number().int().nonnegative(),
    /** What went wrong, for the user, when state is failed/restarting. */
    message: z.string().nullable(),
  });

  const rateLimitSchema = z.object({
    model: z.string().nullable(),
    service: z.string().nullable(),
    limit: z.number().int().nonnegative(),
    remaining: z.number().int().nonnegative(),
    /** Seconds from `at` until the window resets. */
    resetSeconds: z.number().nonnegative(),
    /** ISO time the headers were read. */
    at: z.string(),
  });
  return {
    serviceRegionSchema,
    transcriptionOptionsSchema,
    jobStatusSchema,
    jobErrorSchema,
    jobSchema,
    jobProgressSchema,
    jobChangedSchema,
    engineStateSchema,
    engineStatusSchema,
    rateLimitSchema,
  };
}
