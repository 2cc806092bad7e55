/**
 * Subtitles: cue building from timed words by rules profiles, line breaking,
 * the rules check and its fixes, SRT/VTT parse and serialize, cue edits and
 * the editor's command registry. Used by the engine's /srt and /vtt, the
 * library's exports and the subtitle editor. Pure TypeScript.
 */
export * from './types';
export * from './profiles';
export * from './lines';
export * from './build';
export * from './srt';
export * from './vtt';
export * from './parse';
export * from './decode';
export * from './display';
export * from './read';
export * from './operations';
export * from './check';
export * from './history';
export * from './commands';
