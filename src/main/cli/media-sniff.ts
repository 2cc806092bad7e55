/**
 * Whether a file looks like audio or video by its first bytes (its container's signature), so a
 * text file named on the command line gets its own clear error at once instead of a failed job.
 */
import { open, readdir, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { mediaKindOf } from '../../shared/media-files';

const ascii = (b: Buffer, at: number, s: string) => b.length >= at + s.length && b.toString('latin1', at, at + s.length) === s;

export function looksLikeMedia(b: Buffer): boolean {
  if (b.length < 4) return false;
  if (['RIFF', 'RIFX', 'ID3', 'fLaC', 'OggS', 'FORM', 'caff', '#!AMR', 'FLV', 'wvpk', 'MAC ', '.snd'].some((s) => ascii(b, 0, s))) return true;
  // ISO media (mp4, m4a, mov, 3gp): a box type at byte 4.
  if (['ftyp', 'moov', 'mdat', 'free', 'wide', 'skip'].some((s) => ascii(b, 4, s))) return true;
  // Matroska / WebM (EBML), ASF (wma, wmv), MPEG program stream.
  if (b.readUInt32BE(0) === 0x1a45dfa3 || b.readUInt32BE(0) === 0x3026b275 || b.readUInt32BE(0) === 0x000001ba) return true;
  // MPEG transport stream: a sync byte every 188 bytes.
  if (b[0] === 0x47 && (b.length < 189 || b[188] === 0x47)) return true;
  // MPEG audio (mp3, mp2) and ADTS AAC frame sync; AC-3.
  if (b[0] === 0xff && ((b[1] ?? 0) & 0xe0) === 0xe0) return true;
  if (b[0] === 0x0b && b[1] === 0x77) return true;
  return false;
}

export async function sniffFile(path: string): Promise<boolean> {
  const fh = await open(path, 'r');
  try {
    const buf = Buffer.alloc(512);
    const { bytesRead } = await fh.read(buf, 0, buf.length, 0);
    return looksLikeMedia(buf.subarray(0, bytesRead));
  } finally {
    await fh.close();
  }
}

export interface Wanted {
  path: string;
  /** Why it cannot be transcribed, or null. */
  problem: string | null;
}

/** The files the arguments name: a file as it is, a folder's media files (by extension, one level, sorted). */
export async function collectFiles(args: readonly string[]): Promise<Wanted[]> {
  const out: Wanted[] = [];
  for (const arg of args) {
    const path = resolve(arg);
    let st;
    try {
      st = await stat(path);
    } catch {
      out.push({ path, problem: 'no such file or folder' });
      continue;
    }
    if (st.isDirectory()) {
      const names = (await readdir(path, { withFileTypes: true })).filter((d) => d.isFile() && !d.name.startsWith('.') && mediaKindOf(d.name));
      for (const d of names.sort((a, b) => a.name.localeCompare(b.name))) out.push({ path: join(path, d.name), problem: null });
    } else if (!st.isFile()) out.push({ path, problem: 'not a regular file' });
    else out.push({ path, problem: null });
  }
  for (const w of out) {
    if (w.problem) continue;
    try {
      if (!(await sniffFile(w.path))) w.problem = 'not an audio or video file Verbatim can read (nothing was sent)';
    } catch (e) {
      w.problem = `cannot be read (${(e as NodeJS.ErrnoException).code ?? String(e)})`;
    }
  }
  return out;
}
