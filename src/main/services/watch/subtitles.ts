/** A watched file's subtitles, written next to it (talk.mp4 → talk.srt, talk.vtt) from the same cues every export uses. */
import { existsSync } from 'node:fs';
import { realpath } from 'node:fs/promises';
import { dirname, extname, basename, join, sep } from 'node:path';
import { AppError } from '../../../shared/errors';
import type { WatchOptions } from '../../../shared/ipc/watch';
import { writeFileAtomic } from '../library/atomic-write';
import type { Library } from '../library/library';

/** The name beside `media` for `format`; a file of that name the user already has is kept, ours goes beside it. */
function targetName(media: string, format: 'srt' | 'vtt'): string {
  const stem = basename(media, extname(media));
  const plain = join(dirname(media), `${stem}.${format}`);
  return existsSync(plain) ? join(dirname(media), `${stem} (Verbatim).${format}`) : plain;
}

/**
 * Write them beside `media`, a file found in the watched folder `watched` (its real path). The folder the file
 * lies in is looked up again first: when it, or a folder on the way, has since become a link (or moved), or it
 * lies outside what may be written (`allowsFolder`: host mode's --folder, the files owner's folder rule), nothing
 * is written, so a folder swapped for a link after the file was taken never leads the subtitles elsewhere.
 */
export async function writeSubtitlesBeside(
  library: Library,
  recordingId: string,
  media: string,
  which: WatchOptions['subtitles'],
  place: { watched: string; allowsFolder(realDir: string): boolean },
): Promise<string[]> {
  const formats: ('srt' | 'vtt')[] = which === 'both' ? ['srt', 'vtt'] : which === 'none' ? [] : [which];
  const written: string[] = [];
  if (!formats.length) return written;
  const dir = dirname(media);
  const real = await realpath(dir).catch(() => null);
  const inWatched = real !== null && (real === place.watched || real.startsWith(place.watched.endsWith(sep) ? place.watched : place.watched + sep));
  if (real !== dir || !inWatched || !place.allowsFolder(real))
    throw new AppError(
      'forbidden',
      `The folder of “${basename(media)}” is no longer the watched folder it was found in (it was moved, or replaced by a link), so its subtitles were not written there. Export them from the library instead.`,
    );
  for (const format of formats) {
    const file = library.exports.render(recordingId, format);
    const target = targetName(media, format);
    await writeFileAtomic(target, file.content);
    written.push(target);
  }
  return written;
}
