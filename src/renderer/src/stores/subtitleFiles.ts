/**
 * What the Subtitles features ask of main besides the open document: a picked
 * subtitle file added to the library as a new item (the desktop hands main
 * paths, a browser uploads the media first), and a recording's waveform peaks.
 */
import type { SubtitleFile } from '../lib/subtitleFile';
import { api, electronPathFor, transport, uploadFile, type FileSource, type UploadProgress } from '../bridge';
import { AppError } from '../../../shared/errors';
import { CUE_LIMITS } from '../../../shared/subtitles/limits';

export type ImportedItem = { id: string; cues: number; media: string | null; problems: { line: number; message: string }[] };

/**
 * A subtitle file as main takes it: a big one by reference (its path on the desktop, else uploaded), so its
 * text never crosses the request channel, where main would parse 8 MB (200,000 cues) on its event loop; main
 * reads and decodes the file as readPicked did. A small one as its text.
 */
export async function subtitleSource(
  sub: Pick<SubtitleFile, 'name' | 'text' | 'file'>,
  signal?: AbortSignal,
): Promise<{ file: FileSource } | { content: string }> {
  if (sub.text.length <= CUE_LIMITS.inlineChars) return { content: sub.text };
  const path = sub.file ? electronPathFor(sub.file) : null;
  if (path) return { file: { kind: 'path', path } };
  if (transport === 'electron')
    throw new AppError(
      'file_unreadable',
      `“${sub.name}” is too big to add from where it was dragged. Save it to a folder, then choose it with Import subtitles.`,
    );
  return { file: await uploadFile(sub.file ?? new File([sub.text], sub.name), () => undefined, signal) };
}

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
    // A picked file goes by its path, so main can also find the video beside it.
    ...(subtitlePath ? { file: { kind: 'path' as const, path: subtitlePath } } : await subtitleSource(sub, signal)),
    ...(source ? { media: source } : {}),
  });
}

/** The recording's stored waveform peaks (computed once by main with ffmpeg): signed bytes in base64. */
export const peaksOf = (id: string) => api.invoke('subtitles.peaks', { id });
