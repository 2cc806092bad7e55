/**
 * Domain values written once, with no zod, so the renderer can import them
 * without loading the schemas: service regions and their labels, the
 * settings' defaults, the PII policies with their labels. The schemas in
 * settings.ts and jobs.ts are built from these.
 */
import { CLOUD_DEFAULT_SPEECH_MODELS } from './api/service-models';

export const SERVICE_REGIONS = ['us', 'eu', 'local', 'custom'] as const;
export type ServiceRegionName = (typeof SERVICE_REGIONS)[number];

export const REGION_LABELS: Readonly<Record<ServiceRegionName, string>> = { us: 'US', eu: 'EU', local: 'Local', custom: 'Custom' };

export const THEMES = ['system', 'light', 'dark'] as const;

/** The speech models a new job asks for, in priority order: AssemblyAI's recommendation for a client that sets speech_models (api/service-models.ts). */
export const DEFAULT_SPEECH_MODELS: readonly string[] = CLOUD_DEFAULT_SPEECH_MODELS;

/** What Settings hold before the user changes anything (settings.ts parses `{}` to exactly this). */
export const DEFAULT_SETTINGS = {
  theme: 'system' as (typeof THEMES)[number],
  region: 'local' as ServiceRegionName,
  customRestUrl: '',
  customStreamingUrl: '',
  customGatewayUrl: '',
  transcriptionDefaults: { speechModels: [...DEFAULT_SPEECH_MODELS], languageCode: 'en_us', punctuate: true, formatText: true },
  webhookUrl: '',
  webhookAuthHeaderName: '',
  keepAudioCopy: true,
  /** How long recorded audio is kept (Settings → Storage): for ever, `days` days, or until its transcript is done. */
  audioRetention: { mode: 'forever' as 'forever' | 'days' | 'transcribed', days: 30 },
  uploadConcurrency: 3,
  /** Local models (Settings → Models): the default for files and for live captions ('' = the built-in PocketSphinx), and a download mirror ('' = upstream). */
  models: { files: '', live: '', mirror: '' },
  /** The user's vocabulary (Settings → Vocabulary), sent as keyterms with every job and live session. */
  vocabulary: [] as string[],
  captions: {
    micDeviceId: '',
    echoCancellation: true,
    noiseSuppression: true,
    autoGainControl: true,
    sources: 'mic' as 'mic' | 'system' | 'both',
    endOfTurn: 'balanced' as 'quick' | 'balanced' | 'patient',
    formatTurns: true,
    keyterms: [] as string[],
    recordOnly: false,
    /** High contrast by default: white on black. */
    overlay: { fontSize: 28, lines: 2, opacity: 0.85, textColor: '#ffffff', backgroundColor: '#000000', clickThrough: false },
  },
};

export const PII_POLICY_LABELS = {
  person_name: 'Names',
  phone_number: 'Phone numbers',
  email_address: 'Email addresses',
  credit_card_number: 'Card numbers',
  us_social_security_number: 'US social security numbers',
  date_of_birth: 'Dates of birth',
  location: 'Places',
} as const;
export type PiiPolicy = keyof typeof PII_POLICY_LABELS;
export const PII_POLICIES = Object.keys(PII_POLICY_LABELS) as PiiPolicy[];
