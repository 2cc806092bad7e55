import { z } from 'zod';
import { DEFAULT_SETTINGS, REGION_LABELS, THEMES } from './defaults';
import { serviceRegionSchema, transcriptionOptionsSchema } from './jobs';
import { captionsSettingsSchema } from './captions';
import { vocabularySchema } from './vocabulary-schema';
import { lazySchemas } from './lazy-schemas';

// Made on first use (lazy-schemas.ts): each schema below is a z.lazy of the one build() makes, by the same name.
const schemas = lazySchemas(build);

export const themeSchema = z.lazy(() => schemas().themeSchema);
/** us / eu cloud (needs a key), the local engine, or custom base addresses (API.md §1). */
export const regionSchema = serviceRegionSchema;
export type Theme = z.infer<typeof themeSchema>;
export type Region = z.infer<typeof regionSchema>;

export const regionLabels: Readonly<Record<Region, string>> = REGION_LABELS;

export const settingsSchema = z.lazy(() => schemas().settingsSchema);

export type Settings = z.infer<typeof settingsSchema>;

/**
 * A change from the renderer: any subset of fields, unknown fields rejected.
 * Built from the fields without their defaults, so an absent field stays absent
 * (zod's .partial() would fill defaults in and reset the user's other settings).
 * `transcriptionDefaults` is replaced whole when given.
 */
export const settingsPatchSchema = z.lazy(() => schemas().settingsPatchSchema);
export type SettingsPatch = z.infer<typeof settingsPatchSchema>;

export const defaultSettings: Settings = settingsSchema.parse({});

/** Settings as the renderer sees them: the stored fields, and whether a webhook secret is saved (never the secret). */
export const settingsViewSchema = z.lazy(() => schemas().settingsViewSchema);
export type SettingsView = z.infer<typeof settingsViewSchema>;

function build() {
  const themeSchema = z.enum(THEMES);

  /** An http(s) base address, or empty for "not set". */
  const baseUrlSchema = z.union([z.literal(''), z.url({ protocol: /^https?$/ })]);

  const wsBaseUrlSchema = z.union([z.literal(''), z.url({ protocol: /^wss?$/ })]);

  /**
   * Everything the user can change in Settings. The same schema is stored by
   * electron-store in Electron and by a JSON file in the data folder in host mode.
   * Every field has a default, so an old or partial file always parses.
   * (Secrets are not settings: the API key lives in the key vault, see `keys.*`;
   * the webhook's auth header value is sealed beside it and only ever written.)
   */
  const fields = {
    theme: themeSchema,
    region: regionSchema,
    /** Region `custom`: REST base, e.g. https://asr.example.org (no trailing /v2). */
    customRestUrl: baseUrlSchema,
    /** Region `custom`: streaming base, e.g. wss://asr.example.org. Empty = derived from the REST base. */
    customStreamingUrl: wsBaseUrlSchema,
    /** Region `custom`: gateway base. Empty = the REST base. */
    customGatewayUrl: baseUrlSchema,
    /** Options every new job starts with (a job may override them). */
    transcriptionDefaults: transcriptionOptionsSchema,
    /** Cloud jobs: also notify this URL (your own server) on completion. Empty = none. */
    webhookUrl: baseUrlSchema,
    webhookAuthHeaderName: z.string().max(100),
    /** Keep a copy of each recording's audio in the library (playable offline). */
    keepAudioCopy: z.boolean(),
    /** How long the library keeps recorded audio; text, edits and summaries always stay (replaced whole when given). */
    audioRetention: z.object({ mode: z.enum(['forever', 'days', 'transcribed']), days: z.number().int().min(1).max(3650) }),
    /** How many uploads run at once. */
    uploadConcurrency: z.number().int().min(1).max(8),
    /** Live captions: inputs, processing, turn detection, overlay look (replaced whole when given). */
    captions: captionsSettingsSchema,
    /** Local models: default ids for files and live captions ('' = built-in PocketSphinx), and a download mirror ('' = upstream). Replaced whole when given. */
    models: z.object({
      files: z.union([z.literal(''), z.string().regex(/^[a-z0-9][a-z0-9.-]{0,95}$/)]),
      live: z.union([z.literal(''), z.string().regex(/^[a-z0-9][a-z0-9.-]{0,95}$/)]),
      mirror: baseUrlSchema,
    }),
    /** The user's vocabulary: sent as keyterms with every new job and live session (replaced whole when given). */
    vocabulary: vocabularySchema,
    /** Review of doubtful words: a word is doubtful below this confidence (absent: the app's default). */
    reviewThreshold: z.number().min(0.05).max(0.99),
    /** People: a speaker takes a remembered voice's name at or above this similarity (absent: the app's default). */
    voiceMatch: z.number().min(0.5).max(0.99),
    /** Backups include remembered voices only when this is on (absent: off). */
    backupVoiceprints: z.boolean(),
    /** The summary written when a live session stops: 'off', 'plain' (absent: plain), or a summary template's id. */
    liveSummary: z.string().min(1).max(80),
    /** Minutes without speech before a live session asks "Still recording?" and then stops itself (absent: 15; 0: never). */
    silenceStopMinutes: z.number().int().min(0).max(240),
  };

  const settingsSchema = z.object({
    theme: fields.theme.default(DEFAULT_SETTINGS.theme),
    region: fields.region.default(DEFAULT_SETTINGS.region),
    customRestUrl: fields.customRestUrl.default(DEFAULT_SETTINGS.customRestUrl),
    customStreamingUrl: fields.customStreamingUrl.default(DEFAULT_SETTINGS.customStreamingUrl),
    customGatewayUrl: fields.customGatewayUrl.default(DEFAULT_SETTINGS.customGatewayUrl),
    transcriptionDefaults: fields.transcriptionDefaults.default(() => structuredClone(DEFAULT_SETTINGS.transcriptionDefaults)),
    webhookUrl: fields.webhookUrl.default(DEFAULT_SETTINGS.webhookUrl),
    webhookAuthHeaderName: fields.webhookAuthHeaderName.default(DEFAULT_SETTINGS.webhookAuthHeaderName),
    keepAudioCopy: fields.keepAudioCopy.default(DEFAULT_SETTINGS.keepAudioCopy),
    audioRetention: fields.audioRetention.default(() => ({ ...DEFAULT_SETTINGS.audioRetention })),
    uploadConcurrency: fields.uploadConcurrency.default(DEFAULT_SETTINGS.uploadConcurrency),
    captions: fields.captions.default(() => structuredClone(DEFAULT_SETTINGS.captions)),
    models: fields.models.default(() => ({ ...DEFAULT_SETTINGS.models })),
    vocabulary: fields.vocabulary.default(() => [...DEFAULT_SETTINGS.vocabulary]),
    reviewThreshold: fields.reviewThreshold.optional(),
    voiceMatch: fields.voiceMatch.optional(),
    backupVoiceprints: fields.backupVoiceprints.optional(),
    liveSummary: fields.liveSummary.optional(),
    silenceStopMinutes: fields.silenceStopMinutes.optional(),
  });

  const settingsPatchSchema = z
    .object({
      ...fields,
      /** Write-only: stored encrypted in main, never read back ('' forgets it). */
      webhookAuthHeaderValue: z.string().max(500),
    })
    .partial()
    .strict();

  const settingsViewSchema = settingsSchema.extend({ webhookAuthHeaderSaved: z.boolean() });
  return { themeSchema, settingsSchema, settingsPatchSchema, settingsViewSchema };
}
