/** A subtitle file added to the library as a new item, with its video or audio: the desktop hands main paths, a browser uploads the media first. */
import { api, electronPathFor, uploadFile, type UploadProgress } from '../../bridge';

export interface SubtitleFile {
  name: string;
  text: string;
  /** The picked file itself: on the desktop, main looks beside it for a same-named video. */
  file?: File;
}

export async function importAsItem(
  sub: SubtitleFile,
  media: File | null,
  onProgress: (p: UploadProgress) => void,
  signal?: AbortSignal,
): Promise<{ id: string; cues: number; media: string | null; problems: { line: number; message: string }[] }> {
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
