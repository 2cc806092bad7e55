/**
 * Display names and initial values the renderer needs before main answers.
 * Kept here rather than imported from src/shared at runtime so the page does
 * not load zod (the schemas live in main): the types below make the compiler
 * check they cover every value of the contract.
 */
import type { JobStatus, TranscriptionOptions } from '../../../shared/jobs';
import type { Region, SettingsView } from '../../../shared/settings';

export const regionLabels: Record<Region, string> = { us: 'US', eu: 'EU', local: 'Local', custom: 'Custom' };

export type PiiPolicy = NonNullable<TranscriptionOptions['redactPiiPolicies']>[number];
export const piiPolicyLabels: Record<PiiPolicy, string> = {
  person_name: 'Names',
  phone_number: 'Phone numbers',
  email_address: 'Email addresses',
  credit_card_number: 'Card numbers',
  us_social_security_number: 'US social security numbers',
  date_of_birth: 'Dates of birth',
  location: 'Places',
};

const finalStatus: Record<JobStatus, boolean> = {
  queued: false,
  uploading: false,
  submitted: false,
  processing: false,
  completed: true,
  error: true,
  canceled: true,
};
export const isFinalStatus = (s: JobStatus): boolean => finalStatus[s];

/** Shown for the few milliseconds before `settings.get` answers; main's values replace it. */
export const initialSettings: SettingsView = {
  theme: 'system',
  region: 'local',
  customRestUrl: '',
  customStreamingUrl: '',
  customGatewayUrl: '',
  transcriptionDefaults: { speechModels: ['universal-3-pro', 'universal-2'], languageCode: 'en_us', punctuate: true, formatText: true },
  webhookUrl: '',
  webhookAuthHeaderName: '',
  webhookAuthHeaderSaved: false,
  keepAudioCopy: true,
  uploadConcurrency: 3,
  captions: {
    micDeviceId: '',
    echoCancellation: true,
    noiseSuppression: true,
    autoGainControl: true,
    sources: 'mic',
    endOfTurn: 'balanced',
    formatTurns: true,
    keyterms: [],
    recordOnly: false,
    overlay: { fontSize: 28, lines: 2, opacity: 0.85, textColor: '#ffffff', backgroundColor: '#000000', clickThrough: false },
  },
};

/** Languages offered for new jobs, and the names shown for the codes the service answers with. */
export const languageLabels: ReadonlyArray<readonly [code: string, label: string]> = [
  ['en_us', 'English (US)'],
  ['en_uk', 'English (UK)'],
  ['en_au', 'English (Australia)'],
  ['en', 'English (global)'],
  ['es', 'Spanish'],
  ['fr', 'French'],
  ['de', 'German'],
  ['it', 'Italian'],
  ['pt', 'Portuguese'],
  ['nl', 'Dutch'],
  ['hi', 'Hindi'],
  ['ja', 'Japanese'],
  ['zh', 'Chinese'],
  ['ko', 'Korean'],
  ['ru', 'Russian'],
  ['tr', 'Turkish'],
  ['pl', 'Polish'],
  ['uk', 'Ukrainian'],
  ['vi', 'Vietnamese'],
  ['fi', 'Finnish'],
];
