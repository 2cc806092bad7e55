/** A watched file's subtitles, written next to it (talk.mp4 → talk.srt, talk.vtt) from the same cues every export uses. */
import { existsSync } from 'node:fs';
import { dirname, extname, basename, join } from 'node:path';
import type { WatchOptions } from '../../../shared/ipc/watch';
import { writeFileAtomic } from '../library/atomic-write';
import type { Library } from '../library/library';

/** The name beside `media` for `format`; a file of that name the user already has is kept, ours goes beside it. */
function targetName(media: string, format: 'srt' | 'vtt'): string {
  const stem = basename(media, extname(media));
  const plain = join(dirname(media), `${stem}.${format}`);
  return existsSync(plain) ? join(dirname(media), `${stem} (Verbatim).${format}`) : plain;
}

export async function writeSubtitlesBeside(library: Library, recordingId: string, media: string, which: WatchOptions['subtitles']): Promise<string[]> {
  const formats: ('srt' | 'vtt')[] = which === 'both' ? ['srt', 'vtt'] : which === 'none' ? [] : [which];
  const written: string[] = [];
  for (const format of formats) {
    const file = library.exports.render(recordingId, format);
    const target = targetName(media, format);
    await writeFileAtomic(target, file.content);
    written.push(target);
  }
  return written;
}
