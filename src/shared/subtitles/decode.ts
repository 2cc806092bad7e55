/**
 * A subtitle file's bytes as text, the way the file was written: a UTF-8,
 * UTF-16LE or UTF-16BE byte-order mark is honoured; without one, UTF-8 when the
 * bytes are valid UTF-8, else Windows-1252 (what older Windows tools wrote).
 * Before that, a file that is not text at all (audio, video, an image, an
 * archive) is recognised by its first bytes, so it is refused by name.
 */

export type SubtitleEncoding = 'UTF-8' | 'UTF-16LE' | 'UTF-16BE' | 'Windows-1252';

export interface DecodedSubtitles {
  /**
   * The characters, a leading byte-order mark included as U+FEFF: the parser
   * drops exactly one (parse.ts), wherever the text is parsed again (main
   * parses what the renderer read), so a second mark is never lost on the way.
   */
  text: string;
  encoding: SubtitleEncoding;
  /** The file began with a byte-order mark. */
  bom: boolean;
}

/** Windows-1252's 0x80–0x9F (the rest of its bytes are Latin-1); undefined bytes stay as their C1 code points. */
const CP1252_HIGH = [
  0x20ac, 0x81, 0x201a, 0x0192, 0x201e, 0x2026, 0x2020, 0x2021, 0x02c6, 0x2030, 0x0160, 0x2039, 0x0152, 0x8d, 0x017d, 0x8f, 0x90, 0x2018, 0x2019, 0x201c,
  0x201d, 0x2022, 0x2013, 0x2014, 0x02dc, 0x2122, 0x0161, 0x203a, 0x0153, 0x9d, 0x017e, 0x0178,
];

function windows1252(bytes: Uint8Array): string {
  let out = '';
  for (let i = 0; i < bytes.length; i += 8192) {
    const chunk = bytes.subarray(i, i + 8192);
    out += String.fromCharCode(...Array.from(chunk, (b) => (b >= 0x80 && b <= 0x9f ? CP1252_HIGH[b - 0x80]! : b)));
  }
  return out;
}

export function decodeSubtitleBytes(bytes: Uint8Array): DecodedSubtitles {
  // ignoreBOM: TextDecoder would otherwise drop the mark, and a second one after it too when given the rest.
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf)
    return { text: new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes), encoding: 'UTF-8', bom: true };
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return { text: new TextDecoder('utf-16le', { ignoreBOM: true }).decode(bytes), encoding: 'UTF-16LE', bom: true };
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return { text: new TextDecoder('utf-16be', { ignoreBOM: true }).decode(bytes), encoding: 'UTF-16BE', bom: true };
  try {
    return { text: new TextDecoder('utf-8', { fatal: true }).decode(bytes), encoding: 'UTF-8', bom: false };
  } catch {
    return { text: windows1252(bytes), encoding: 'Windows-1252', bom: false };
  }
}

/** What a file that is not text is, from its first bytes. */
export type NotTextKind = 'audio' | 'video' | 'an image' | 'an archive' | 'a PDF document' | 'a binary file';

const ascii = (b: Uint8Array, at: number, s: string): boolean => {
  for (let i = 0; i < s.length; i++) if (b[at + i] !== s.charCodeAt(i)) return false;
  return true;
};

/** Video or audio by its file name, for files whose first bytes say nothing (raw MPEG streams). */
const MEDIA_EXT: Record<string, 'audio' | 'video'> = {
  wav: 'audio',
  mp3: 'audio',
  m4a: 'audio',
  aac: 'audio',
  flac: 'audio',
  ogg: 'audio',
  oga: 'audio',
  opus: 'audio',
  wma: 'audio',
  aiff: 'audio',
  aif: 'audio',
  mp4: 'video',
  m4v: 'video',
  mov: 'video',
  mkv: 'video',
  webm: 'video',
  avi: 'video',
  wmv: 'video',
  mpg: 'video',
  mpeg: 'video',
  ts: 'video',
};

/**
 * Null for text (UTF-16 with a BOM included); else what the file is. Text is
 * recognised by the absence of NUL and of most other control bytes in its
 * first 8 KB; formats are told by their signatures.
 */
export function sniffNotText(name: string, bytes: Uint8Array): NotTextKind | null {
  const b = bytes;
  if ((b[0] === 0xff && b[1] === 0xfe) || (b[0] === 0xfe && b[1] === 0xff)) return null;
  if (ascii(b, 0, 'RIFF') && ascii(b, 8, 'WAVE')) return 'audio';
  if (ascii(b, 0, 'RIFF') && ascii(b, 8, 'AVI ')) return 'video';
  if (ascii(b, 0, 'FORM') && (ascii(b, 8, 'AIFF') || ascii(b, 8, 'AIFC'))) return 'audio';
  if (ascii(b, 0, 'ID3') || ascii(b, 0, 'fLaC') || (b[0] === 0xff && ((b[1] ?? 0) & 0xe0) === 0xe0 && b.length > 4 && !isText(b))) return 'audio';
  if (ascii(b, 0, 'OggS')) return /\.(ogv|webm)$/i.test(name) ? 'video' : 'audio';
  if (ascii(b, 4, 'ftyp')) return ascii(b, 8, 'M4A ') || ascii(b, 8, 'M4B ') ? 'audio' : 'video';
  if (b[0] === 0x1a && b[1] === 0x45 && b[2] === 0xdf && b[3] === 0xa3) return 'video';
  if (b[0] === 0x30 && b[1] === 0x26 && b[2] === 0xb2 && b[3] === 0x75) return /\.wma$/i.test(name) ? 'audio' : 'video';
  if (b[0] === 0x00 && b[1] === 0x00 && b[2] === 0x01 && ((b[3] ?? 0) === 0xba || (b[3] ?? 0) === 0xb3)) return 'video';
  if (b[0] === 0x47 && b[188] === 0x47 && !isText(b)) return 'video';
  if (ascii(b, 0, '\x89PNG') || (b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) || ascii(b, 0, 'GIF8') || (ascii(b, 0, 'RIFF') && ascii(b, 8, 'WEBP')))
    return 'an image';
  if (ascii(b, 0, '%PDF')) return 'a PDF document';
  if (ascii(b, 0, 'PK\x03\x04') || (b[0] === 0x1f && b[1] === 0x8b) || ascii(b, 0, '7z\xbc\xaf') || ascii(b, 0, 'Rar!')) return 'an archive';
  if (isText(b)) return null;
  const ext = /\.([a-z0-9]+)$/i.exec(name)?.[1]?.toLowerCase() ?? '';
  return MEDIA_EXT[ext] ?? 'a binary file';
}

/** No NUL byte and at most 1 in 100 other control bytes (tab, line ends and form feed allowed) in the first 8 KB. */
function isText(b: Uint8Array): boolean {
  const n = Math.min(b.length, 8192);
  let control = 0;
  for (let i = 0; i < n; i++) {
    const c = b[i]!;
    if (c === 0) return false;
    if (c < 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d && c !== 0x0c) control++;
  }
  return control * 100 <= n;
}

/** One sentence: "a.wav is audio, not subtitles." */
export function notSubtitlesMessage(name: string, kind: NotTextKind): string {
  return `${name} is ${kind}, not subtitles.`;
}
