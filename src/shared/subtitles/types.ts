/** The shapes every captions module shares: timed words in, cues out. Times are integer milliseconds. */

export interface TimedWord {
  text: string;
  start: number;
  end: number;
  /** Diarised speaker ("A", "B", …), when known. */
  speaker?: string | null;
}

export interface Cue {
  start: number;
  end: number;
  /** Lines joined by "\n"; may hold simple tags (<i>, <b>, <v Name>) from an imported file. */
  text: string;
  /** Inclusive indexes of the words it was built from; absent for imported or inserted cues. */
  words?: [number, number] | undefined;
  /** The speaker of its first word, when known. */
  speaker?: string | null | undefined;
  /** WebVTT: the cue's identifier line and its settings ("line:90% align:start"), kept on round trip. */
  ident?: string | undefined;
  settings?: string | undefined;
  /** WebVTT NOTE blocks that stood right before this cue, kept on round trip. */
  notes?: string[] | undefined;
}

/** A subtitle document: the cues plus what a WebVTT file carries before them (STYLE, REGION, NOTE blocks). */
export interface CueDoc {
  cues: Cue[];
  /** Raw blocks between the WEBVTT line and the first cue, each without its trailing blank line. */
  header: string[];
  /** NOTE blocks after the last cue. */
  trailer?: string[] | undefined;
}

/** A problem in an imported file, by line (1-based), so the user can find and fix it. */
export interface ParseProblem {
  line: number;
  message: string;
}
