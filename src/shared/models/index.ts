/** The whole downloadable catalog (speech, speakers, chat) and lookups by id and task. */
export * from './catalog';
export * from './view';
export { SPEECH_MODELS, DEFAULT_FILES_MODEL, SMALL_FILES_MODEL, DEFAULT_LIVE_MODEL } from './speech';
export { SPEAKER_MODELS } from './speakers';
export { CHAT_MODELS } from './chat';
export { CATALOG, catalogEntry, catalogForTask } from './lookup';
