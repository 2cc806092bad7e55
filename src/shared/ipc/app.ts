/** The app's own channels: its facts, settings, the cloud API key (never returned) and the local engine. */
import { z } from 'zod';
import { errorCodes } from '../errors';
import { engineStatusSchema, serviceRegionSchema } from '../jobs';
import { settingsPatchSchema, settingsViewSchema } from '../settings';
import { none, type Contracts } from './common';
import { lazySchemas } from '../lazy-schemas';

// Made on first use (lazy-schemas.ts): each schema below is a z.lazy of the one build() makes, by the same name.
const schemas = lazySchemas(build);

export const appInfoSchema = z.lazy(() => schemas().appInfoSchema);
export type AppInfo = z.infer<typeof appInfoSchema>;

/**
 * What the renderer may know about the cloud API key. The key itself never
 * crosses IPC: only whether there is one and its last four characters.
 */
export const keyStatusSchema = z.lazy(() => schemas().keyStatusSchema);
export type KeyStatus = z.infer<typeof keyStatusSchema>;

export const appChannels = {
  /** Name, version, mode, data folder, missing system packages. */
  'app.info': { input: none, output: appInfoSchema },

  // ── settings ────────────────────────────────────────────────────────────
  /** The whole settings object (every field filled; secrets only as "saved" flags). */
  'settings.get': { input: none, output: settingsViewSchema },
  /** Change some fields; answers the whole new object and emits `settings.changed`. */
  'settings.set': { input: settingsPatchSchema, output: settingsViewSchema },

  // ── keys (the cloud API key; never returned) ────────────────────────────
  /** Whether a key is stored, masked, and when it was last verified. */
  'keys.status': { input: none, output: keyStatusSchema },
  /**
   * Store a key after verifying it with one cheap authenticated call to the
   * region (`region` also switches settings.region when given).
   * Errors: `invalid_key` (401: nothing stored), `bad_request` (the key is
   * malformed). Offline (`network`): the key is stored unverified and
   * `lastError` says so.
   */
  'keys.set': {
    input: z.lazy(() => z.object({ key: z.string().trim().min(8).max(200), region: z.enum(['us', 'eu', 'custom']).optional() }).strict()),
    output: keyStatusSchema,
  },
  /** Check the stored key again (updates verifiedAt / lastError). */
  'keys.verify': { input: none, output: keyStatusSchema },
  /** Forget the stored key. With no key, jobs go to the local engine. */
  'keys.remove': { input: none, output: keyStatusSchema },

  // ── local engine ────────────────────────────────────────────────────────
  /** State of the local engine process (started on demand by jobs in region local). */
  'engine.status': { input: none, output: engineStatusSchema },
  /** Start the local engine now (otherwise it starts with the first local job). */
  'engine.start': { input: none, output: engineStatusSchema },
} as const satisfies Contracts;

function build() {
  const appInfoSchema = z.object({
    name: z.string(),
    version: z.string(),
    platform: z.string(),
    mode: z.enum(['electron', 'host']),
    dataDir: z.string(),
    versions: z.object({ node: z.string(), electron: z.string().nullable(), chrome: z.string().nullable() }),
    /** System packages the local engine needs and that are missing on this machine. */
    missingEnginePackages: z.array(z.string()),
  });

  const keyStatusSchema = z.object({
    present: z.boolean(),
    /** "…a1b2" (last four characters), or null when no key. */
    masked: z.string().nullable(),
    /** Where the key comes from: the encrypted vault, or the ASSEMBLYAI_API_KEY environment variable (read-only). */
    source: z.enum(['vault', 'env']).nullable(),
    /** The region the app currently talks to (settings.region). */
    region: serviceRegionSchema,
    /** ISO time of the last successful check against the service, or null. */
    verifiedAt: z.string().nullable(),
    /** Why the last check failed (e.g. offline), or null. */
    lastError: z.object({ code: z.enum(errorCodes), message: z.string() }).nullable(),
    /** false when the platform cannot encrypt (Linux without a keyring): the key cannot be saved. */
    canStore: z.boolean(),
    /** The service origin a saved key was entered for; it is sent nowhere else. null for the environment's key or none. */
    boundTo: z.string().nullable(),
    /** Whether the key may be sent to the service the settings name now (false: enter it again for that address). */
    matchesService: z.boolean(),
  });
  return { appInfoSchema, keyStatusSchema };
}
