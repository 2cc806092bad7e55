/** Which file names are audio or video Verbatim can transcribe or play: one list for the drop, the pickers and main's checks. */

export const AUDIO_EXTENSIONS = [
  'mp3',
  'wav',
  'wave',
  'm4a',
  'aac',
  'flac',
  'ogg',
  'oga',
  'opus',
  'wma',
  'aif',
  'aiff',
  'amr',
  'mka',
  'caf',
  'weba',
  'spx',
  'mp2',
  'ac3',
];
export const VIDEO_EXTENSIONS = ['mp4', 'm4v', 'mov', 'mkv', 'webm', 'avi', 'wmv', 'mpg', 'mpeg', 'ts', 'mts', 'm2ts', 'flv', '3gp', 'ogv'];

/** The `accept` attribute of a file input for audio and video. */
export const mediaAcceptAttribute = ['audio/*', 'video/*', ...AUDIO_EXTENSIONS.map((e) => `.${e}`), ...VIDEO_EXTENSIONS.map((e) => `.${e}`)].join(',');

export function extensionOf(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? name;
  const dot = base.lastIndexOf('.');
  return dot > 0 ? base.slice(dot + 1).toLowerCase() : '';
}

/** 'audio' or 'video' by the name's extension, else null. */
export function mediaKindOf(name: string): 'audio' | 'video' | null {
  const ext = extensionOf(name);
  return AUDIO_EXTENSIONS.includes(ext) ? 'audio' : VIDEO_EXTENSIONS.includes(ext) ? 'video' : null;
}
