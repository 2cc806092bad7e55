/**
 * Cue building from timed words by a rules profile: where cues start and end
 * (sentence ends, pauses, speaker turns, the best break when a cue is full),
 * their lines, and their timing (lead-out into silence, minimum duration and
 * gap). The engine's /srt and /vtt and the editor's "Reset to generated" use it.
 */
import { breakPenalty, endsSentence, layoutCue, readingChars } from './lines';
import { charsPerCaptionProfile, defaultProfile, type RulesProfile } from './profiles';
import type { Cue, TimedWord } from './types';

export interface BuildOptions {
  /** Cues never span two speakers, except a short turn answered in one two-line dialogue cue (each line with "- "). */
  speakers?: boolean;
}

/** Word ranges [first, last] of each cue. */
function group(words: readonly TimedWord[], p: RulesProfile, speakers: boolean): [number, number][] {
  const n = words.length;
  const capacity = p.maxCharsPerLine * p.maxLines;
  // Characters from word i to the end of its sentence: whether the next sentence fits whole.
  const sentenceRest = new Array<number>(n + 1).fill(0);
  // Whether each word ends a sentence, asked once per word rather than at every look.
  const ends = new Uint8Array(n);
  for (let i = n - 1; i >= 0; i--) {
    const w = words[i]!;
    ends[i] = endsSentence(w.text) ? 1 : 0;
    sentenceRest[i] = w.text.length + (ends[i] || i === n - 1 ? 0 : 1 + sentenceRest[i + 1]!);
  }
  const out: [number, number][] = [];
  let first = 0;
  let chars = 0;
  const speakerOf = (i: number): string | null => (speakers ? (words[i]!.speaker ?? null) : null);
  const parts = (a: number, b: number): string[][] => {
    const ps: string[][] = [];
    let last: string | null | undefined;
    for (let i = a; i <= b; i++) {
      const s = speakerOf(i);
      if (s !== last || ps.length === 0) ps.push([]);
      ps[ps.length - 1]!.push(words[i]!.text);
      last = s;
    }
    return ps;
  };
  const fits = (a: number, b: number, len: number): boolean => {
    const oneSpeaker = !speakers || speakerOf(a) === speakerOf(b);
    if (len <= p.maxCharsPerLine && oneSpeaker) return true;
    if (len > capacity) return false;
    if (!oneSpeaker) return layoutCue(parts(a, b), p.maxCharsPerLine, p.maxLines) !== null;
    // Greedy wrapping uses the fewest lines, so it decides whether any layout fits.
    let lines = 1;
    let cur = -1;
    for (let i = a; i <= b; i++) {
      const l = words[i]!.text.length;
      if (l > p.maxCharsPerLine) return false;
      if (cur + 1 + l > p.maxCharsPerLine) {
        if (++lines > p.maxLines) return false;
        cur = l;
      } else cur += 1 + l;
    }
    return true;
  };
  for (let i = 0; i < n; i++) {
    const w = words[i]!;
    if (i > first) {
      const prev = words[i - 1]!;
      const turn = speakers && speakerOf(i) !== speakerOf(i - 1);
      // A short single turn may be answered in the same cue as dialogue.
      const dialogue = turn && words[i - 1]!.end - words[first]!.start < p.minDurationMs && ends[i - 1] && speakerOf(first) === speakerOf(i - 1);
      const added = chars + 1 + w.text.length;
      const pause = w.start - prev.end >= p.pauseMs;
      const tooLong = w.end - words[first]!.start > p.maxDurationMs;
      if (pause || (turn && !dialogue)) {
        out.push([first, i - 1]);
        first = i;
        chars = 0;
      } else if (tooLong || !fits(first, i, added)) {
        // Full: end the cue at the best break among its words, carrying the rest on.
        let best = i;
        let bestScore = Infinity;
        const tokens = words.slice(first, i + 1).map((x) => x.text);
        let rest = -1;
        for (let j = i; j > first; j--) {
          rest += words[j]!.text.length + 1;
          if (!fits(j, i, rest) || words[i]!.end - words[j]!.start > p.maxDurationMs) break;
          const score = breakPenalty(tokens, j - first) + ((i - j) / (i - first + 1)) * 60;
          if (score < bestScore) {
            bestScore = score;
            best = j;
          }
        }
        out.push([first, best - 1]);
        first = best;
        chars = -1;
        for (let k = best; k <= i; k++) chars += words[k]!.text.length + 1;
        continue;
      } else {
        chars = added;
        if (!ends[i]) continue;
      }
    } else chars = w.text.length;
    // A sentence ends here: end the cue unless it is short and the next sentence fits whole.
    if (ends[i] && i + 1 < n) {
      const long = w.end - words[first]!.start >= p.minDurationMs;
      const nextFits = chars + 1 + sentenceRest[i + 1]! <= (speakers && speakerOf(i + 1) !== speakerOf(i) ? 0 : capacity);
      if (long && (chars >= capacity / 2 || !nextFits)) {
        out.push([first, i]);
        first = i + 1;
        chars = 0;
      }
    }
  }
  if (first < n) out.push([first, n - 1]);
  return out;
}

/** Cues from words by a rules profile. Every word is in exactly one cue; cues are in time order and do not overlap. */
export function buildCuesWith(words: readonly TimedWord[], profile: RulesProfile = defaultProfile, opts: BuildOptions = {}): Cue[] {
  const speakers = opts.speakers ?? words.some((w) => w.speaker != null);
  const ranges = group(words, profile, speakers);
  const cues: Cue[] = [];
  for (const [a, b] of ranges) {
    const ps: string[][] = [];
    let last: string | null | undefined;
    for (let i = a; i <= b; i++) {
      const s = speakers ? (words[i]!.speaker ?? null) : null;
      if (s !== last || ps.length === 0) ps.push([]);
      ps[ps.length - 1]!.push(words[i]!.text);
      last = s;
    }
    // A single word longer than a line cannot be broken: it stands alone on its line.
    const lines = layoutCue(ps, profile.maxCharsPerLine, profile.maxLines) ?? [ps.map((x) => x.join(' ')).join(' ')];
    cues.push({ start: words[a]!.start, end: words[b]!.end, text: lines.join('\n'), words: [a, b], speaker: words[a]!.speaker ?? null });
  }
  return retime(cues, profile);
}

/**
 * Timing by the rules: a cue stays up to `leadOutMs` into the silence after it
 * (longer when reading speed or the minimum duration needs it), and ends at
 * least `minGapMs` before the next one starts.
 */
export function retime(cues: Cue[], p: RulesProfile): Cue[] {
  for (let k = 0; k < cues.length; k++) {
    const c = cues[k]!;
    const next = cues[k + 1];
    const limit = next ? next.start - p.minGapMs : Number.POSITIVE_INFINITY;
    const natural = c.end;
    const needForReading = Number.isFinite(p.maxCps) ? Math.ceil((readingChars(c.text) / p.maxCps) * 1000) : 0;
    let end = natural + p.leadOutMs;
    end = Math.max(end, c.start + p.minDurationMs, Math.min(c.start + needForReading, natural + p.leadOutMs * 2));
    end = Math.min(end, limit, c.start + Math.max(p.maxDurationMs, natural - c.start));
    c.end = Math.max(end, Math.min(natural, limit), c.start + 1);
    if (next && c.end > next.start) c.end = Math.max(c.start + 1, next.start);
  }
  return cues;
}

export interface CueOptions {
  /** The service's chars_per_caption: one line of at most this many characters (default 80). */
  charsPerCaption?: number;
  /** Build by this profile instead (charsPerCaption then ignored). */
  profile?: RulesProfile;
  /** A pause at least this long starts a new cue (ms). */
  pauseMs?: number;
  /** Longest cue duration (ms). */
  maxDurationMs?: number;
  /**
   * Name the speaker at each change of speaker: the cue opens with "<label>: "
   * and never spans two speakers. Without it, speakers are ignored unless the profile's build splits them.
   */
  speakerLabel?: (speaker: string) => string;
}

/** The one builder behind the service's /srt and /vtt (chars_per_caption), the library's exports and the editor. */
export function buildCues(words: readonly TimedWord[], opts: CueOptions = {}): Cue[] {
  let profile = opts.profile ?? charsPerCaptionProfile(opts.charsPerCaption ?? 80);
  if (opts.pauseMs !== undefined || opts.maxDurationMs !== undefined)
    profile = { ...profile, pauseMs: opts.pauseMs ?? profile.pauseMs, maxDurationMs: opts.maxDurationMs ?? profile.maxDurationMs };
  const label = opts.speakerLabel;
  if (!label) return buildCuesWith(words, profile, { speakers: opts.profile ? undefined : false });
  const cues = buildCuesWith(words, profile, { speakers: true });
  let last: string | null = null;
  for (const c of cues) {
    const s = c.speaker ?? null;
    if (s !== null && s !== last) c.text = `${label(s)}: ${c.text}`;
    last = s;
  }
  return cues;
}
