/** The engine's models: the one reader of the models folder (folder.ts) and the one chooser between built-in and installed models (choose.ts). */
export { ModelFileError, ModelsFolder, modelFile, type BrokenModel, type InstalledModel } from './folder';
export {
  isMultilingual,
  jobModelName,
  namedLocalModels,
  notInstalled,
  requestLanguage,
  resolveSpeechModels,
  runsPocketsphinx,
  type SpeechModels,
} from './choose';
export { unknownWhisperLanguage, whisperLanguage, WHISPER_LANGUAGES } from './whisper-languages';
