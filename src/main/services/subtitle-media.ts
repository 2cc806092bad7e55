/**
 * Which video or audio a subtitle file imported as a new library item plays
 * with: the file the user chose with it (picked on the desktop, or uploaded in
 * host mode), else, on the desktop, a same-named video or audio file beside
 * the subtitle file the user picked ("Movie.en.srt" finds "Movie.mp4").
 */
import { readdirSync, rmSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { AppError } from '../../shared/errors';
import { mediaKindOf } from '../../shared/media-files';
import type { PickedFiles } from './picked-files';

/** A media file to attach: `move` for a staged upload (the library takes it), else it is copied. */
export interface MediaChoice {
  path: string;
  name: string;
  move: boolean;
}

export type MediaRequest = { kind: 'path'; path: string } | { kind: 'upload'; uploadId: string; name: string };

export interface MediaDeps {
  picked: PickedFiles;
  /** Host mode's staging folder of `/upload`. */
  uploadsDir: string;
  /** Whether a job already uses this staged upload. */
  uploadInUse(path: string): boolean;
}

function notMedia(name: string): AppError {
  return new AppError(
    'unsupported_media',
    `“${name}” is not a video or audio file Verbatim can play. Choose a file such as MP4, MOV, MKV, MP3 or WAV, or import the subtitles without one. Nothing was added.`,
  );
}

function sizeOf(path: string, name: string): number {
  let st;
  try {
    st = statSync(path);
  } catch {
    throw new AppError('file_unreadable', `Verbatim cannot read “${name}”: it was moved or deleted. Choose it again. Nothing was added.`);
  }
  if (!st.isFile()) throw new AppError('file_unreadable', `“${name}” is not a file. Choose a video or audio file. Nothing was added.`);
  return st.size;
}

/** The media a request names, checked before anything is added; null when the subtitles come alone. */
export function chooseSubtitleMedia(req: { media?: MediaRequest; subtitlePath?: string }, deps: MediaDeps): MediaChoice | null {
  const m = req.media;
  if (m?.kind === 'upload') {
    const path = join(deps.uploadsDir, m.uploadId);
    if (deps.uploadInUse(path)) throw new AppError('conflict', 'That upload is already being transcribed. Choose the video or audio file again.');
    const size = (() => {
      try {
        return statSync(path).size;
      } catch {
        throw new AppError('not_found', `The upload of “${m.name}” is gone (Verbatim restarted, or it was used). Choose the file again.`);
      }
    })();
    if (!mediaKindOf(m.name) || size === 0) {
      // The staged bytes are of no use to anything else.
      rmSync(path, { force: true });
      throw notMedia(m.name);
    }
    return { path, name: m.name, move: true };
  }
  if (m?.kind === 'path') {
    const name = basename(m.path);
    // Only what the user picked or dropped: a path typed over IPC could name any file on this machine.
    if (!deps.picked.has(m.path))
      throw new AppError('forbidden', `Verbatim only attaches a video or audio file you picked or dropped. Choose “${name}” again.`);
    if (!mediaKindOf(name) || sizeOf(m.path, name) === 0) throw notMedia(name);
    return { path: m.path, name, move: false };
  }
  if (req.subtitlePath && deps.picked.has(req.subtitlePath)) return besideSubtitles(req.subtitlePath);
  return null;
}

/** A same-named video (else audio) file in the subtitle file's folder; a language tag (".en", ".eng", ".pt-BR") may sit between. */
function besideSubtitles(subtitlePath: string): MediaChoice | null {
  const dir = dirname(subtitlePath);
  const stem = basename(subtitlePath).replace(/\.[^.]+$/, '');
  const stems = [stem.toLowerCase()];
  const bare = stem.replace(/\.[A-Za-z]{2,3}(-[A-Za-z0-9]{2,4})?$/, '');
  if (bare !== stem && bare) stems.push(bare.toLowerCase());
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return null;
  }
  const found = names
    .map((name) => ({ name, kind: mediaKindOf(name), rank: stems.indexOf(name.replace(/\.[^.]+$/, '').toLowerCase()) }))
    .filter((f) => f.kind && f.rank >= 0)
    .filter((f) => {
      try {
        const st = statSync(join(dir, f.name));
        return st.isFile() && st.size > 0;
      } catch {
        return false;
      }
    })
    .sort((a, b) => a.rank - b.rank || (a.kind === b.kind ? a.name.localeCompare(b.name) : a.kind === 'video' ? -1 : 1));
  const best = found[0];
  return best ? { path: join(dir, best.name), name: best.name, move: false } : null;
}
