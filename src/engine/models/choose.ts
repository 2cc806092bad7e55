/**
 * The one chooser between the built-in models and installed ones. For speech: `speech_models` (or the
 * streaming `speech_model`) naming an installed local model picks it; AssemblyAI's cloud names and
 * `pocketsphinx` run the built-in PocketSphinx; any other name is a 400 saying to download it. A
 * multilingual local model (Whisper) lets `language_code` and `language_detection` through, in Whisper's
 * own codes. (Chat: the gateway's `model` picks an installed GGUF model or the built-in extractive one.)
 */
import { SPEECH_MODELS } from '../../shared/api/transcript';
import { resolveServiceModel, serviceModelNames } from '../../shared/api/service-models';
import { BUILTIN_SPEECH_MODEL, type ModelManifest } from '../../shared/models/catalog';
import { bestLocalModel } from './best';
import { unknownWhisperLanguage, whisperLanguage } from './whisper-languages';

/** AssemblyAI's pre-recorded ids and aliases (src/shared/api/service-models.ts): each runs the best installed model. */
const CLOUD = new Set<string>([...SPEECH_MODELS, ...serviceModelNames('prerecorded')]);

/** Whether `name` is one of AssemblyAI's pre-recorded model ids (an alias or a retired id included). */
export function isCloudModel(name: string): boolean {
  return CLOUD.has(name) || resolveServiceModel('prerecorded', name) !== null;
}

const ENGLISH = new Set(['en', 'en_us', 'en_uk', 'en_au']);

/** Whether `name` is not an installed model's id: the built-in PocketSphinx, or a cloud id (which runs the best installed model). */
export function runsPocketsphinx(name: string): boolean {
  return name === BUILTIN_SPEECH_MODEL || isCloudModel(name);
}

/** Looks up an installed speech model (the recognizers' registry, which also releases one deleted since it was used). */
export interface SpeechModels {
  find(id: string): Promise<ModelManifest | null>;
  /** Every installed speech model (a cloud id runs the best of them). */
  list(): Promise<ModelManifest[]>;
}

/** The model a job whose first `speech_models` entry is a cloud id runs in `language` (null: PocketSphinx). */
export async function cloudModelChoice(models: SpeechModels, speechModels: readonly string[] | null, language: string | null): Promise<ModelManifest | null> {
  const first = speechModels?.[0];
  if (first === undefined || !isCloudModel(first)) return null;
  return bestLocalModel(await models.list(), 'files', language);
}

/**
 * The installed speech models a request body's `speech_models` names (looked up before the body is validated).
 * Throws ModelFileError, naming the model, when a named model's manifest is broken.
 */
export async function namedLocalModels(models: SpeechModels, body: unknown): Promise<Map<string, ModelManifest>> {
  const out = new Map<string, ModelManifest>();
  const names = body && typeof body === 'object' ? (body as { speech_models?: unknown }).speech_models : undefined;
  if (!Array.isArray(names)) return out;
  for (const n of names.slice(0, 20)) {
    if (typeof n !== 'string' || runsPocketsphinx(n) || out.has(n)) continue;
    const m = await models.find(n);
    if (m) out.set(n, m);
  }
  return out;
}

/** The error for a model that is neither built in, nor installed, nor one of AssemblyAI's. */
export function notInstalled(field: string, name: string): string {
  return `${field}: the model ${JSON.stringify(name.slice(0, 100))} is not installed on this engine, nor an AssemblyAI model; download it in Settings → Models, or use ${BUILTIN_SPEECH_MODEL} (built in) or an AssemblyAI model such as ${serviceModelNames('prerecorded').slice(0, 4).join(', ')}.`;
}

/**
 * `speech_models` as the wire schema can check it (local names swapped for a cloud name) and the model the
 * request runs on (null: PocketSphinx). Throws the 400 message for a name neither built in nor installed.
 */
export function resolveSpeechModels(
  names: unknown,
  installed: ReadonlyMap<string, ModelManifest>,
): { forSchema: unknown; chosen: ModelManifest | null; names: string[] | null } {
  if (!Array.isArray(names) || !names.every((n) => typeof n === 'string')) return { forSchema: names, chosen: null, names: null };
  for (const n of names as string[]) if (!runsPocketsphinx(n) && !installed.has(n)) throw new Error(notInstalled('speech_models', n));
  for (const n of names as string[]) {
    const m = installed.get(n);
    if (m && m.family === 'streaming-transducer')
      throw new Error(`speech_models: ${JSON.stringify(n)} is a live-captions (streaming) model; name a model for files, or use it with /v3/ws.`);
  }
  const first = (names as string[])[0];
  const chosen = first !== undefined ? (installed.get(first) ?? null) : null;
  // Every name checked here (local, built in, AssemblyAI's) stands as one the wire schema knows.
  const forSchema = (names as string[]).map(() => SPEECH_MODELS[0]);
  return { forSchema, chosen, names: [...(names as string[])] };
}

/** Whether the model transcribes more than English (and so takes language_code / language_detection). */
export function isMultilingual(m: ModelManifest | null): m is ModelManifest {
  return m !== null && m.family === 'whisper' && m.languages.length > 1;
}

/**
 * The language a job on `chosen` (null: PocketSphinx) runs in, as stored: the request's language_code
 * (lower case; en_us by default), or 'auto' to detect. Throws the 400 message for a language the model
 * cannot take: a code Whisper does not know is named as such, never cut to two letters.
 */
export function requestLanguage(chosen: ModelManifest | null, code: string | null | undefined, detection: boolean | null | undefined): string {
  const multi = isMultilingual(chosen) ? chosen : null;
  const language = detection && multi ? 'auto' : (code ?? 'en_us').toLowerCase();
  if (!ENGLISH.has(language) && !multi)
    throw new Error(
      `language_code ${JSON.stringify(language.slice(0, 40))} is not supported by the local engine, which transcribes English only (en, en_us, en_uk, en_au).`,
    );
  if (multi && language !== 'auto' && !ENGLISH.has(language)) {
    const w = whisperLanguage(language);
    if (w === null) throw new Error(unknownWhisperLanguage(language));
    if (!multi.languages.includes(w))
      throw new Error(
        `language_code ${JSON.stringify(language.slice(0, 40))} is not one of the languages of the model ${multi.id} (${multi.languages.join(', ')}); choose one of them, or another model.`,
      );
  }
  if (detection && !multi)
    throw new Error('language_detection is not supported by the local engine, which transcribes English only; set language_code instead.');
  return language;
}

/** The installed model a stored job names first, or null when it runs PocketSphinx. */
export function jobModelName(speechModels: readonly string[] | null): string | null {
  const first = speechModels?.[0];
  return first !== undefined && !runsPocketsphinx(first) ? first : null;
}
