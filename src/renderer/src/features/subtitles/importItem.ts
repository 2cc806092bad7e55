/** A subtitle file added to the library as a new item, with its video or audio: the desktop hands main paths, a browser uploads the media first. */
import { readSubtitleFile, refuseNotText, SNIFF_BYTES, type SubtitleFileCheck } from '../../../../shared/subtitles/index';
import { api, electronPathFor, uploadFile, type UploadProgress } from '../../bridge';

export interface SubtitleFile {
  name: string;
  /** The file's text as decoded (empty when it is not text). */
  text: string;
  /** The picked file itself: on the desktop, main looks beside it for a same-named video. */
  file?: File;
  /** What reading it found: refused (not text, or no cue) or parsed with its encoding and fix-ups. */
  check: SubtitleFileCheck;
}

/** Reads a picked file: its first bytes first, so a video chosen by mistake is refused without reading all of it. */
export async function readPicked(f: File): Promise<SubtitleFile> {
  const refused = refuseNotText(f.name, new Uint8Array(await f.slice(0, SNIFF_BYTES).arrayBuffer()));
  if (refused) return { name: f.name, text: '', file: f, check: refused };
  const check = readSubtitleFile(f.name, new Uint8Array(await f.arrayBuffer()));
  return { name: f.name, text: check.ok ? check.text : '', file: f, check };
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
