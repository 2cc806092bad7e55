/** The blocks a transcript is read in: the service's paragraphs, else its sentences, else runs of words. */
import type { Span, Transcript } from '../../../../shared/library';

export interface Block {
  first: number;
  last: number;
  start: number;
  speaker: string | null;
}

const RUN = 80;

export function blocksOf(t: Transcript): Block[] {
  const spans: Span[] = t.paragraphs.length ? t.paragraphs : t.sentences;
  if (spans.length) {
    return spans
      .filter((s) => s.lastWord >= s.firstWord && s.firstWord < t.words.length)
      .map((s) => ({ first: s.firstWord, last: Math.min(s.lastWord, t.words.length - 1), start: s.start, speaker: s.speaker }));
  }
  const out: Block[] = [];
  for (let i = 0; i < t.words.length; i += RUN) {
    const w = t.words[i];
    if (!w) break;
    out.push({ first: i, last: Math.min(t.words.length - 1, i + RUN - 1), start: w.start, speaker: w.speaker });
  }
  return out;
}

/** Whether block `i` says its speaker's name: not when the block before is the same speaker's (one heading per run). */
export function saysSpeaker(blocks: readonly Block[], i: number): boolean {
  const b = blocks[i];
  return !!b?.speaker && blocks[i - 1]?.speaker !== b.speaker;
}

/** Index of the block holding word `i` (blocks are in order). */
export function blockOf(blocks: readonly Block[], i: number): number {
  let lo = 0;
  let hi = blocks.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const b = blocks[mid] as Block;
    if (i < b.first) hi = mid - 1;
    else if (i > b.last) lo = mid + 1;
    else return mid;
  }
  return Math.max(0, Math.min(blocks.length - 1, lo));
}

/** Plain text with speaker names, for copying. */
export function plainText(t: Transcript, blocks: readonly Block[]): string {
  const names = new Map(t.speakers.map((s) => [s.id, s.name ?? `Speaker ${s.id}`]));
  return blocks
    .map((b) => {
      const text = t.words
        .slice(b.first, b.last + 1)
        .map((w) => w.text)
        .join(' ');
      return b.speaker ? `${names.get(b.speaker) ?? `Speaker ${b.speaker}`}: ${text}` : text;
    })
    .join('\n\n');
}
