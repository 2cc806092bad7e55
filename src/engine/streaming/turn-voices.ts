/**
 * Live speaker labels (`speaker_labels=true` on /v3/ws): keeps the audio of the turn in progress, and when
 * the turn ends, takes its voiceprint and places it by online clustering (bounded by `max_speakers`) among
 * the session's voices: "A" for the first voice heard, "B" for the next. A turn with under a second of
 * speech is "UNKNOWN", as the published spec says, since so little audio gives no reliable voiceprint.
 * A voice that matches one the app remembers (known-voices.ts) is labelled with that person's name instead,
 * and keeps it; the letters go, in order, to the voices that match nobody.
 */
import { OnlineSpeakers, speakerLetter } from '../../shared/voices/cluster';

const RATE = 16000;
/** Turns with less speech than this are labelled UNKNOWN (the spec's "approximately 1 second"). */
export const MIN_LABEL_MS = 1000;
/** At most this much of the latest audio is kept; a voiceprint needs far less. */
const KEEP_SAMPLES = 30 * RATE;
export const UNKNOWN_SPEAKER = 'UNKNOWN';

/** Takes the voiceprint of some 16 kHz PCM16 of one voice. */
export type Embed = (parts: Int16Array[]) => Promise<Float32Array>;
/** The name of a remembered voice that a speaker's direction matches, or null. */
export type Recognise = (direction: Float32Array) => string | null;

/** One labelled turn: its voiceprint (null: too short, or the print failed), its label now, its turn and the words sent. */
export interface VoiceRecord {
  print: Float32Array | null;
  /** The online speaker it was placed with (-1: none). */
  speaker: number;
  label: string;
  order: number | null;
  words: { text: string; start: number; end: number; confidence: number; word_is_final: boolean }[];
}

export class TurnVoices {
  /** Every labelled turn of the session, in order, for re-clustering (revisions.ts). */
  readonly records: VoiceRecord[] = [];
  private chunks: { at: number; pcm: Int16Array }[] = [];
  private kept = 0;
  private readonly speakers: OnlineSpeakers;
  /** Labels are placed in turn order, one after another, so the clustering sees turns as they came. */
  private queue: Promise<unknown> = Promise.resolve();
  /** Each speaker's label once given: a name, or a letter (letters count only the voices nobody is named for). */
  private readonly labels = new Map<number, { text: string; named: boolean }>();
  private letters = 0;

  private readonly bound: number | null;

  constructor(
    private readonly embed: Embed,
    maxSpeakers: number | null,
    private readonly recognise: Recognise | null = null,
  ) {
    this.bound = maxSpeakers;
    this.speakers = new OnlineSpeakers(maxSpeakers);
  }

  /** A speaker's label: a name stays; a letter gives way to a name once the voice's turns match a remembered one. */
  private labelOf(speaker: number): string {
    const had = this.labels.get(speaker);
    if (had?.named) return had.text;
    const direction = this.speakers.direction(speaker);
    const name = direction && this.recognise ? this.recognise(direction) : null;
    if (name) {
      this.labels.set(speaker, { text: name, named: true });
      return name;
    }
    if (had) return had.text;
    const letter = speakerLetter(this.letters++);
    this.labels.set(speaker, { text: letter, named: false });
    return letter;
  }

  /** Audio of the stream from sample `at` on (what the decoder hears). */
  hear(pcm: Int16Array, at: number): void {
    if (pcm.length === 0) return;
    this.chunks.push({ at, pcm: pcm.slice() });
    this.kept += pcm.length;
    while (this.chunks.length > 1 && this.kept - (this.chunks[0] as { pcm: Int16Array }).pcm.length >= KEEP_SAMPLES) {
      this.kept -= (this.chunks.shift() as { pcm: Int16Array }).pcm.length;
    }
  }

  /** The audio between two stream samples that is still kept, in pieces. */
  private span(from: number, to: number): Int16Array[] {
    const parts: Int16Array[] = [];
    for (const c of this.chunks) {
      const a = Math.max(from, c.at);
      const b = Math.min(to, c.at + c.pcm.length);
      if (b > a) parts.push(c.pcm.subarray(a - c.at, b - c.at));
    }
    return parts;
  }

  /**
   * The label of the turn whose speech ran from sample `from` to `to`; the audio before `to` is let go.
   * A failed voiceprint labels the turn UNKNOWN rather than ending the session.
   */
  label(from: number, to: number): Promise<string> {
    return this.labelTurn(from, to).label;
  }

  /** label(), and the record that re-clustering revises (the session fills in its turn order and words). */
  labelTurn(from: number, to: number): { label: Promise<string>; record: VoiceRecord } {
    const record: VoiceRecord = { print: null, speaker: -1, label: UNKNOWN_SPEAKER, order: null, words: [] };
    this.records.push(record);
    const parts = this.span(from, to);
    this.chunks = this.chunks.filter((c) => c.at + c.pcm.length > to);
    this.kept = this.chunks.reduce((n, c) => n + c.pcm.length, 0);
    const samples = parts.reduce((n, p) => n + p.length, 0);
    if ((samples / RATE) * 1000 < MIN_LABEL_MS) return { label: Promise.resolve(UNKNOWN_SPEAKER), record };
    // Started now (beside the turn's last decode); placed once the turns before it are.
    const print = this.embed(parts);
    print.catch(() => undefined);
    const label = this.queue
      .then(() => print)
      .then(
        (e) => {
          record.print = Float32Array.from(e);
          record.speaker = this.speakers.assign(e).speaker;
          return (record.label = this.labelOf(record.speaker));
        },
        () => UNKNOWN_SPEAKER,
      );
    this.queue = label;
    return { label, record };
  }

  /** Waits for the labels under way. */
  settled(): Promise<unknown> {
    return this.queue.catch(() => undefined);
  }

  /** The name a direction matches among the remembered voices, or null. */
  nameFor(direction: Float32Array): string | null {
    return this.recognise ? this.recognise(direction) : null;
  }

  /** After a revision: the online speaker `speaker` is called `label` from now on (a name stays a name). */
  relabel(speaker: number, label: string, named: boolean): void {
    this.labels.set(speaker, { text: label, named });
  }

  /** A letter no voice of the session has yet. */
  nextLetter(): string {
    const used = new Set([...this.labels.values()].map((l) => l.text));
    let l = speakerLetter(this.letters++);
    while (used.has(l)) l = speakerLetter(this.letters++);
    return l;
  }

  get maxSpeakers(): number | null {
    return this.bound;
  }
}
