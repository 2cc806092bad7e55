/**
 * What the Subtitles features ask of main besides the open document: a picked
 * subtitle file added to the library as a new item (the desktop hands main
 * paths, a browser uploads the media first), and a recording's waveform peaks.
 */
import type { SubtitleFile } from '../lib/subtitleFile';
import { api, electronPathFor, uploadFile, type UploadProgress } from '../bridge';

export type ImportedItem = { id: string; cues: number; media: string | null; problems: { line: number; message: string }[] };

export async function importAsItem(
  sub: SubtitleFile,
  media: File | null,
  onProgress: (p: UploadProgress) => void,
  signal?: AbortSignal,
): Promise<ImportedItem> {
  const subtitlePath = sub.file ? electronPathFor(sub.file) : null;
  let source: { kind: 'path'; path: string } | { kind: 'upload'; uploadId: string; name: string } | undefined;
  if (media) {
    const s = await uploadFile(media, onProgress, signal);
    source = s.kind === 'path' ? s : { kind: 'upload', uploadId: s.uploadId, name: media.name };
  }
  return api.invoke('subtitles.importNew', {
    name: sub.name,
    content: sub.text,
    ...(subtitlePath ? { subtitlePath } : {}),
    ...(source ? { media: source } : {}),
  });
}

/** The recording's stored waveform peaks (computed once by main with ffmpeg): signed bytes in base64. */
export const peaksOf = (id: string) => api.invoke('subtitles.peaks', { id });
