/**
 * The local model a stored job runs on: the first of its `speech_models` when that names an installed
 * model (checked and loaded in the native worker before the job decodes), or null for PocketSphinx.
 * Every failure of the model is a LocalModelError whose message the job's error can carry as it is.
 */
import { jobModelName } from './choose';
import { LocalModelError, type SherpaRecognizer } from './recognizer';
import { ModelNotInstalledError, type ModelRegistry } from './registry';
import { ModelFileError } from './validate';

export { LocalModelError } from './recognizer';

/** Whisper's language from the job's language_code: 'en_us' → 'en', 'auto' → '' (detect). */
export function whisperLanguage(code: string): string {
  return code === 'auto' ? '' : code.slice(0, 2);
}

export async function openJobModel(registry: ModelRegistry, speechModels: readonly string[] | null, languageCode: string): Promise<SherpaRecognizer | null> {
  const name = jobModelName(speechModels);
  if (!name) return null;
  try {
    const manifest = await registry.find(name);
    if (!manifest) throw new ModelNotInstalledError(name);
    const rec = await registry.recognizer(name, manifest.family === 'whisper' ? whisperLanguage(languageCode) : undefined);
    await rec.prewarm();
    return rec;
  } catch (err) {
    if (err instanceof ModelNotInstalledError || err instanceof ModelFileError || err instanceof LocalModelError) throw new LocalModelError(err.message);
    throw err;
  }
}
