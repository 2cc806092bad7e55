/**
 * Which video or audio a subtitle file imported as a new library item plays with: the file the user
 * chose with it (picked on the desktop, or uploaded in host mode), else a same-named video or audio
 * file beside the subtitle file the user picked ("Movie.en.srt" finds "Movie.mp4"). Every one goes
 * through the one check (refs.ts), the one found beside too, and the library takes a staged copy.
 */
import { readdir, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { AppError } from '../../../shared/errors';
import type { FileRef } from '../../../shared/ipc/files';
import { mediaKindOf } from '../../../shared/media-files';
import type { OpenedFile, UserFiles } from './refs';

/** A media file to attach: a staged file the library moves into its audio folder. */
export interface MediaChoice {
  path: string;
  name: string;
  move: true;
}

const NOTHING = 'Nothing was added.';

function notMedia(name: string): AppError {
  return new AppError(
    'unsupported_media',
    `“${name}” is not a video or audio file Verbatim can play. Choose a file such as MP4, MOV, MKV, MP3 or WAV, or import the subtitles without one. ${NOTHING}`,
  );
}

/** `found`: a file found beside the subtitles, not one the user chose: an empty one is passed over. */
async function staged(files: UserFiles, f: OpenedFile, found = false): Promise<MediaChoice | null> {
  try {
    if (found && f.size === 0) return null;
    if (!mediaKindOf(f.name) || f.size === 0) {
      // The staged bytes are of no use to anything else.
      if (f.staged) await rm(f.path, { force: true });
      throw notMedia(f.name);
    }
    return { path: await files.stagedCopy(f), name: f.name, move: true };
  } finally {
    await f.close();
  }
}

/** The media a request names, checked before anything is added; null when the subtitles come alone. */
export async function chooseSubtitleMedia(req: { media?: FileRef; subtitle?: FileRef }, files: UserFiles): Promise<MediaChoice | null> {
  const m = req.media;
  if (m) return staged(files, await files.open(m, { requirePicked: true, notAJobsUpload: true, nothing: NOTHING }));
  if (req.subtitle?.kind !== 'path') return null;
  const beside = await besideSubtitles(req.subtitle.path);
  // What lies beside a picked file is the user's own folder; in host mode the check keeps it inside --folder, links included.
  return beside ? staged(files, await files.openPath(beside, { nothing: NOTHING }), true) : null;
}

/** A same-named video (else audio) file in the subtitle file's folder; a language tag (".en", ".eng", ".pt-BR") may sit between. */
async function besideSubtitles(subtitlePath: string): Promise<string | null> {
  const dir = dirname(subtitlePath);
  const stem = basename(subtitlePath).replace(/\.[^.]+$/, '');
  const stems = [stem.toLowerCase()];
  const bare = stem.replace(/\.[A-Za-z]{2,3}(-[A-Za-z0-9]{2,4})?$/, '');
  if (bare !== stem && bare) stems.push(bare.toLowerCase());
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => null);
  if (!entries) return null;
  const found = entries
    // A link is a candidate too: the check decides where it may lead.
    .filter((d) => d.isFile() || d.isSymbolicLink())
    .map((d) => ({ name: d.name, kind: mediaKindOf(d.name), rank: stems.indexOf(d.name.replace(/\.[^.]+$/, '').toLowerCase()) }))
    .filter((f) => f.kind && f.rank >= 0)
    .sort((a, b) => a.rank - b.rank || (a.kind === b.kind ? a.name.localeCompare(b.name) : a.kind === 'video' ? -1 : 1));
  const best = found[0];
  return best ? join(dir, best.name) : null;
}
