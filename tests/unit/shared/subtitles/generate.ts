/** Long, varied transcripts for the captions property checks: sentences of 2–30 words, names, commas, speakers, pauses. */
import type { TimedWord } from '../../../../src/shared/subtitles/index';

const vocab =
  'the a of and to in we is that it for on with as this was at by be are from or have an they which one you had not but what all were when there can more if out so said up about into than then time could now only like other people just know see two first well way even new want because any these give day most us market budget quarter interview research transcript recording meeting customer product launch design engineering schedule review project team report data model speech audio question answer extraordinarily'.split(
    ' ',
  );
const names = ['Dana Whitfield', 'Jonas Berg', 'Amira Haddad', 'New York'];

export function rng(seed: number): () => number {
  let s = seed;
  return () => {
    s = (s * 1103515245 + 12345) & 0x7fffffff;
    return s / 0x7fffffff;
  };
}

export function longTranscript(n: number, seed = 7, speakers: string[] = ['A', 'B']): TimedWord[] {
  const r = rng(seed);
  const out: TimedWord[] = [];
  let t = 250;
  let speaker = speakers[0] ?? null;
  let left = 0;
  while (out.length < n) {
    if (left === 0) {
      left = 2 + Math.floor(r() * 28);
      if (speakers.length > 1 && r() < 0.25) speaker = speakers[Math.floor(r() * speakers.length)]!;
    }
    const name = r() < 0.03 ? names[Math.floor(r() * names.length)]! : null;
    const texts = name ? name.split(' ') : [vocab[Math.floor(r() * vocab.length)]!];
    for (const text0 of texts) {
      let text = text0;
      left--;
      const first = out.length === 0 || /[.?!]$/.test(out[out.length - 1]!.text);
      if (first) text = text[0]!.toUpperCase() + text.slice(1);
      if (left <= 0) text += r() < 0.8 ? '.' : '?';
      else if (r() < 0.08) text += ',';
      // Fast talkers sometimes: 120 ms words.
      const dur = r() < 0.1 ? 120 + Math.floor(r() * 60) : 180 + Math.floor(r() * 300);
      out.push({ text, start: t, end: t + dur, speaker });
      t += dur + 30 + Math.floor(r() * 90) + (left <= 0 && r() < 0.3 ? 800 + Math.floor(r() * 2500) : 0);
      if (left <= 0) left = 0;
    }
  }
  return out;
}
