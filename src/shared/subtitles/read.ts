/**
 * A file picked for "Import subtitles…", checked before anything is added:
 * a file that is not text is refused in one sentence naming what it is (and
 * whether it could be transcribed instead), a text file with no cue at all
 * says so in one sentence, and a subtitle file is decoded and parsed, with
 * its encoding and what was fixed up on the way listed for the summary.
 */
import { decodeSubtitleBytes, notSubtitlesMessage, sniffNotText, type NotTextKind, type SubtitleEncoding } from './decode';
import { parseSubtitles, type ParsedSubtitles } from './parse';

/** Bytes enough to tell a file that is not text (the first 8 KB). */
export const SNIFF_BYTES = 8192;

export type SubtitleFileCheck =
  | { ok: false; kind: NotTextKind | 'no-cues'; /** Audio or video: it can be transcribed instead. */ media: boolean; message: string }
  | {
      ok: true;
      text: string;
      encoding: SubtitleEncoding;
      parsed: ParsedSubtitles;
      /** The encoding, then each fix-up, one sentence each. */ summary: string[];
    };

/** Step one, from the first bytes alone: null when the file is text, else the refusal. */
export function refuseNotText(name: string, head: Uint8Array): SubtitleFileCheck | null {
  const kind = sniffNotText(name, head);
  if (!kind) return null;
  return { ok: false, kind, media: kind === 'audio' || kind === 'video', message: notSubtitlesMessage(name, kind) };
}

function encodingSentence(encoding: SubtitleEncoding, bom: boolean): string {
  if (encoding === 'Windows-1252') return 'Read as Windows-1252 text (it is not valid UTF-8).';
  return `Read as ${encoding} text${bom ? ', as its byte-order mark says' : ''}.`;
}

export function readSubtitleFile(name: string, bytes: Uint8Array): SubtitleFileCheck {
  const refused = refuseNotText(name, bytes.subarray(0, SNIFF_BYTES));
  if (refused) return refused;
  const { text, encoding, bom } = decodeSubtitleBytes(bytes);
  const parsed = parseSubtitles(text);
  if (parsed.doc.cues.length === 0 && !text.includes('-->')) {
    return { ok: false, kind: 'no-cues', media: false, message: `${name} has no subtitle cues in it: no line like “00:00:01,000 --> 00:00:02,500” was found.` };
  }
  return { ok: true, text, encoding, parsed, summary: [encodingSentence(encoding, bom), ...parsed.fixes] };
}
