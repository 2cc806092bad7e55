/** A subtitle file the user picked, read here (its encoding, its cues) before anything is sent to main. */
import { readSubtitleFile, refuseNotText, SNIFF_BYTES, type SubtitleFileCheck } from '../../../shared/subtitles/index';

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
