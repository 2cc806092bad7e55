/**
 * Speakers on a finished transcript: each word gets the speaker of the
 * diarization turn at its midpoint (src/shared/speaker-turns.ts), speakers are lettered A, B, … in the order
 * they are first heard, and utterances are built as the cloud builds them
 * (consecutive words of one speaker, split at long pauses).
 */
import type { Sentence, Utterance, Word } from '../../shared/api/transcript';
import { speakerAt as sharedSpeakerAt, type SpeakerTurn as SharedTurn } from '../../shared/speaker-turns';
import { round3 } from './format';

/** One diarization turn in milliseconds; `speaker` is the diarizer's cluster number. */
export type SpeakerTurn = SharedTurn<number>;

/** A pause between two words of one speaker longer than this starts a new utterance. */
export const UTTERANCE_PAUSE_MS = 1500;

/** A, B, …, Z, AA, AB, … */
export function speakerLetter(index: number): string {
  let s = '';
  let n = index;
  do {
    s = String.fromCharCode(65 + (n % 26)) + s;
    n = Math.floor(n / 26) - 1;
  } while (n >= 0);
  return s;
}

/** The diarizer's cluster number at a word (the shared rule: src/shared/speaker-turns.ts). */
export const speakerAt = (word: { start: number; end: number }, turns: readonly SpeakerTurn[]): number | null => sharedSpeakerAt(word, turns);

/**
 * Words with `speaker` filled: the cluster at each word, lettered in the
 * order speakers are first heard (the first voice is A). With no turns every
 * word is A: one voice, or too little speech to tell voices apart.
 */
export function assignSpeakers(words: readonly Word[], turns: readonly SpeakerTurn[]): Word[] {
  const letters = new Map<number, string>();
  return words.map((w) => {
    const cluster = speakerAt(w, turns) ?? 0;
    let letter = letters.get(cluster);
    if (letter === undefined) {
      letter = speakerLetter(letters.size);
      letters.set(cluster, letter);
    }
    return { ...w, speaker: letter };
  });
}

/** Words given their speakers by a label of each (e.g. a live session's You/Others), unchanged otherwise. */
export function labelWords(words: readonly Word[], label: (w: Word, i: number) => string | null): Word[] {
  return words.map((w, i) => ({ ...w, speaker: label(w, i) ?? w.speaker }));
}

/** Utterances: runs of consecutive words of one speaker, split where a pause is longer than `pauseMs`. */
export function buildUtterances(words: readonly Word[], pauseMs = UTTERANCE_PAUSE_MS): Utterance[] {
  const out: Utterance[] = [];
  let run: Word[] = [];
  const flush = (): void => {
    const first = run[0];
    const last = run[run.length - 1];
    if (!first || !last) return;
    out.push({
      speaker: first.speaker ?? 'A',
      text: run.map((w) => w.text).join(' '),
      start: first.start,
      end: last.end,
      confidence: round3(run.reduce((a, w) => a + w.confidence, 0) / run.length),
      words: run,
    });
    run = [];
  };
  for (const w of words) {
    const prev = run[run.length - 1];
    if (prev && (prev.speaker !== w.speaker || w.start - prev.end > pauseMs)) flush();
    run.push(w);
  }
  flush();
  return out;
}

/**
 * Sentences whose words carry the speakers of `words` (the sentences hold
 * the same words in the same order), split where the speaker changes, so a
 * sentence, like the cloud's, has one speaker.
 */
export function speakSentences(sentences: readonly Sentence[], words: readonly Word[]): Sentence[] {
  let i = 0;
  const out: Sentence[] = [];
  for (const s of sentences) {
    const mine = s.words.map((w) => {
      const labelled = words[i++];
      return labelled && labelled.start === w.start && labelled.end === w.end ? { ...w, speaker: labelled.speaker } : w;
    });
    const runs: Word[][] = [];
    for (const w of mine) {
      const run = runs[runs.length - 1];
      if (run && run[0]?.speaker === w.speaker) run.push(w);
      else runs.push([w]);
    }
    if (runs.length <= 1) {
      out.push({ ...s, words: mine, speaker: mine[0]?.speaker ?? null });
      continue;
    }
    for (const run of runs) {
      const first = run[0] as Word;
      const last = run[run.length - 1] as Word;
      out.push({
        ...s,
        text: run.map((w) => w.text).join(' '),
        start: first.start,
        end: last.end,
        confidence: round3(run.reduce((a, w) => a + w.confidence, 0) / run.length),
        words: run,
        speaker: first.speaker,
      });
    }
  }
  return out;
}
