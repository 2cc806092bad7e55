/**
 * AssemblyAI's speech models, as the service names them: one list read by the engine (which serves every
 * id here with its best installed local model), Settings, watch folders and live captions. Each entry says
 * its status (a retired id is routed to `replacedBy`, never refused), its languages (AssemblyAI
 * `language_code` values; null where the page gives only a count) and the page it comes from.
 *
 * Pinned SDK: `assemblyai` 4.41.5 (`StreamingSpeechModel` has the nine streaming ids below; the sync
 * client's default is `universal-3-5-pro`).
 */

export type ServiceModelKind = 'prerecorded' | 'streaming';
export type ServiceModelStatus = 'ga' | 'deprecated' | 'retired';

export interface ServiceModel {
  id: string;
  kind: ServiceModelKind;
  /** What the user reads (the service's own name for it). */
  label: string;
  status: ServiceModelStatus;
  /** The model AssemblyAI moves its users to (a retired id is routed there); null when none is named. */
  replacedBy: string | null;
  /** AssemblyAI language codes, or null when the source gives only a count (`languageCount`). */
  languages: readonly string[] | null;
  languageCount: number;
  /** Other ids the service takes for this model. */
  aliases: readonly string[];
  /** The AssemblyAI page this entry comes from. */
  source: string;
}

const DOCS = 'https://www.assemblyai.com/docs';
const VERSIONS = `${DOCS}/getting-started/model-versions-and-deprecations`;
const MIGRATION = `${DOCS}/pre-recorded-audio/assemblyai-stt-3-7-migration-guide`;
const PRE_SELECT = `${DOCS}/pre-recorded-audio/select-the-speech-model`;
const STREAM_SELECT = `${DOCS}/streaming/universal-3-pro`;
const U3_LANGUAGES = ['en', 'es', 'de', 'fr', 'pt', 'it'] as const;

export const PRERECORDED_MODELS: readonly ServiceModel[] = [
  {
    id: 'assemblyai-stt-3-7',
    kind: 'prerecorded',
    label: 'AssemblyAI-STT-3.7',
    status: 'ga',
    replacedBy: null,
    languages: null,
    languageCount: 32,
    aliases: [],
    source: MIGRATION,
  },
  {
    id: 'universal-3-5-pro',
    kind: 'prerecorded',
    label: 'Universal-3.5 Pro',
    status: 'deprecated',
    replacedBy: 'assemblyai-stt-3-7',
    languages: null,
    languageCount: 18,
    aliases: [],
    source: VERSIONS,
  },
  {
    id: 'universal-3-pro',
    kind: 'prerecorded',
    label: 'Universal-3 Pro',
    status: 'deprecated',
    replacedBy: 'assemblyai-stt-3-7',
    languages: U3_LANGUAGES,
    languageCount: U3_LANGUAGES.length,
    aliases: [],
    source: MIGRATION,
  },
  {
    id: 'universal-2',
    kind: 'prerecorded',
    label: 'Universal-2',
    status: 'ga',
    replacedBy: null,
    languages: null,
    languageCount: 99,
    aliases: ['universal'],
    source: PRE_SELECT,
  },
  {
    id: 'slam-1',
    kind: 'prerecorded',
    label: 'Slam-1',
    // Deprecated in AssemblyAI's model reference (2026-04); no longer among the ids the service accepts, so not offered.
    status: 'retired',
    replacedBy: 'assemblyai-stt-3-7',
    languages: ['en'],
    languageCount: 1,
    aliases: [],
    source: `${DOCS}/getting-started/slam-1`,
  },
  {
    id: 'best',
    kind: 'prerecorded',
    label: 'Best (legacy class)',
    status: 'retired',
    replacedBy: 'universal-2',
    languages: null,
    languageCount: 99,
    aliases: [],
    source: VERSIONS,
  },
  {
    id: 'nano',
    kind: 'prerecorded',
    label: 'Nano (legacy class)',
    status: 'retired',
    replacedBy: 'universal-2',
    languages: null,
    languageCount: 99,
    aliases: [],
    source: VERSIONS,
  },
];

export const STREAMING_MODELS: readonly ServiceModel[] = [
  {
    id: 'universal-3-6-pro',
    kind: 'streaming',
    label: 'Universal-3.6 Pro Streaming',
    status: 'ga',
    replacedBy: null,
    languages: null,
    languageCount: 32,
    aliases: [],
    source: STREAM_SELECT,
  },
  {
    id: 'universal-3-6',
    kind: 'streaming',
    label: 'Universal-3.6 Streaming',
    status: 'ga',
    replacedBy: null,
    languages: null,
    languageCount: 32,
    aliases: [],
    source: STREAM_SELECT,
  },
  {
    id: 'universal-3-5-pro',
    kind: 'streaming',
    label: 'Universal-3.5 Pro Streaming',
    status: 'ga',
    replacedBy: null,
    languages: null,
    languageCount: 19,
    aliases: [],
    source: STREAM_SELECT,
  },
  {
    id: 'u3-rt-pro',
    kind: 'streaming',
    label: 'Universal-3 Pro Streaming',
    status: 'ga',
    replacedBy: null,
    languages: U3_LANGUAGES,
    languageCount: U3_LANGUAGES.length,
    aliases: ['u3-pro'],
    source: `${DOCS}/streaming/universal-3-pro/supported-languages`,
  },
  {
    id: 'u3-rt-pro-beta-1',
    kind: 'streaming',
    label: 'Universal-3 Pro Streaming (beta 1)',
    status: 'retired',
    replacedBy: 'u3-rt-pro',
    languages: U3_LANGUAGES,
    languageCount: U3_LANGUAGES.length,
    aliases: [],
    source: VERSIONS,
  },
  {
    id: 'whisper-rt',
    kind: 'streaming',
    label: 'Whisper Streaming',
    status: 'ga',
    replacedBy: null,
    languages: null,
    languageCount: 99,
    aliases: [],
    source: `${DOCS}/streaming/universal-3-pro/supported-languages`,
  },
  {
    id: 'universal-streaming-english',
    kind: 'streaming',
    label: 'Universal-Streaming English',
    status: 'ga',
    replacedBy: null,
    languages: ['en'],
    languageCount: 1,
    aliases: [],
    source: STREAM_SELECT,
  },
  {
    id: 'universal-streaming-multilingual',
    kind: 'streaming',
    label: 'Universal-Streaming Multilingual',
    status: 'ga',
    replacedBy: null,
    languages: U3_LANGUAGES,
    languageCount: U3_LANGUAGES.length,
    aliases: [],
    source: `${DOCS}/streaming/select-the-speech-model`,
  },
];

export const SERVICE_MODELS: readonly ServiceModel[] = [...PRERECORDED_MODELS, ...STREAMING_MODELS];

/** What a client that sets `speech_models` should send (the migration guide: keep universal-2 for the languages 3.7 lacks). */
export const CLOUD_DEFAULT_SPEECH_MODELS: readonly string[] = ['assemblyai-stt-3-7', 'universal-2'];
/** What the service runs for a pre-recorded job with no `speech_models` (new accounts from 2026-11-17, others from 2026-12-08). */
export const SERVICE_DEFAULT_PRERECORDED_MODEL = 'assemblyai-stt-3-7';
/** What a streaming session with no `speech_model` runs. */
export const STREAMING_DEFAULT_MODEL = 'universal-3-6-pro';
/** The pinned SDK's default for `client.sync` (`defaultSyncSpeechModel`). */
export const SYNC_DEFAULT_MODEL = 'universal-3-5-pro';

function listOf(kind: ServiceModelKind): readonly ServiceModel[] {
  return kind === 'prerecorded' ? PRERECORDED_MODELS : STREAMING_MODELS;
}

/** The entry an id or alias names (as given: a retired entry is returned as itself), or null. */
export function findServiceModel(kind: ServiceModelKind, idOrAlias: string): ServiceModel | null {
  return listOf(kind).find((m) => m.id === idOrAlias || m.aliases.includes(idOrAlias)) ?? null;
}

/** The model a request naming `idOrAlias` runs: aliases followed, retired ids routed to their replacement. Null: unknown. */
export function resolveServiceModel(kind: ServiceModelKind, idOrAlias: string): ServiceModel | null {
  let m = findServiceModel(kind, idOrAlias);
  for (let hops = 0; m && m.status === 'retired' && m.replacedBy && hops < 8; hops++) m = findServiceModel(kind, m.replacedBy);
  return m;
}

/** Every id and alias of a kind (what the engine must answer). */
export function serviceModelNames(kind: ServiceModelKind): string[] {
  return listOf(kind).flatMap((m) => [m.id, ...m.aliases]);
}

/** The models a picker offers: not retired (a deprecated one still runs, so it stays, marked by its status). */
export function offeredServiceModels(kind: ServiceModelKind): ServiceModel[] {
  return listOf(kind).filter((m) => m.status !== 'retired');
}

/** Whether `language` (an AssemblyAI code such as en_us or es) is one the model lists; true when its list is only a count. */
export function serviceModelSpeaks(m: ServiceModel, language: string): boolean {
  if (m.languages === null) return true;
  const base = language.toLowerCase().split(/[_-]/)[0] ?? '';
  return m.languages.includes(base);
}
