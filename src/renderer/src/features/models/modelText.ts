/** The words the Models screens use for a model's facts: task, languages, word times, accuracy, speed, download state. */
import type { CatalogEntry } from '../../../../shared/models/catalog';
import type { SpeedTest } from '../../../../shared/models/offer';
import type { DownloadStatus } from '../../../../shared/models/view';
import { formatBytes } from '../../components/format';

export const TASKS: Record<CatalogEntry['task'], string> = {
  files: 'Files',
  live: 'Live captions',
  segmentation: 'Speakers',
  embedding: 'Speakers',
  chat: 'Chat',
};

export const TIMINGS: Record<CatalogEntry['wordTimings'], string> = {
  words: 'Every word',
  segments: 'Per segment',
  none: 'None',
};

export const TIMINGS_LONG: Record<CatalogEntry['wordTimings'], string> = {
  words: 'A time for every word.',
  segments: 'Times per segment only; word times are approximate.',
  none: 'No times of its own; word times are approximate.',
};

const languageNames = new Intl.DisplayNames(['en'], { type: 'language' });
const languageName = (code: string) => {
  try {
    return languageNames.of(code) ?? code;
  } catch {
    return code;
  }
};

/** "English", "English, German", or "25 languages". */
export function languagesText(langs: string[]): string {
  return langs.length > 3 ? `${langs.length} languages` : langs.map(languageName).join(', ');
}

/** Every language by name, for the details. */
export function languagesLong(langs: string[]): string {
  return langs.map(languageName).join(', ');
}

export function hostOf(url: string): string {
  try {
    return new URL(url).host.replace(/^www\./, '');
  } catch {
    return url;
  }
}

/** A real-time factor (seconds of work per second of audio) as a reader takes it: 0.11 → "9× faster than real time", 2.5 → "2.5× slower than real time". */
export function rtfText(rtf: number): string {
  const times = (x: number, whole: number) => (x >= whole ? String(Math.round(x)) : String(Number(x.toFixed(1))));
  if (!(rtf > 0)) return 'faster than real time';
  if (rtf <= 1 / 1.05) return `${times(1 / rtf, 2)}× faster than real time`;
  if (rtf >= 1.05) return `${times(rtf, 10)}× slower than real time`;
  return 'about as fast as real time';
}

/** "1 min of audio in about 5 s", from a speed measured here. */
export function speedMeaning(s: SpeedTest): string {
  const perMinute = s.rtf * 60;
  return perMinute < 1 ? 'a minute of audio in under a second' : `a minute of audio in about ${Math.round(perMinute)} s`;
}

export const RUNNING = new Set<DownloadStatus['state']>(['queued', 'downloading', 'verifying', 'unpacking']);

/** The download's state in words; a paused one says where it stopped, with no estimate. */
export function stateText(d: DownloadStatus): string {
  switch (d.state) {
    case 'queued':
      return 'Starting…';
    case 'downloading':
      return `${formatBytes(d.bytes)} of ${formatBytes(d.total)}`;
    case 'paused':
      return `Paused at ${formatBytes(d.bytes)} of ${formatBytes(d.total)}`;
    case 'verifying':
      return 'Checking the download…';
    case 'unpacking':
      return 'Unpacking…';
    default:
      return '';
  }
}

/** The download worth showing for a row: running, paused, or failed (not an old failure of a model installed since). */
export function activeDownload(d: DownloadStatus | null | undefined, installed: boolean): DownloadStatus | null {
  if (!d) return null;
  if (RUNNING.has(d.state) || d.state === 'paused') return d;
  if (d.state === 'failed' && !installed) return d;
  return null;
}
