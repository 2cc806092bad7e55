/** SubRip (SRT) serialization. */
import type { Cue } from './types';

function pad(n: number, width = 2): string {
  return String(Math.floor(n)).padStart(width, '0');
}

/** `00:00:00,320` */
export function srtTime(ms: number): string {
  const t = Math.max(0, Math.round(ms));
  return `${pad(t / 3_600_000)}:${pad((t / 60_000) % 60)}:${pad((t / 1000) % 60)},${pad(t % 1000, 3)}`;
}

/** SRT has no voice tags: `<v Name>` is dropped (its other simple tags, <i> <b> <u>, are SRT's too). */
export function srtText(text: string): string {
  return text.replace(/<v(?:\.[^\s>]*)?(?:\s[^>]*)?>|<\/v>/g, '');
}

export interface SrtOptions {
  /** Name at each change of speaker ("Dana: …"), for cues that know their speaker. */
  speakerLabel?: ((speaker: string) => string) | undefined;
}

export function toSrt(cues: readonly Cue[], opts: SrtOptions = {}): string {
  let out = '';
  let last: string | null = null;
  for (let i = 0; i < cues.length; i++) {
    const c = cues[i]!;
    let text = srtText(c.text);
    const s = c.speaker ?? null;
    if (opts.speakerLabel && s !== null && s !== last && !text.startsWith('- ')) text = `${opts.speakerLabel(s)}: ${text}`;
    last = s;
    out += `${i + 1}\n${srtTime(c.start)} --> ${srtTime(c.end)}\n${text}\n\n`;
  }
  return out;
}
