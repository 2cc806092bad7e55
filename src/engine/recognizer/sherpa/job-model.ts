/**
 * The local model a stored job runs on: the first of its `speech_models` when that names an installed
 * model (checked and loaded in the native worker before the job decodes), or null for PocketSphinx.
 * Every failure of the model is a LocalModelError whose message the job's error can carry as it is.
 */
import { cloudModelChoice, jobModelName } from '../../models/choose';
import { unknownWhisperLanguage, whisperLanguage } from '../../models/whisper-languages';
import { LocalModelError, type SherpaRecognizer } from './recognizer';
import { ModelNotInstalledError, type ModelRegistry } from './registry';
import { ModelFileError } from './validate';

export { LocalModelError } from './recognizer';

/**
 * Whisper's language for a job: checked against Whisper's own list, then against the languages the model's
 * export lists (`all_language_codes`), since sherpa-onnx exits inside the worker on a code it cannot map.
 */
async function jobWhisperLanguage(registry: ModelRegistry, name: string, languageCode: string): Promise<string> {
  const language = whisperLanguage(languageCode);
  if (language === null) throw new LocalModelError(unknownWhisperLanguage(languageCode));
  if (language === '') return language;
  const codes = (await registry.check(name)).metadata.encoder?.all_language_codes;
  if (codes !== undefined && codes !== '' && !codes.split(',').includes(language))
    throw new LocalModelError(`The model ${name} does not know the language ${JSON.stringify(language)}; choose another language or model.`);
  return language;
}

export async function openJobModel(registry: ModelRegistry, speechModels: readonly string[] | null, languageCode: string): Promise<SherpaRecognizer | null> {
  // A job that names an AssemblyAI model runs the best installed model for its language (none fits: PocketSphinx).
  const name = jobModelName(speechModels) ?? (await cloudModelChoice(registry, speechModels, languageCode))?.id;
  if (!name) return null;
  try {
    const manifest = await registry.find(name);
    if (!manifest) throw new ModelNotInstalledError(name);
    const language = manifest.family === 'whisper' ? await jobWhisperLanguage(registry, name, languageCode) : undefined;
    const rec = await registry.recognizer(name, language);
    await rec.prewarm();
    return rec;
  } catch (err) {
    if (err instanceof ModelNotInstalledError || err instanceof ModelFileError || err instanceof LocalModelError) throw new LocalModelError(err.message);
    throw err;
  }
}
